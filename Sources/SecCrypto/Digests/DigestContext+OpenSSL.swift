internal import COpenSSL

/// An `EVP_MD_CTX` owned by one `DigestHasher` value (copied on write).
@usableFromInline
final class DigestContext: DuplicableContext, @unchecked Sendable {
    private let context: OpaquePointer
    let algorithm: HashAlgorithm

    init(algorithm: HashAlgorithm) {
        self.algorithm = algorithm
        guard let context = EVP_MD_CTX_new() else { fatalError("EVP_MD_CTX_new: out of memory") }
        self.context = context
        checkOpenSSL(EVP_DigestInit_ex2(context, algorithm.evpMD, nil) == 1, "EVP_DigestInit_ex2")
    }

    private init(copying other: DigestContext) {
        algorithm = other.algorithm
        guard let context = EVP_MD_CTX_new() else { fatalError("EVP_MD_CTX_new: out of memory") }
        self.context = context
        checkOpenSSL(EVP_MD_CTX_copy_ex(context, other.context) == 1, "EVP_MD_CTX_copy_ex")
    }

    deinit { EVP_MD_CTX_free(context) }

    func copy() -> DigestContext { DigestContext(copying: self) }

    func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        checkOpenSSL(EVP_DigestUpdate(context, base, bytes.count) == 1, "EVP_DigestUpdate")
    }

    /// Finishes this context; it must not be updated afterwards.
    func finish<Kind>() -> HashOutput<Kind> {
        var output = [UInt8](repeating: 0, count: algorithm.byteCount)
        var length: UInt32 = 0
        checkOpenSSL(EVP_DigestFinal_ex(context, &output, &length) == 1, "EVP_DigestFinal_ex")
        return HashOutput(algorithm: algorithm, bytes: output)
    }

    /// One-shot digest of a single buffer (`EVP_Digest`), without a long-lived context.
    /// Not generic, so that the hash functions' inlined one-shot `hash` makes its digest type where the
    /// type is known: in code generic over the hash, each call would look up its digest type's metadata.
    @usableFromInline
    static func digest(_ algorithm: HashAlgorithm, of bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: algorithm.byteCount)
        var length: UInt32 = 0
        checkOpenSSL(
            EVP_Digest(bytes.baseAddress, bytes.count, &output, &length, algorithm.evpMD, nil) == 1,
            "EVP_Digest"
        )
        return output
    }
}
