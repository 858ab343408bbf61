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
    ///
    /// - Parameters:
    ///   - algorithm: The cipher and mode, which fix the key size.
    ///   - direction: Whether to encrypt or decrypt.
    ///   - key: The key, exactly `algorithm`'s key size.
    ///   - iv: The IV (CBC: one block) or nonce (GCM), never reused with the same key.
    ///   - padding: CBC only: PKCS#7 (the default) or none; GCM ignores it.
    /// - Throws: ``CryptoError/incorrectSize(what:expected:actual:)`` for a key or IV of a size
    ///   `algorithm` does not take.
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
    ///
    /// - Parameter inputCount: The number of bytes the next `update` gets.
    /// - Returns: `inputCount` plus one block, room for a block held back from an earlier update.
    public func outputCapacity(forInputCount inputCount: Int) -> Int {
        inputCount + algorithm.blockByteCount
    }

    /// GCM only: adds associated data, authenticated but not encrypted. Call before `update`.
    ///
    /// Calling it on a CBC stream is a programming error and stops the program.
    ///
    /// - Parameter associatedData: The bytes to authenticate; may be called several times in a row.
    public func authenticate(_ associatedData: UnsafeRawBufferPointer) {
        precondition(algorithm.isGCM, "associated data needs an AEAD mode (GCM)")
        context.authenticate(associatedData)
    }

    /// Processes `input` into `output` (at least `outputCapacity(forInputCount:)` bytes) and
    /// returns the number of bytes written.
    ///
    /// - Parameters:
    ///   - input: The next bytes of the input.
    ///   - output: Where the output goes, at least `outputCapacity(forInputCount: input.count)` bytes.
    /// - Returns: The number of bytes written at the start of `output`: with CBC, whole blocks only,
    ///   so fewer or more than `input.count`; with GCM exactly `input.count`.
    public func update(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Int {
        context.update(input, into: output)
    }

    /// Processes bytes and returns the output produced so far.
    ///
    /// - Parameter data: The next bytes of the input, contiguous or in several regions.
    /// - Returns: The output these bytes complete: with CBC whole blocks only (a last block is held
    ///   back until `finalize()`), with GCM as many bytes as `data`.
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
    ///
    /// Calling it on another stream is a programming error and stops the program.
    ///
    /// - Parameter tag: The tag received with the ciphertext.
    /// - Throws: ``CryptoError/incorrectSize(what:expected:actual:)`` unless `tag` is 16 bytes
    ///   (shorter tags are refused).
    public func setExpectedTag(_ tag: some ContiguousBytes) throws(CryptoError) {
        precondition(algorithm.isGCM && !context.encrypting, "an expected tag applies to GCM decryption")
        try tag.withBytes { (tag) throws(CryptoError) in try context.setExpectedTag(tag) }
    }

    /// Finishes: returns the last block (CBC), checks padding (CBC decryption) or the tag (GCM
    /// decryption). Failures say only `decryptionFailed` / `authenticationFailure`.
    ///
    /// - Returns: The rest of the output: with CBC the last block (or, decrypting, what its padding
    ///   leaves of it), with GCM nothing.
    /// - Throws: ``CryptoError/invalidParameter(_:)`` for CBC encryption without padding of an input
    ///   that is not a whole number of blocks; ``CryptoError/decryptionFailed`` for CBC decryption of
    ///   an input that is not a whole number of blocks or, with padding, whose padding is bad (often
    ///   a wrong key);
    ///   ``CryptoError/authenticationFailure`` for GCM decryption whose tag does not verify (or was
    ///   never set). Discard everything `update` returned then.
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
