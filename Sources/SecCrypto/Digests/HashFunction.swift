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
public protocol HashFunction: IncrementalHashing where Output == Digest {
    /// The algorithm this type computes.
    static var algorithm: HashAlgorithm { get }
    /// The running state behind `update` and `finalize`; use those instead of touching it.
    var hasher: DigestHasher { get set }
    /// Starts a new computation.
    init()
}

extension HashFunction {
    /// Digest length in bytes.
    public static var byteCount: Int { algorithm.byteCount }

    public mutating func update(bufferPointer: UnsafeRawBufferPointer) { hasher.update(bufferPointer: bufferPointer) }

    public func finalize() -> Digest { hasher.finalize() }

    /// One-shot digest of any bytes.
    public static func hash(data: some DataProtocol) -> Digest { DigestHasher.hash(algorithm, data: data) }

    /// One-shot digest of raw bytes.
    public static func hash(bufferPointer: UnsafeRawBufferPointer) -> Digest {
        DigestHasher.hash(algorithm, bufferPointer: bufferPointer)
    }

    /// One-shot digest of the UTF-8 bytes of `string`.
    public static func hash(string: String) -> Digest {
        var string = string
        return string.withUTF8 { DigestHasher.hash(algorithm, bufferPointer: UnsafeRawBufferPointer($0)) }
    }
}

/// SHA-224 (FIPS 180-4).
public struct SHA224: HashFunction {
    public static let algorithm = HashAlgorithm.sha224
    public var hasher = DigestHasher(algorithm)
    public init() {}
}

/// SHA-256 (FIPS 180-4).
public struct SHA256: HashFunction {
    public static let algorithm = HashAlgorithm.sha256
    public var hasher = DigestHasher(algorithm)
    public init() {}
}

/// SHA-384 (FIPS 180-4).
public struct SHA384: HashFunction {
    public static let algorithm = HashAlgorithm.sha384
    public var hasher = DigestHasher(algorithm)
    public init() {}
}

/// SHA-512 (FIPS 180-4).
public struct SHA512: HashFunction {
    public static let algorithm = HashAlgorithm.sha512
    public var hasher = DigestHasher(algorithm)
    public init() {}
}

/// SHA-512/256 (FIPS 180-4 §5.3.6): 32 bytes, SHA-512's speed on 64-bit machines, its own initial
/// values (not a truncated SHA-512), and no length extension.
public struct SHA512_256: HashFunction {
    public static let algorithm = HashAlgorithm.sha512_256
    public var hasher = DigestHasher(algorithm)
    public init() {}
}

/// Algorithms that are broken for their original security purpose, kept for interoperability
/// (certificate fingerprints, legacy servers). Their names mark each use at the call site.
public enum Insecure {
    /// MD5 (RFC 1321). Collisions are practical: never use it to authenticate anything new.
    public struct MD5: HashFunction {
        public static let algorithm = HashAlgorithm.md5
        public var hasher = DigestHasher(algorithm)
        public init() {}
    }

    /// SHA-1 (FIPS 180-4). Collisions are practical: never use it to authenticate anything new.
    public struct SHA1: HashFunction {
        public static let algorithm = HashAlgorithm.sha1
        public var hasher = DigestHasher(algorithm)
        public init() {}
    }
}
