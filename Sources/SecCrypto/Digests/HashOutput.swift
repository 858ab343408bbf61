/// The output of a hash function or of HMAC: the algorithm, the bytes, their hex and base64 forms,
/// and constant-time equality. `Kind` says whose output it is, so outputs of different kinds are
/// different types, never compared with or passed as each other: `SHA256Digest` (`HashOutput<SHA256>`)
/// is not a `SHA512Digest`, and neither is an `HMAC<SHA256>.MAC` (`HashOutput<HMAC<SHA256>>`).
///
/// It is a `Sequence` of its bytes, so `Array(digest)` and `Data(mac)` copy them out; a `Digest` or a
/// `MessageAuthenticationCode` compares in constant time with any `DataProtocol` too (`digest ==
/// receivedData`, `DispatchData` included).
public struct HashOutput<Kind: HashOutputKind>: ContiguousBytes, Sequence, Hashable, Sendable, CustomStringConvertible {
    /// The hash function that produced the output (for HMAC, the one HMAC was built on).
    public let algorithm: HashAlgorithm
    /// The raw bytes.
    public let bytes: [UInt8]

    @usableFromInline
    init(algorithm: HashAlgorithm, bytes: [UInt8]) {
        self.algorithm = algorithm
        self.bytes = bytes
    }

    /// Calls `body` with the raw bytes, without copying them.
    ///
    /// - Parameter body: A closure that reads the bytes; the pointer is valid only during the call.
    /// - Returns: What `body` returns.
    /// - Throws: Whatever `body` throws; this method throws nothing of its own.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes(body)
    }

    /// The bytes, in order.
    ///
    /// - Returns: An iterator over the bytes, first to last.
    public func makeIterator() -> IndexingIterator<[UInt8]> { bytes.makeIterator() }

    /// Number of bytes.
    public var byteCount: Int { bytes.count }

    /// Lower-case hex, as `sha256sum` and `openssl dgst` print it.
    public var hexString: String { Hex.encode(bytes) }

    /// Standard padded base64.
    public var base64String: String { Base64.encode(bytes) }

    /// Compares in time independent of where the bytes differ (`CRYPTO_memcmp`).
    ///
    /// - Parameters:
    ///   - lhs: An output.
    ///   - rhs: Another output of the same kind.
    /// - Returns: `true` when both have the same bytes; outputs of different lengths are unequal.
    public static func == (lhs: Self, rhs: Self) -> Bool { constantTimeEquals(lhs.bytes, rhs.bytes) }

    /// Feeds the bytes to `hasher`, so that equal outputs hash alike in a `Set` or `Dictionary`.
    ///
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) { hasher.combine(bytes) }

    public var description: String { hexString }
}

/// Whose output a `HashOutput` is: a `HashFunction` (its digest), `HMAC<H>` (its code), or, for
/// algorithms chosen at run time, `DigestKind` or `AuthenticationCodeKind`.
public protocol HashOutputKind: Sendable {}

/// Marks the output of `DigestHasher`, whose algorithm is chosen at run time.
public enum DigestKind: HashOutputKind {}

/// Marks an HMAC output whose algorithm is chosen at run time.
public enum AuthenticationCodeKind: MessageAuthenticationCodeKind {}

/// Marks the outputs that are message authentication codes: `HMAC<H>` and `AuthenticationCodeKind`.
public protocol MessageAuthenticationCodeKind: HashOutputKind {}

/// The output of a hash function whose algorithm is chosen at run time (`DigestHasher`). A static
/// type's digest is its own type, `SHA256.Digest` and so on.
public typealias AnyDigest = HashOutput<DigestKind>

/// The output of HMAC with an algorithm chosen at run time. Compare it only with `==` (constant-time)
/// or `HMAC.isValidAuthenticationCode`.
public typealias AuthenticationCode = HashOutput<AuthenticationCodeKind>

