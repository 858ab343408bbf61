/// Incremental hashing with an algorithm chosen at run time. Value semantics: a copy continues
/// independently of the original.
///
/// ```swift
/// var hasher = DigestHasher(.sha256)
/// hasher.update(data: header)
/// hasher.update(data: body)
/// let digest = hasher.finalize()
/// ```
public struct DigestHasher: Sendable {
    private var context: DigestContext

    /// Starts a new hash computation.
    public init(_ algorithm: HashAlgorithm) {
        context = DigestContext(algorithm: algorithm)
    }

    /// The algorithm being computed.
    public var algorithm: HashAlgorithm { context.algorithm }

    /// Adds raw bytes.
    public mutating func update(bufferPointer: UnsafeRawBufferPointer) {
        if !isKnownUniquelyReferenced(&context) { context = context.copy() }
        context.update(bufferPointer)
    }

    /// Adds bytes from `Data`, `[UInt8]`, slices or any other `DataProtocol`.
    public mutating func update(data: some DataProtocol) {
        if data.withContiguousStorageIfAvailable({ update(bufferPointer: UnsafeRawBufferPointer($0)) }) != nil { return }
        for region in data.regions {
            region.withUnsafeBytes { update(bufferPointer: $0) }
        }
    }

    /// Adds the UTF-8 bytes of `string`.
    public mutating func update(string: String) {
        var string = string
        string.withUTF8 { update(bufferPointer: UnsafeRawBufferPointer($0)) }
    }

    /// Returns the digest of everything added so far. The hasher itself is left unchanged,
    /// so it can be updated further.
    public func finalize() -> Digest {
        context.copy().finish()
    }

    /// One-shot digest of raw bytes.
    public static func hash(_ algorithm: HashAlgorithm, bufferPointer: UnsafeRawBufferPointer) -> Digest {
        DigestContext.digest(algorithm, of: bufferPointer)
    }

    /// One-shot digest of any bytes; contiguous input is hashed without copying.
    public static func hash(_ algorithm: HashAlgorithm, data: some DataProtocol) -> Digest {
        if let digest = data.withContiguousStorageIfAvailable({ hash(algorithm, bufferPointer: UnsafeRawBufferPointer($0)) }) {
            return digest
        }
        var hasher = DigestHasher(algorithm)
        hasher.update(data: data)
        return hasher.finalize()
    }

    /// Digest of a file or descriptor, read in fixed-size chunks (constant memory).
    public static func hash(_ algorithm: HashAlgorithm, contentsOf input: FileInput) throws(CryptoError) -> Digest {
        let context = DigestContext(algorithm: algorithm)
        try input.forEachChunk { context.update($0) }
        return context.finish()
    }
}
