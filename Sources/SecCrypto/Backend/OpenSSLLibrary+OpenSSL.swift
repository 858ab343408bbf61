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

    /// Starts OpenSSL for a short process whose every algorithm is fixed by the protocol it speaks
    /// and fetched by the name its provider gives it, such as a command that reads one Secret
    /// Service secret (Diffie-Hellman, HKDF-SHA-256 and AES-128-CBC, which no configuration can
    /// change). Besides `skipCleanupAtExit()`, OpenSSL then reads no configuration file, fills no
    /// legacy name table and loads no error texts: OpenSSL 3.0 does all three at the first fetch of
    /// an algorithm or the first mark on its error queue, copying every legacy cipher and digest
    /// name into the library context's name map; together about 18 % of such a command's
    /// instructions (docs/performance-journal.md).
    ///
    /// What the process gives up: the system's `openssl.cnf` (the providers, properties and TLS
    /// policy it names) is not applied, so the process must not negotiate algorithms, TLS above
    /// all; the legacy look-ups by name (`EVP_get_cipherbyname`, `EVP_get_digestbyname`, and the
    /// parts of OpenSSL built on them, such as PEM encryption and some X.509 paths) find nothing;
    /// and an OpenSSL error is reported by its codes (`error:0308010C:lib(6)::reason(524556)`, which
    /// `openssl errstr` spells out) after SecKit's own words for what failed. Every other process,
    /// and every command that negotiates, starts OpenSSL as usual.
    ///
    /// Takes effect only as the process's first use of OpenSSL; a library must not call it.
    public static func startForFixedAlgorithms() {
        let options =
            OPENSSL_INIT_NO_ATEXIT | OPENSSL_INIT_NO_LOAD_CONFIG | OPENSSL_INIT_NO_ADD_ALL_CIPHERS
            | OPENSSL_INIT_NO_ADD_ALL_DIGESTS | OPENSSL_INIT_NO_LOAD_CRYPTO_STRINGS
        OPENSSL_init_crypto(UInt64(options), nil)
    }
}
