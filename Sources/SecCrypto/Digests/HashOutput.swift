/// The output of a hash function (`Digest`) or of HMAC (`AuthenticationCode`): the algorithm, the
/// bytes, their hex and base64 forms, and constant-time equality. `Kind` keeps the two apart, so a
/// digest is never compared with, or passed as, a MAC.
public struct HashOutput<Kind: HashOutputKind>: ContiguousBytes, Hashable, Sendable, CustomStringConvertible {
    /// The hash function that produced the output (for HMAC, the one HMAC was built on).
    public let algorithm: HashAlgorithm
    /// The raw bytes.
    public let bytes: [UInt8]

    init(algorithm: HashAlgorithm, bytes: [UInt8]) {
        self.algorithm = algorithm
        self.bytes = bytes
    }

    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes(body)
    }

    /// Number of bytes.
    public var byteCount: Int { bytes.count }

    /// Lower-case hex, as `sha256sum` and `openssl dgst` print it.
    public var hexString: String { Hex.encode(bytes) }

    /// Standard padded base64.
    public var base64String: String { Base64.encode(bytes) }

    /// Compares in time independent of where the bytes differ (`CRYPTO_memcmp`).
    public static func == (lhs: Self, rhs: Self) -> Bool { constantTimeEquals(lhs.bytes, rhs.bytes) }

    public func hash(into hasher: inout Hasher) { hasher.combine(bytes) }

    public var description: String { hexString }
}

/// What a `HashOutput` is: `DigestKind` or `AuthenticationCodeKind`.
public protocol HashOutputKind: Sendable {}

/// Marks the output of a hash function.
public enum DigestKind: HashOutputKind {}

/// Marks the output of HMAC.
public enum AuthenticationCodeKind: HashOutputKind {}

/// The output of a hash function.
public typealias Digest = HashOutput<DigestKind>

/// The output of HMAC. Compare it only with `==` (constant-time) or `HMAC.isValidAuthenticationCode`.
public typealias AuthenticationCode = HashOutput<AuthenticationCodeKind>
