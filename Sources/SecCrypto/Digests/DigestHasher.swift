/// Incremental hashing with an algorithm chosen at run time. Value semantics: a copy continues
/// independently of the original.
///
/// ```swift
/// var hasher = DigestHasher(.sha256)
/// hasher.update(data: header)
/// hasher.update(data: body)
/// let digest = hasher.finalize()
/// ```
public struct DigestHasher: IncrementalHashing {
    private var context: CopyOnWrite<DigestContext>

    /// Starts a new hash computation.
    ///
    /// - Parameter algorithm: The hash function to compute.
    public init(_ algorithm: HashAlgorithm) {
        context = CopyOnWrite(DigestContext(algorithm: algorithm))
    }

    /// The algorithm being computed.
    public var algorithm: HashAlgorithm { context.value.algorithm }

    public mutating func update(bufferPointer: UnsafeRawBufferPointer) {
        context.unique.update(bufferPointer)
    }

    public func finalize() -> AnyDigest { finalize(as: DigestKind.self) }

    /// The output so far as `Kind`'s (`SHA256` for `SHA256.finalize()`).
    func finalize<Kind>(as kind: Kind.Type) -> HashOutput<Kind> {
        context.value.copy().finish()
    }

    /// `finalize()` without the duplicate that keeps the value usable: for a value about to be dropped.
    package mutating func finalizeLast() -> AnyDigest {
        context.unique.finish()
    }

    /// One-shot digest of raw bytes.
    ///
    /// - Parameters:
    ///   - algorithm: The hash function to compute.
    ///   - bufferPointer: The bytes to hash.
    /// - Returns: The digest of the bytes, `algorithm.byteCount` long, tagged with `algorithm`.
    public static func hash(_ algorithm: HashAlgorithm, bufferPointer: UnsafeRawBufferPointer) -> AnyDigest {
        AnyDigest(algorithm: algorithm, bytes: DigestContext.digest(algorithm, of: bufferPointer))
    }

    /// One-shot digest of any bytes; contiguous input is hashed without copying.
    ///
    /// - Parameters:
    ///   - algorithm: The hash function to compute.
    ///   - data: The bytes to hash, contiguous or in several regions (`DispatchData`).
    /// - Returns: The digest of the bytes, `algorithm.byteCount` long, tagged with `algorithm`.
    public static func hash(_ algorithm: HashAlgorithm, data: some DataProtocol) -> AnyDigest {
        if let digest = data.withContiguousStorageIfAvailable({
            hash(algorithm, bufferPointer: UnsafeRawBufferPointer($0))
        }) {
            return digest
        }
        var hasher = DigestHasher(algorithm)
        hasher.update(data: data)
        return hasher.finalizeLast()
    }
}
