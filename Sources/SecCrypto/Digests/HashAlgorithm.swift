/// The hash functions SecKit provides. MD5 and SHA-1 are broken for collision resistance and are
/// offered for interoperability only (certificate fingerprints, legacy servers).
public enum HashAlgorithm: String, CaseIterable, Sendable, Codable, CustomStringConvertible {
    /// Legacy: for interoperability only.
    case md5
    /// Legacy: for interoperability only.
    case sha1
    case sha224
    case sha256
    case sha384
    case sha512

    /// Digest length in bytes.
    public var byteCount: Int {
        switch self {
        case .md5: 16
        case .sha1: 20
        case .sha224: 28
        case .sha256: 32
        case .sha384: 48
        case .sha512: 64
        }
    }

    /// Internal block length in bytes (HMAC keys longer than this are hashed first, RFC 2104).
    public var blockByteCount: Int {
        switch self {
        case .md5, .sha1, .sha224, .sha256: 64
        case .sha384, .sha512: 128
        }
    }

    /// True for MD5 and SHA-1, which must not be chosen for new security designs.
    public var isInsecure: Bool { self == .md5 || self == .sha1 }

    /// The hash function type for this algorithm, for generic code chosen at run time.
    public var hashFunction: any HashFunction.Type {
        switch self {
        case .md5: Insecure.MD5.self
        case .sha1: Insecure.SHA1.self
        case .sha224: SHA224.self
        case .sha256: SHA256.self
        case .sha384: SHA384.self
        case .sha512: SHA512.self
        }
    }

    /// Lower-case name, as `openssl dgst` and `sha256sum` spell it (`sha256`).
    public var description: String { rawValue }

    /// Parses a name the way users write it: `sha256`, `SHA-256`, `sha_256`.
    public init?(name: String) {
        let folded = name.lowercased().filter { $0 != "-" && $0 != "_" }
        self.init(rawValue: folded)
    }
}
