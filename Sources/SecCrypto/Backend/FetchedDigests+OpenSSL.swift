internal import COpenSSL

/// `EVP_MD` objects fetched once per process. OpenSSL 3 re-fetches on every init when given the
/// legacy `EVP_sha256()` objects; explicit fetching keeps the hot paths free of name look-ups.
private struct FetchedDigest: @unchecked Sendable {
    // EVP_MD objects are immutable and reference-counted by OpenSSL; sharing across threads is safe.
    let pointer: OpaquePointer

    init(_ name: String) {
        guard let md = EVP_MD_fetch(nil, name, nil) else {
            fatalError(CryptoError.openSSL("EVP_MD_fetch(\(name))").description)
        }
        pointer = md
    }
}

private enum FetchedDigests {
    static let md5 = FetchedDigest("MD5")
    static let sha1 = FetchedDigest("SHA1")
    static let sha224 = FetchedDigest("SHA224")
    static let sha256 = FetchedDigest("SHA256")
    static let sha384 = FetchedDigest("SHA384")
    static let sha512 = FetchedDigest("SHA512")
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
