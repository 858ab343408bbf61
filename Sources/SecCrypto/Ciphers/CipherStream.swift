/// Streaming encryption or decryption in constant memory, for inputs too large to hold at once.
///
/// Feed input with `update`, then call `finalize()`. CBC output is unauthenticated: prefer GCM
/// (or the sealed envelopes built on it) for new payloads. With GCM, add associated data with
/// `authenticate(_:)` before any `update`; after an encryption's `finalize()` read `tag`; before a
/// decryption's `finalize()` call `setExpectedTag(_:)`. Decrypted bytes are not authentic until
/// `finalize()` returns: write them somewhere temporary until then.
public final class CipherStream {
    /// Encrypt or decrypt.
    public enum Direction: Sendable {
        case encrypt
        case decrypt
    }

    /// Block padding for CBC.
    public enum Padding: Sendable {
        /// PKCS#7 padding (what `openssl enc` and `CCCrypt(kCCOptionPKCS7Padding)` use).
        case pkcs7
        /// No padding: the input must be a whole number of blocks.
        case none
    }

    private let context: CipherContext

    /// The cipher and mode.
    public let algorithm: CipherAlgorithm

    /// Starts an encryption or decryption. The key and IV sizes must match `algorithm` exactly
    /// (GCM nonces may be 1 to 128 bytes; 12 is the default and recommended size).
    public init(
        _ algorithm: CipherAlgorithm,
        _ direction: Direction,
        key: SymmetricKey,
        iv: some ContiguousBytes,
        padding: Padding = .pkcs7
    ) throws(CryptoError) {
        self.algorithm = algorithm
        context = try key.withBytes { (key) throws(CryptoError) in
            try iv.withBytes { (iv) throws(CryptoError) in
                try CipherContext(
                    algorithm,
                    encrypting: direction == .encrypt,
                    key: key,
                    iv: iv,
                    padding: padding == .pkcs7
                )
            }
        }
    }

    /// True for encryption, false for decryption.
    public var isEncrypting: Bool { context.encrypting }

    /// The output space `update` needs for `inputCount` bytes of input.
    public func outputCapacity(forInputCount inputCount: Int) -> Int {
        inputCount + algorithm.blockByteCount
    }

    /// GCM only: adds associated data, authenticated but not encrypted. Call before `update`.
    public func authenticate(_ associatedData: UnsafeRawBufferPointer) {
        precondition(algorithm.isGCM, "associated data needs an AEAD mode (GCM)")
        context.authenticate(associatedData)
    }

    /// Processes `input` into `output` (at least `outputCapacity(forInputCount:)` bytes) and
    /// returns the number of bytes written.
    public func update(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Int {
        context.update(input, into: output)
    }

    /// Processes bytes and returns the output produced so far.
    public func update(data: some DataProtocol) -> Data {
        var output = Data(count: outputCapacity(forInputCount: data.count))
        let written = output.withUnsafeMutableBytes { output in
            var written = 0
            for region in data.regions {
                written += region.withUnsafeBytes { input in
                    context.update(input, into: UnsafeMutableRawBufferPointer(rebasing: output[written...]))
                }
            }
            return written
        }
        output.removeSubrange(written...)
        return output
    }

    /// GCM decryption only: the 16-byte tag that `finalize()` must verify.
    public func setExpectedTag(_ tag: some ContiguousBytes) throws(CryptoError) {
        precondition(algorithm.isGCM && !context.encrypting, "an expected tag applies to GCM decryption")
        try tag.withBytes { (tag) throws(CryptoError) in try context.setExpectedTag(tag) }
    }

    /// Finishes: returns the last block (CBC), checks padding (CBC decryption) or the tag (GCM
    /// decryption). Failures say only `decryptionFailed` / `authenticationFailure`.
    public func finalize() throws(CryptoError) -> Data {
        var output = Data(count: algorithm.blockByteCount)
        let written = try output.withMutableBytes { (buffer) throws(CryptoError) in try context.finish(into: buffer) }
        output.removeSubrange(written...)
        return output
    }

    /// GCM encryption only: the 16-byte authentication tag, after `finalize()`.
    public var tag: Data {
        precondition(algorithm.isGCM && context.encrypting, "a tag is produced by GCM encryption")
        var tag = Data(count: CipherContext.gcmTagByteCount)
        tag.withUnsafeMutableBytes { context.tag(into: $0) }
        return tag
    }

    /// One-shot helper: the whole of `input` through a new stream. On failure the partial output is wiped.
    static func process(
        _ algorithm: CipherAlgorithm,
        _ direction: Direction,
        key: SymmetricKey,
        iv: some ContiguousBytes,
        padding: Padding,
        input: some DataProtocol,
        configure: (CipherStream) throws(CryptoError) -> Void = { _ in }
    ) throws(CryptoError) -> Data {
        let stream = try CipherStream(algorithm, direction, key: key, iv: iv, padding: padding)
        try configure(stream)
        var output = stream.update(data: input)
        do {
            output.append(try stream.finalize())
        } catch {
            output.withUnsafeMutableBytes { secureZero($0) }
            throw error
        }
        return output
    }
}
