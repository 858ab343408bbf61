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
    /// SHA-512/256 (FIPS 180-4 §5.3.6): SHA-512 with its own initial values, cut to 32 bytes. Not
    /// the first half of a SHA-512 digest. HTTP Digest authentication's `SHA-512-256` (RFC 7616).
    case sha512_256 = "sha512-256"

    /// Digest length in bytes.
    public var byteCount: Int {
        switch self {
        case .md5: 16
        case .sha1: 20
        case .sha224: 28
        case .sha256: 32
        case .sha384: 48
        case .sha512: 64
        case .sha512_256: 32
        }
    }

    /// Internal block length in bytes (HMAC keys longer than this are hashed first, RFC 2104).
    public var blockByteCount: Int {
        switch self {
        case .md5, .sha1, .sha224, .sha256: 64
        case .sha384, .sha512, .sha512_256: 128
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
        case .sha512_256: SHA512_256.self
        }
    }

    /// Lower-case name, as `openssl dgst` and `sha256sum` spell it (`sha256`).
    public var description: String { rawValue }

    /// Parses a name the way users write it: `sha256`, `SHA-256`, `sha_256`, `SHA-512/256`.
    ///
    /// Returns `nil` for a name that is none of the algorithms, case and the separators `-`, `_`
    /// and `/` aside.
    ///
    /// - Parameter name: The algorithm's name as a user typed it.
    public init?(name: String) {
        let folded = Self.folded(name)
        guard let algorithm = Self.allCases.first(where: { Self.folded($0.rawValue) == folded }) else { return nil }
        self = algorithm
    }

    /// The name without case and the separators people put between its parts.
    private static func folded(_ name: String) -> String {
        name.lowercased().filter { $0 != "-" && $0 != "_" && $0 != "/" }
    }
}
