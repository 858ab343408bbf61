internal import COpenSSL
import SecCrypto

#if canImport(Glibc)
import Glibc
#endif

/// The trust anchors of a `TrustRoots` in an OpenSSL `X509_STORE`, read in full when made, so that
/// verifying with it later reads no file (it may run on an event loop). Never modified after
/// `init`: connections and verifiers share it across threads.
final class TrustStore: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Throws `invalidConfiguration` for an unreadable or certificate-less CA file or an empty list.
    /// `.pinsOnly` has no anchors: the caller builds a store of the pinned certificates instead.
    init(_ roots: TrustRoots) throws(TLSError) {
        guard let store = X509_STORE_new() else { throw .openSSL("X509_STORE_new") }
        pointer = store
        switch roots {
        case .system:
            try loadSystemAnchors()
        case .caFile(let path):
            try load(caFile: path)
        case .certificates(let certificates):
            guard !certificates.isEmpty else {
                throw .invalidConfiguration("the list of trusted CA certificates is empty")
            }
            for certificate in certificates {
                // A certificate listed twice is not an error.
                if X509_STORE_add_cert(store, certificate.handle.pointer) != 1 { OpenSSLError.clearQueue() }
            }
        case .pinsOnly:
            break
        }
    }

    deinit { X509_STORE_free(pointer) }

    private func load(caFile path: String) throws(TLSError) {
        guard access(path, R_OK) == 0 else { throw .invalidConfiguration("cannot read the CA file \(path)") }
        guard X509_STORE_load_file(pointer, path) == 1 else {
            let reasons = OpenSSLError.drainQueue()
            throw .invalidConfiguration(
                "no CA certificate could be loaded from \(path)" + (reasons.last.map { " (\($0))" } ?? "")
            )
        }
    }

    /// OpenSSL's default CA bundle file (`SSL_CERT_FILE` overrides it), read now. OpenSSL's hashed
    /// directory (`SSL_CERT_DIR`) is only consulted, lazily, when it is set or when there is no
    /// bundle: on Debian and its kin the bundle holds every certificate of the directory.
    private func loadSystemAnchors() throws(TLSError) {
        let environment = ProcessInfo.processInfo.environment
        let file = environment["SSL_CERT_FILE"] ?? String(cString: X509_get_default_cert_file())
        let hasBundle = access(file, R_OK) == 0
        if hasBundle {
            try load(caFile: file)
        }
        if !hasBundle || environment["SSL_CERT_DIR"] != nil {
            let directory = environment["SSL_CERT_DIR"] ?? String(cString: X509_get_default_cert_dir())
            guard X509_STORE_load_path(pointer, directory) == 1 else {
                throw .invalidConfiguration("no system CA bundle (\(file)) and no CA directory (\(directory))")
            }
        }
    }
}

extension TrustStore {
    /// The anchors read into the store (not those OpenSSL would find later in a hashed directory).
    var anchors: [X509Certificate] {
        guard let objects = X509_STORE_get0_objects(pointer) else { return [] }
        var result: [X509Certificate] = []
        for index in 0..<OPENSSL_sk_num(objects) {
            let object = OPENSSL_sk_value(objects, index).map(OpaquePointer.init)
            if let x509 = X509_OBJECT_get0_X509(object),
                let certificate = try? X509Certificate(handle: X509Handle(retaining: x509))
            {
                result.append(certificate)
            }
        }
        return result
    }
}
