internal import COpenSSL
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// libssl, loaded by the first TLS context the process makes (dlopen; COpenSSL's shim.h says why it
/// is not linked). It stays loaded until the process ends. libcrypto, which it needs, is the one the
/// process already has.
final class SSLLibrary: @unchecked Sendable {
    // Set once in init, then only read.
    /// libssl's functions, each under its own name.
    let functions: SecKitLibSSL

    private static let shared = Mutex<SSLLibrary?>(nil)

    /// The process's libssl, loaded on first use; `backendFailure` saying what is missing when it
    /// cannot be loaded. A failure is not kept: the next context tries again (`dlopen` can also
    /// fail for a moment, out of file descriptors or memory).
    static func load() throws(TLSError) -> SSLLibrary {
        try shared.withLock { (library) throws(TLSError) in
            if let library { return library }
            let new = try SSLLibrary()
            library = new
            return new
        }
    }

    /// The functions, for libssl's own callbacks: libssl calls them, so it was loaded.
    static var loaded: SecKitLibSSL {
        guard let library = shared.withLock({ $0 }) else { preconditionFailure("libssl called back before its load") }
        return library.functions
    }

    private init() throws(TLSError) {
        // RTLD_NOW: libssl is linked BIND_NOW anyway, and a missing symbol should fail here, not mid-handshake.
        guard let library = dlopen("libssl.so.\(OPENSSL_SHLIB_VERSION)", RTLD_NOW | RTLD_LOCAL) else {
            throw .backendFailure(
                "libssl could not be loaded (\(Self.loaderMessage)): install it (Debian and Ubuntu: libssl3)"
            )
        }
        var functions = SecKitLibSSL()
        guard seckit_libssl_resolve(library, &functions) != 0 else {
            throw .backendFailure("libssl lacks a function SecKit needs (\(Self.loaderMessage))")
        }
        self.functions = functions
    }

    private static var loaderMessage: String { dlerror().map { String(cString: $0) } ?? "unknown reason" }
}
