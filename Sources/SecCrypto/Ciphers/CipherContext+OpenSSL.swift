internal import COpenSSL

/// An `EVP_CIPHER_CTX` set up for one encryption or decryption. Freed (and its key schedule
/// cleansed by OpenSSL) on release.
package final class CipherContext {
    /// OpenSSL accepts GCM IVs of 1 to 128 bytes.
    static let gcmIVRange = 1...128
    /// GCM tags are always full length.
    static let gcmTagByteCount = 16

    private let context: OpaquePointer
    let algorithm: CipherAlgorithm
    private(set) var encrypting: Bool
    /// The IV length OpenSSL is set to: GCM nonces may differ from the algorithm's default.
    private var ivByteCount: Int

    package init(
        _ algorithm: CipherAlgorithm,
        encrypting: Bool,
        key: UnsafeRawBufferPointer,
        iv: UnsafeRawBufferPointer,
        padding: Bool
    ) throws(CryptoError) {
        guard key.count == algorithm.keyByteCount else {
            throw .incorrectSize(
                what: "\(algorithm) key",
                expected: "\(algorithm.keyByteCount) bytes",
                actual: key.count
            )
        }
        if algorithm.isGCM {
            guard Self.gcmIVRange.contains(iv.count) else {
                throw .incorrectSize(
                    what: "\(algorithm) nonce",
                    expected: "1 to 128 bytes (12 recommended)",
                    actual: iv.count
                )
            }
        } else if iv.count != algorithm.ivByteCount {
            throw .incorrectSize(what: "\(algorithm) IV", expected: "\(algorithm.ivByteCount) bytes", actual: iv.count)
        }
        guard let context = EVP_CIPHER_CTX_new() else { fatalError("EVP_CIPHER_CTX_new: out of memory") }
        self.context = context
        self.algorithm = algorithm
        self.encrypting = encrypting
        self.ivByteCount = iv.count
        let enc: Int32 = encrypting ? 1 : 0
        // A GCM nonce of other than the default 12 bytes needs its length set before the key and IV;
        // otherwise one call sets cipher, key and IV.
        let customIVLength = algorithm.isGCM && iv.count != algorithm.ivByteCount
        if customIVLength {
            checkOpenSSL(
                EVP_CipherInit_ex2(context, algorithm.evpCipher, nil, nil, enc, nil) == 1,
                "EVP_CipherInit_ex2"
            )
            checkOpenSSL(
                EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_IVLEN, Int32(iv.count), nil) == 1,
                "set GCM IV length"
            )
        }
        let keyed = EVP_CipherInit_ex2(
            context,
            customIVLength ? nil : algorithm.evpCipher,
            key.baseAddress?.assumingMemoryBound(to: UInt8.self),
            iv.baseAddress?.assumingMemoryBound(to: UInt8.self),
            enc,
            nil
        )
        checkOpenSSL(keyed == 1, "EVP_CipherInit_ex2 (key)")
        // Padding is on by default; setting it goes through OpenSSL's parameter look-up, so only
        // turning it off is worth a call.
        if !padding { checkOpenSSL(EVP_CIPHER_CTX_set_padding(context, 0) == 1, "EVP_CIPHER_CTX_set_padding") }
    }

    deinit { EVP_CIPHER_CTX_free(context) }

    /// GCM only: starts a new message under the same key, in either direction, as `openssl speed
    /// -aead` does. The key schedule and GHASH table are kept; OpenSSL resets the counter, lengths and
    /// tag. `nonce` must be 1 to 128 bytes.
    package func restart(nonce: UnsafeRawBufferPointer, encrypting: Bool) {
        precondition(algorithm.isGCM && Self.gcmIVRange.contains(nonce.count), "GCM restart needs a 1-128 byte nonce")
        if nonce.count != ivByteCount {
            checkOpenSSL(
                EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_IVLEN, Int32(nonce.count), nil) == 1,
                "set GCM IV length"
            )
            ivByteCount = nonce.count
        }
        let ok = EVP_CipherInit_ex2(
            context,
            nil,
            nil,
            nonce.baseAddress!.assumingMemoryBound(to: UInt8.self),
            encrypting ? 1 : 0,
            nil
        )
        checkOpenSSL(ok == 1, "EVP_CipherInit_ex2 (nonce)")
        self.encrypting = encrypting
    }

    /// Processes `input` into `output`, which must hold `input.count + blockByteCount` bytes
    /// (GCM, a stream mode: `input.count`). Returns the number of bytes written.
    package func update(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Int {
        let slack = algorithm.isGCM ? 0 : algorithm.blockByteCount
        precondition(output.count >= input.count + slack, "cipher output buffer too small")
        var remaining = input
        var written = 0
        // EVP_CipherUpdate takes an int length: feed very large buffers in pieces.
        while !remaining.isEmpty {
            let piece = min(remaining.count, 1 << 30)
            var outLength: Int32 = 0
            let ok = EVP_CipherUpdate(
                context,
                output.baseAddress!.advanced(by: written).assumingMemoryBound(to: UInt8.self),
                &outLength,
                remaining.baseAddress!.assumingMemoryBound(to: UInt8.self),
                Int32(piece)
            )
            checkOpenSSL(ok == 1, "EVP_CipherUpdate")
            written += Int(outLength)
            remaining = UnsafeRawBufferPointer(rebasing: remaining[piece...])
        }
        return written
    }

    /// Adds GCM associated data (authenticated, not encrypted); call before any `update`.
    package func authenticate(_ aad: UnsafeRawBufferPointer) {
        guard let base = aad.baseAddress, aad.count > 0 else { return }
        var outLength: Int32 = 0
        let ok = EVP_CipherUpdate(context, nil, &outLength, base.assumingMemoryBound(to: UInt8.self), Int32(aad.count))
        checkOpenSSL(ok == 1, "EVP_CipherUpdate (AAD)")
    }

    /// Sets the GCM tag that decryption must verify; call before `finish`.
    package func setExpectedTag(_ tag: UnsafeRawBufferPointer) throws(CryptoError) {
        guard tag.count == Self.gcmTagByteCount else {
            throw .incorrectSize(
                what: "GCM tag",
                expected: "\(Self.gcmTagByteCount) bytes (shorter tags are refused)",
                actual: tag.count
            )
        }
        let ok = EVP_CIPHER_CTX_ctrl(
            context,
            EVP_CTRL_AEAD_SET_TAG,
            Int32(tag.count),
            UnsafeMutableRawPointer(mutating: tag.baseAddress)
        )
        checkOpenSSL(ok == 1, "set GCM tag")
    }

    /// Writes the final block (CBC) into `output` (at least `blockByteCount` bytes) and returns its
    /// length. Bad padding or a GCM tag mismatch throws, saying no more than that.
    package func finish(into output: UnsafeMutableRawBufferPointer) throws(CryptoError) -> Int {
        precondition(output.count >= algorithm.blockByteCount, "cipher output buffer too small")
        var outLength: Int32 = 0
        guard EVP_CipherFinal_ex(context, output.baseAddress!.assumingMemoryBound(to: UInt8.self), &outLength) == 1
        else {
            OpenSSLError.clearQueue()
            throw algorithm.isGCM ? .authenticationFailure : .decryptionFailed
        }
        return Int(outLength)
    }

    /// GCM: finishes a message, which writes no bytes. A decryption whose tag does not verify throws
    /// `authenticationFailure`.
    package func finishAEAD() throws(CryptoError) {
        var scratch: (UInt64, UInt64) = (0, 0)  // OpenSSL wants an output pointer even so
        var outLength: Int32 = 0
        let ok = withUnsafeMutableBytes(of: &scratch) {
            EVP_CipherFinal_ex(context, $0.baseAddress!.assumingMemoryBound(to: UInt8.self), &outLength)
        }
        guard ok == 1 else {
            OpenSSLError.clearQueue()
            throw .authenticationFailure
        }
    }

    /// Writes the GCM tag (`gcmTagByteCount` bytes) into `output`, after `finish` of an encryption.
    package func tag(into output: UnsafeMutableRawBufferPointer) {
        precondition(output.count == Self.gcmTagByteCount, "a GCM tag is 16 bytes")
        let ok = EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_GET_TAG, Int32(output.count), output.baseAddress)
        checkOpenSSL(ok == 1, "get GCM tag")
    }
}
