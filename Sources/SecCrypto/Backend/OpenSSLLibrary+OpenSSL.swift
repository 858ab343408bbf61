internal import COpenSSL

/// Settings of the OpenSSL library for the whole process.
public enum OpenSSLLibrary {
    /// Tells OpenSSL not to tear its state down when the process exits, for a program that ends
    /// right after its work, such as a command-line tool. OpenSSL otherwise registers
    /// `OPENSSL_cleanup` with `atexit` at its first use, and that frees every provider, fetched
    /// algorithm, name table and random generator one by one (about 1.3 million instructions after
    /// a Secret Service read: docs/performance-journal.md), memory that the kernel takes back at the
    /// process's end anyway. Random generators and keys are zeroed when SecKit releases them, and
    /// what is left is unreachable once the process has ended, as without this call.
    ///
    /// Takes effect only as the process's first use of OpenSSL; a library must not call it, since
    /// its host may want `OPENSSL_cleanup` (a leak checker, or code that unloads OpenSSL).
    public static func skipCleanupAtExit() {
        OPENSSL_init_crypto(UInt64(OPENSSL_INIT_NO_ATEXIT), nil)
    }
}
