internal import COpenSSL

/// An `EVP_CIPHER_CTX` set up for one encryption or decryption. Freed (and its key schedule
/// cleansed by OpenSSL) on release.
package final class CipherContext {
    /// OpenSSL accepts GCM IVs of 1 to 128 bytes.
    static let gcmIVRange = 1...128
    /// AEAD tags (GCM, ChaCha20-Poly1305) are always full length.
    static let gcmTagByteCount = 16

    private let context: OpaquePointer
    let cipher: ContextCipher
    private(set) var encrypting: Bool
    /// The IV length OpenSSL is set to: GCM nonces may differ from the algorithm's default.
    private var ivByteCount: Int

    package convenience init(
        _ algorithm: CipherAlgorithm,
        encrypting: Bool,
        key: UnsafeRawBufferPointer,
        iv: UnsafeRawBufferPointer,
        padding: Bool
    ) throws(CryptoError) {
        try self.init(.algorithm(algorithm), encrypting: encrypting, key: key, iv: iv, padding: padding)
    }

    init(
        _ cipher: ContextCipher,
        encrypting: Bool,
        key: UnsafeRawBufferPointer,
        iv: UnsafeRawBufferPointer,
        padding: Bool
    ) throws(CryptoError) {
        guard key.count == cipher.keyByteCount else {
            throw .incorrectSize(what: "\(cipher) key", expected: "\(cipher.keyByteCount) bytes", actual: key.count)
        }
        guard cipher.ivRange.contains(iv.count) else {
            throw .incorrectSize(what: "\(cipher) \(cipher.ivName)", expected: cipher.ivSizeText, actual: iv.count)
        }
        guard let context = EVP_CIPHER_CTX_new() else { fatalError("EVP_CIPHER_CTX_new: out of memory") }
        self.context = context
        self.cipher = cipher
        self.encrypting = encrypting
        self.ivByteCount = iv.count
        let enc: Int32 = encrypting ? 1 : 0
        // A GCM nonce of other than the default 12 bytes needs its length set before the key and IV;
        // otherwise one call sets cipher, key and IV.
        let customIVLength = iv.count != cipher.ivByteCount
        if customIVLength {
            checkOpenSSL(
                EVP_CipherInit_ex2(context, cipher.evpCipher, nil, nil, enc, nil) == 1,
                "EVP_CipherInit_ex2"
            )
            checkOpenSSL(
                EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_IVLEN, Int32(iv.count), nil) == 1,
                "set GCM IV length"
            )
        }
        let keyed = EVP_CipherInit_ex2(
            context,
            customIVLength ? nil : cipher.evpCipher,
            key.baseAddress?.assumingMemoryBound(to: UInt8.self),
            iv.baseAddress?.assumingMemoryBound(to: UInt8.self),
            enc,
            nil
        )
        checkOpenSSL(keyed == 1, "EVP_CipherInit_ex2 (key)")
        // Padding is on by default; setting it goes through OpenSSL's parameter look-up, so only
        // turning it off is worth a call. Never for an AEAD: it is a stream, which OpenSSL never pads,
        // and a context with padding off has it turned off again, through that look-up, at every
        // re-initialisation (`restart`, each message on a key's kept context).
        if !padding && !cipher.isAEAD {
            checkOpenSSL(EVP_CIPHER_CTX_set_padding(context, 0) == 1, "EVP_CIPHER_CTX_set_padding")
        }
    }

    deinit { EVP_CIPHER_CTX_free(context) }

    /// AEAD only: starts a new message under the same key, in either direction, as `openssl speed
    /// -aead` does. The key schedule (and GCM's GHASH table) is kept; OpenSSL resets the counter,
    /// lengths and tag. `nonce` must have a length the cipher takes.
    package func restart(nonce: UnsafeRawBufferPointer, encrypting: Bool) {
        precondition(cipher.isAEAD && cipher.ivRange.contains(nonce.count), "an AEAD restart needs a valid nonce")
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
        let slack = cipher.outputSlack
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

    /// Adds AEAD associated data (authenticated, not encrypted); call before any `update`.
    package func authenticate(_ aad: UnsafeRawBufferPointer) {
        guard let base = aad.baseAddress, aad.count > 0 else { return }
        var outLength: Int32 = 0
        let ok = EVP_CipherUpdate(context, nil, &outLength, base.assumingMemoryBound(to: UInt8.self), Int32(aad.count))
        checkOpenSSL(ok == 1, "EVP_CipherUpdate (AAD)")
    }

    /// Sets the AEAD tag that decryption must verify; call before `finish`.
    package func setExpectedTag(_ tag: UnsafeRawBufferPointer) throws(CryptoError) {
        guard tag.count == Self.gcmTagByteCount else {
            throw .incorrectSize(
                what: "\(cipher) tag",
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
        checkOpenSSL(ok == 1, "set AEAD tag")
    }

    /// Writes the final block (CBC) into `output` (at least `blockByteCount` bytes) and returns its
    /// length. Bad padding or a GCM tag mismatch throws, saying no more than that.
    package func finish(into output: UnsafeMutableRawBufferPointer) throws(CryptoError) -> Int {
        precondition(output.count >= cipher.outputSlack, "cipher output buffer too small")
        var outLength: Int32 = 0
        guard EVP_CipherFinal_ex(context, output.baseAddress!.assumingMemoryBound(to: UInt8.self), &outLength) == 1
        else {
            OpenSSLError.clearQueue()
            if cipher.isAEAD { throw .authenticationFailure }
            // Encrypting, the one way the last block fails is a partial block with padding off:
            // the caller's input, which says nothing about any key (no oracle to hide).
            guard EVP_CIPHER_CTX_is_encrypting(context) == 0 else {
                throw .invalidParameter(
                    "without padding, the input must be a whole number of \(EVP_CIPHER_CTX_get_block_size(context))-byte blocks"
                )
            }
            throw .decryptionFailed
        }
        return Int(outLength)
    }

    /// AEAD: finishes a message, which writes no bytes. A decryption whose tag does not verify throws
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

    /// Writes the AEAD tag (`gcmTagByteCount` bytes) into `output`, after `finish` of an encryption.
    package func tag(into output: UnsafeMutableRawBufferPointer) {
        precondition(output.count == Self.gcmTagByteCount, "an AEAD tag is 16 bytes")
        let ok = EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_GET_TAG, Int32(output.count), output.baseAddress)
        checkOpenSSL(ok == 1, "get AEAD tag")
    }
}
