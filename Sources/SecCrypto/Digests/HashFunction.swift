/// A hash function with a static algorithm: `SHA256`, `SHA384`, `Insecure.MD5`, ...
///
/// ```swift
/// let digest = SHA256.hash(data: Data("test string".utf8))
/// print(digest.hexString)   // d5579c46...
///
/// var sha = SHA512()
/// sha.update(data: chunk1)
/// sha.update(data: chunk2)
/// let digest = sha.finalize()
/// ```
public protocol HashFunction: IncrementalHashing, HashOutputKind where Output == Digest {
    /// The digest type: `HashOutput<Self>` (`SHA256.Digest` is `SHA256Digest`).
    associatedtype Digest: SecCrypto.Digest
    /// The algorithm this type computes.
    static var algorithm: HashAlgorithm { get }
    /// The internal block length in bytes (HMAC keys longer than this are hashed first).
    static var blockByteCount: Int { get }
    /// Starts a new computation.
    init()
    /// One-shot digest of raw bytes.
    ///
    /// - Parameter bufferPointer: The bytes to hash.
    /// - Returns: The digest of the bytes, ``HashFunction/byteCount`` long.
    static func hash(bufferPointer: UnsafeRawBufferPointer) -> Digest
}

extension HashFunction {
    /// Digest length in bytes (also `Digest.byteCount`).
    public static var byteCount: Int { algorithm.byteCount }

    public static var blockByteCount: Int { algorithm.blockByteCount }
}

// The one-shot forms are inlined, so that they run specialized for the hash: code generic over it
// would look up the metadata of `HashOutput<Self>` on every call (callgrind: +7 % for SHA-256 of 64
// bytes). See docs/performance-journal.md.
extension HashFunction where Digest == HashOutput<Self> {
    /// One-shot digest of raw bytes, computed by OpenSSL in one call.
    ///
    /// - Parameter bufferPointer: The bytes to hash.
    /// - Returns: The digest of the bytes, ``HashFunction/byteCount`` long.
    @inlinable
    public static func hash(bufferPointer: UnsafeRawBufferPointer) -> Digest {
        Digest(algorithm: algorithm, bytes: DigestContext.digest(algorithm, of: bufferPointer))
    }
}

extension HashFunction {
    /// One-shot digest of any bytes; contiguous input is hashed without copying.
    ///
    /// - Parameter data: The bytes to hash, contiguous or in several regions (`DispatchData`).
    /// - Returns: The digest of the bytes, ``HashFunction/byteCount`` long.
    @inlinable
    public static func hash(data: some DataProtocol) -> Digest {
        if let digest = data.withContiguousStorageIfAvailable({ hash(bufferPointer: UnsafeRawBufferPointer($0)) }) {
            return digest
        }
        var hasher = Self()
        hasher.update(data: data)
        return hasher.finalize()
    }

    /// One-shot digest of the UTF-8 bytes of `string`.
    ///
    /// - Parameter string: The text whose UTF-8 encoding is hashed (no terminating zero).
    /// - Returns: The digest of the bytes, ``HashFunction/byteCount`` long.
    @inlinable
    public static func hash(string: String) -> Digest {
        var string = string
        return string.withUTF8 { hash(bufferPointer: UnsafeRawBufferPointer($0)) }
    }
}

/// A hash function type's running state: a `DigestHasher` the type keeps to itself.
protocol DigestHasherBacked: HashFunction where Digest == HashOutput<Self> {
    var hasher: DigestHasher { get set }
}

extension DigestHasherBacked {
    public mutating func update(bufferPointer: UnsafeRawBufferPointer) { hasher.update(bufferPointer: bufferPointer) }

    public func finalize() -> Digest { hasher.finalize(as: Self.self) }
}

/// SHA-224 (FIPS 180-4).
public struct SHA224: DigestHasherBacked {
    public typealias Digest = HashOutput<SHA224>
    public static let algorithm = HashAlgorithm.sha224
    var hasher = DigestHasher(algorithm)
    public init() {}
}

/// SHA-256 (FIPS 180-4).
public struct SHA256: DigestHasherBacked {
    public typealias Digest = HashOutput<SHA256>
    public static let algorithm = HashAlgorithm.sha256
    var hasher = DigestHasher(algorithm)
    public init() {}
}

/// SHA-384 (FIPS 180-4).
public struct SHA384: DigestHasherBacked {
    public typealias Digest = HashOutput<SHA384>
    public static let algorithm = HashAlgorithm.sha384
    var hasher = DigestHasher(algorithm)
    public init() {}
}

/// SHA-512 (FIPS 180-4).
public struct SHA512: DigestHasherBacked {
    public typealias Digest = HashOutput<SHA512>
    public static let algorithm = HashAlgorithm.sha512
    var hasher = DigestHasher(algorithm)
    public init() {}
}

/// SHA-512/256 (FIPS 180-4 §5.3.6): 32 bytes, SHA-512's speed on 64-bit machines, its own initial
/// values (not a truncated SHA-512), and no length extension.
public struct SHA512_256: DigestHasherBacked {
    public typealias Digest = HashOutput<SHA512_256>
    public static let algorithm = HashAlgorithm.sha512_256
    var hasher = DigestHasher(algorithm)
    public init() {}
}

/// SHA-512/256 by `_CryptoExtras`' name.
public typealias SHA512256 = SHA512_256

/// Algorithms that are broken for their original security purpose, kept for interoperability
/// (certificate fingerprints, legacy servers). Their names mark each use at the call site.
public enum Insecure {
    /// MD5 (RFC 1321). Collisions are practical: never use it to authenticate anything new.
    public struct MD5: DigestHasherBacked {
        public typealias Digest = HashOutput<MD5>
        public static let algorithm = HashAlgorithm.md5
        var hasher = DigestHasher(algorithm)
        public init() {}
    }

    /// SHA-1 (FIPS 180-4). Collisions are practical: never use it to authenticate anything new.
    public struct SHA1: DigestHasherBacked {
        public typealias Digest = HashOutput<SHA1>
        public static let algorithm = HashAlgorithm.sha1
        var hasher = DigestHasher(algorithm)
        public init() {}
    }
}
