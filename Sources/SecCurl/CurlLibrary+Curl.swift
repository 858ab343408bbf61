package import CCurl
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// libcurl, loaded by the first request that needs it (dlopen; CCurl's shim.h says why it is not
/// linked). It stays loaded until the process ends.
package final class CurlLibrary: @unchecked Sendable {
    // Set once in init, then only read.
    /// libcurl's functions, called through the shim's wrappers.
    package let functions: SecKitCurl

    private static let loaded = Mutex<CurlLibrary?>(nil)

    /// The process's libcurl; `unusable` saying what is missing when it cannot be loaded. A failure
    /// is not kept: the next request tries again.
    package static func load() throws(CurlError) -> CurlLibrary {
        try loaded.withLock { (library) throws(CurlError) in
            if let library { return library }
            let new = try CurlLibrary()
            library = new
            return new
        }
    }

    private init() throws(CurlError) {
        // RTLD_LAZY binds as `curl` itself is bound at start-up: libcurl (linked with BIND_NOW) and
        // its dependencies that ask for it at once, the others' functions at their first call.
        // RTLD_NOW would bind every function of LDAP, Kerberos, GnuTLS (librtmp's) and the rest
        // that a KV read never calls: a quarter of the dlopen, 3.4 M instructions per process
        // (docs/performance-journal.md). The functions SecKit calls are still checked here (dlsym).
        guard let library = dlopen("libcurl.so.4", RTLD_LAZY | RTLD_LOCAL) else {
            throw .unusable(
                "libcurl could not be loaded (\(Self.loaderMessage)): install it (Debian and Ubuntu: libcurl4)"
            )
        }
        var functions = SecKitCurl()
        guard seckit_curl_resolve(library, &functions) != 0 else {
            throw .unusable("libcurl lacks a function SecKit needs (\(Self.loaderMessage))")
        }
        // The TLS library first (the first version of the structure has it): SecVault verifies on
        // curl's SSL_CTX, which must be OpenSSL's.
        guard let info = functions.version_info(CURLVERSION_FIRST), let ssl = info.pointee.ssl_version,
            String(cString: ssl).hasPrefix("OpenSSL/")
        else {
            throw .unusable(
                "the libcurl found is not built with OpenSSL: install Debian's libcurl4 (not libcurl3-gnutls or -nss)"
            )
        }
        guard functions.global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK else {
            throw .unusable("libcurl could not be initialised")
        }
        self.functions = functions
    }

    private static var loaderMessage: String { dlerror().map { String(cString: $0) } ?? "unknown reason" }
}

/// One libcurl easy handle, cleaned up with its owner. Used by one request at a time.
package final class CurlEasy: @unchecked Sendable {
    package let library: CurlLibrary
    /// The `CURL *`.
    package let handle: UnsafeMutableRawPointer

    /// A new handle of the process's libcurl (loaded here on first use).
    package init() throws(CurlError) {
        library = try CurlLibrary.load()
        guard let handle = library.functions.easy_init() else { throw .unusable("curl_easy_init failed") }
        self.handle = handle
    }

    deinit { library.functions.easy_cleanup(handle) }

    /// Runs `body` with the function table (the shim's wrappers take it) and the handle.
    package func withFunctions<R>(_ body: (UnsafePointer<SecKitCurl>, UnsafeMutableRawPointer) -> R) -> R {
        var table = library.functions
        return withUnsafePointer(to: &table) { body($0, handle) }
    }

    /// libcurl's text for `code`.
    package func message(_ code: CURLcode) -> String {
        library.functions.easy_strerror(code).map { String(cString: $0) } ?? "curl error \(code.rawValue)"
    }
}
