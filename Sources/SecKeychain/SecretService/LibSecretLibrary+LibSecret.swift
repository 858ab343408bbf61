internal import CLibSecret
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// libsecret, loaded by the process's first write (dlopen; CLibSecret's shim.h says why it is not
/// linked). It stays loaded until the process ends.
final class LibSecretLibrary: @unchecked Sendable {
    // Set once in init, then only read.
    /// libsecret's functions that writes call.
    let functions: SecKitLibSecret

    private static let loaded = Mutex<LibSecretLibrary?>(nil)

    /// The process's libsecret, loaded on first use; `backendFailure` saying what is missing when
    /// it cannot be loaded. A failure is not kept: the next write tries again (`dlopen` can also fail
    /// for a moment, out of file descriptors or memory).
    static func load() throws(KeychainError) -> LibSecretLibrary {
        try loaded.withLock { (library) throws(KeychainError) in
            if let library { return library }
            let new = try LibSecretLibrary()
            library = new
            return new
        }
    }

    private init() throws(KeychainError) {
        guard let library = dlopen("libsecret-1.so.0", RTLD_NOW | RTLD_LOCAL) else {
            throw .backendFailure(
                "libsecret could not be loaded (\(Self.loaderMessage)): install it (Debian and Ubuntu: libsecret-1-0)"
            )
        }
        var functions = SecKitLibSecret()
        guard seckit_libsecret_resolve(library, &functions) != 0 else {
            throw .backendFailure(
                "libsecret lacks a function SecKit needs (\(Self.loaderMessage)): libsecret 0.18 or newer is needed"
            )
        }
        self.functions = functions
    }

    private static var loaderMessage: String { dlerror().map { String(cString: $0) } ?? "unknown reason" }
}