/// The digest of a hash function, as CryptoKit's: its bytes as a `Sequence` and `ContiguousBytes`,
/// `Hashable`, its length as a static, and `==` in constant time with its own type or any
/// `DataProtocol`. `SHA256.Digest` (`SHA256Digest`) and the others are `HashOutput`s.
public protocol Digest: Hashable, Sendable, ContiguousBytes, CustomStringConvertible, Sequence
where Element == UInt8 {
    /// The digest length in bytes.
    static var byteCount: Int { get }
}

/// A message authentication code, as CryptoKit's: `HMAC<H>.MAC` (`HashedAuthenticationCode<H>`).
public protocol MessageAuthenticationCode: Hashable, Sendable, ContiguousBytes, CustomStringConvertible, Sequence
where Element == UInt8 {
    /// The code's length in bytes.
    var byteCount: Int { get }
}

extension Digest {
    /// Compares with bytes from anywhere (`Data`, `[UInt8]`, `DispatchData`), in time independent of
    /// where they differ. Bytes of another length are unequal.
    ///
    /// - Parameters:
    ///   - lhs: The digest.
    ///   - rhs: The bytes to compare it with.
    /// - Returns: `true` when `rhs` holds exactly the digest's bytes.
    public static func == (lhs: Self, rhs: some DataProtocol) -> Bool { constantTimeEquals(lhs, data: rhs) }

    /// `!(lhs == rhs)`, in constant time.
    ///
    /// - Parameters:
    ///   - lhs: The digest.
    ///   - rhs: The bytes to compare it with.
    /// - Returns: `true` when `rhs` differs from the digest's bytes in length or content.
    public static func != (lhs: Self, rhs: some DataProtocol) -> Bool { !constantTimeEquals(lhs, data: rhs) }

    /// Lower-case hex, as `sha256sum` and `openssl dgst` print it.
    public var hexString: String { Hex.encode(self) }

    /// Standard padded base64.
    public var base64String: String { Base64.encode(self) }
}

extension MessageAuthenticationCode {
    /// Compares with bytes from anywhere (`Data`, `[UInt8]`, `DispatchData`), in time independent of
    /// where they differ. Bytes of another length are unequal.
    ///
    /// - Parameters:
    ///   - lhs: The code.
    ///   - rhs: The bytes to compare it with.
    /// - Returns: `true` when `rhs` holds exactly the code's bytes.
    public static func == (lhs: Self, rhs: some DataProtocol) -> Bool { constantTimeEquals(lhs, data: rhs) }

    /// `!(lhs == rhs)`, in constant time.
    ///
    /// - Parameters:
    ///   - lhs: The code.
    ///   - rhs: The bytes to compare it with.
    /// - Returns: `true` when `rhs` differs from the code's bytes in length or content.
    public static func != (lhs: Self, rhs: some DataProtocol) -> Bool { !constantTimeEquals(lhs, data: rhs) }
}

extension HashOutput: Digest where Kind: HashFunction {
    /// The digest length in bytes.
    public static var byteCount: Int { Kind.algorithm.byteCount }
}

extension HashOutput: MessageAuthenticationCode where Kind: MessageAuthenticationCodeKind {}

/// An HMAC's code (CryptoKit's name): `HMAC<SHA256>.MAC` is `HashedAuthenticationCode<SHA256>`.
public typealias HashedAuthenticationCode<H: HashFunction> = HashOutput<HMAC<H>>

/// SHA-224's digest.
public typealias SHA224Digest = HashOutput<SHA224>
/// SHA-256's digest.
public typealias SHA256Digest = HashOutput<SHA256>
/// SHA-384's digest.
public typealias SHA384Digest = HashOutput<SHA384>
/// SHA-512's digest.
public typealias SHA512Digest = HashOutput<SHA512>
/// SHA-512/256's digest.
public typealias SHA512256Digest = HashOutput<SHA512_256>

extension Insecure {
    /// MD5's digest.
    public typealias MD5Digest = HashOutput<Insecure.MD5>
    /// SHA-1's digest.
    public typealias SHA1Digest = HashOutput<Insecure.SHA1>
}
