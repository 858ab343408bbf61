/// Shared behaviour of digests and authentication codes: byte access, hex and base64 forms,
/// and constant-time equality.
public protocol DigestBytes: ContiguousBytes, Hashable, Sendable, CustomStringConvertible {
    /// The raw digest bytes.
    var bytes: [UInt8] { get }
}

extension DigestBytes {
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

/// The output of a hash function.
public struct Digest: DigestBytes {
    /// The algorithm that produced this digest.
    public let algorithm: HashAlgorithm
    public let bytes: [UInt8]

    init(algorithm: HashAlgorithm, bytes: [UInt8]) {
        self.algorithm = algorithm
        self.bytes = bytes
    }
}

/// The output of HMAC. Compare it only with `==` (constant-time) or `HMAC.isValidAuthenticationCode`.
public struct AuthenticationCode: DigestBytes {
    /// The hash function HMAC was built on.
    public let algorithm: HashAlgorithm
    public let bytes: [UInt8]

    init(algorithm: HashAlgorithm, bytes: [UInt8]) {
        self.algorithm = algorithm
        self.bytes = bytes
    }
}
