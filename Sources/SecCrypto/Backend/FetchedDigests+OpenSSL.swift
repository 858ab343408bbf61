internal import COpenSSL

/// The digests, fetched on first use.
private enum FetchedDigests {
    static let md5 = fetch(.md5)
    static let sha1 = fetch(.sha1)
    static let sha224 = fetch(.sha224)
    static let sha256 = fetch(.sha256)
    static let sha384 = fetch(.sha384)
    static let sha512 = fetch(.sha512)

    private static func fetch(_ algorithm: HashAlgorithm) -> FetchedObject {
        FetchedObject(algorithm.openSSLName) { EVP_MD_fetch(nil, $0, nil) }
    }
}

extension HashAlgorithm {
    /// The fetched `EVP_MD` for this algorithm.
    var evpMD: OpaquePointer {
        switch self {
        case .md5: FetchedDigests.md5.pointer
        case .sha1: FetchedDigests.sha1.pointer
        case .sha224: FetchedDigests.sha224.pointer
        case .sha256: FetchedDigests.sha256.pointer
        case .sha384: FetchedDigests.sha384.pointer
        case .sha512: FetchedDigests.sha512.pointer
        }
    }

    /// OpenSSL's name for the digest (used as the HMAC `digest` parameter).
    var openSSLName: String {
        switch self {
        case .md5: "MD5"
        case .sha1: "SHA1"
        case .sha224: "SHA224"
        case .sha256: "SHA256"
        case .sha384: "SHA384"
        case .sha512: "SHA512"
        }
    }
}
