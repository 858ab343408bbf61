import SecCrypto

/// The `algorithm` values of an HTTP Digest challenge (RFC 7616 §3.3, §6.1), each with its `-sess`
/// form, whose H(A1) also covers the nonce and the client nonce.
public enum DigestAlgorithm: String, CaseIterable, Sendable, CustomStringConvertible {
    /// Legacy: MD5 collisions are practical; offered by old servers only.
    case md5 = "MD5"
    case md5Session = "MD5-sess"
    case sha256 = "SHA-256"
    case sha256Session = "SHA-256-sess"
    /// SHA-512/256, RFC 7616's strongest.
    case sha512_256 = "SHA-512-256"
    case sha512_256Session = "SHA-512-256-sess"

    /// The value of a challenge's `algorithm` parameter (case-insensitive); nil for one SecHTTPAuth
    /// does not implement (`SHA`, a future hash), which the challenge is then skipped for.
    ///
    /// - Parameter challengeValue: the value of the challenge's `algorithm` parameter, such as
    ///   `SHA-256-sess`.
    public init?(challengeValue: String) {
        let value = challengeValue.lowercased()
        guard let algorithm = Self.allCases.first(where: { $0.rawValue.lowercased() == value }) else { return nil }
        self = algorithm
    }

    /// The hash function behind H and KD.
    public var hash: HashAlgorithm {
        switch self {
        case .md5, .md5Session: .md5
        case .sha256, .sha256Session: .sha256
        case .sha512_256, .sha512_256Session: .sha512_256
        }
    }

    /// True for the `-sess` forms.
    public var isSession: Bool { rawValue.hasSuffix("-sess") }

    /// The rank used to choose among challenges: SHA-512-256 over SHA-256 over MD5, the `-sess` form
    /// ranking with its hash.
    var strength: Int {
        switch hash {
        case .sha512_256: 3
        case .sha256: 2
        default: 1
        }
    }

    /// The value sent back in the `algorithm` parameter.
    public var description: String { rawValue }
}
