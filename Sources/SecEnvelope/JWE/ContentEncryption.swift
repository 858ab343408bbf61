import SecCrypto

/// The `enc` algorithms on raw buffers: one pass, no intermediate copies (RFC 7518 §5.2 and §5.3).
extension JWE.ContentEncryptionAlgorithm {
    /// The most ciphertext `plaintextCount` bytes can produce (CBC adds up to one block of padding).
    func ciphertextCapacity(plaintextCount: Int) -> Int { plaintextCount + 16 }

    /// Encrypts `plaintext` into `ciphertext` (at least `ciphertextCapacity` bytes) and writes the
    /// tag into `tag` (`tagByteCount` bytes). Returns the IV and the ciphertext length. The IV is a
    /// fresh random one unless `iv` is given (known-answer tests). GCM goes through the content key's
    /// own keyed context, so a `dir` key that seals many tokens sets up its key schedule once, and its
    /// random nonces count against the key's limit.
    func seal(
        _ plaintext: UnsafeRawBufferPointer,
        cek: SymmetricKey,
        iv givenIV: [UInt8]? = nil,
        aad: UnsafeRawBufferPointer,
        ciphertext: UnsafeMutableRawBufferPointer,
        tag: UnsafeMutableRawBufferPointer
    ) throws(CryptoError) -> (iv: [UInt8], count: Int) {
        precondition(cek.bitCount == keyByteCount * 8 && tag.count == tagByteCount)
        precondition(givenIV.map { $0.count == ivByteCount } ?? true)
        guard let macAlgorithm else {
            let nonce = try givenIV.map { (iv) throws(CryptoError) in try AES.GCM.Nonce(data: iv) } ?? AES.GCM.Nonce()
            try AES.GCM.seal(
                plaintext,
                using: cek,
                nonce: nonce,
                authenticating: aad,
                into: UnsafeMutableRawBufferPointer(rebasing: ciphertext[..<plaintext.count]),
                tag: tag
            )
            return (nonce.withUnsafeBytes { Array($0) }, plaintext.count)
        }
        let iv: [UInt8]
        if let givenIV { iv = givenIV } else { iv = try SecureRandom.bytes(count: ivByteCount) }
        let count = try cek.withBytes { (cek) throws(CryptoError) in
            try iv.withUnsafeBufferPointer { (iv) throws(CryptoError) in
                let half = cek.count / 2
                let context = try CipherContext(
                    try AES.algorithm(gcm: false, keyByteCount: half),
                    encrypting: true,
                    key: UnsafeRawBufferPointer(rebasing: cek[half...]),
                    iv: UnsafeRawBufferPointer(iv),
                    padding: true
                )
                var count = context.update(plaintext, into: ciphertext)
                count += try context.finish(into: UnsafeMutableRawBufferPointer(rebasing: ciphertext[count...]))
                let mac = Self.cbcMAC(
                    macAlgorithm,
                    key: UnsafeRawBufferPointer(rebasing: cek[..<half]),
                    aad: aad,
                    iv: UnsafeRawBufferPointer(iv),
                    ciphertext: UnsafeRawBufferPointer(rebasing: ciphertext[..<count])
                )
                mac.bytes.withUnsafeBytes { tag.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[..<tag.count])) }
                return count
            }
        }
        return (iv, count)
    }

    /// Verifies the tag and decrypts `ciphertext` into `plaintext` (at least `ciphertext.count + 16`
    /// bytes); returns the plaintext length. For CBC-HMAC the tag is checked, in constant time,
    /// before anything is decrypted. Any failure is `authenticationFailure` and leaves `plaintext` wiped.
    func open(
        _ ciphertext: UnsafeRawBufferPointer,
        cek: SymmetricKey,
        iv: UnsafeRawBufferPointer,
        aad: UnsafeRawBufferPointer,
        tag: UnsafeRawBufferPointer,
        into plaintext: UnsafeMutableRawBufferPointer
    ) throws(CryptoError) -> Int {
        guard cek.bitCount == keyByteCount * 8, iv.count == ivByteCount, tag.count == tagByteCount else {
            throw .authenticationFailure
        }
        do {
            guard let macAlgorithm else {
                try AES.GCM.open(
                    ciphertext,
                    using: cek,
                    nonce: try AES.GCM.Nonce(data: iv),
                    tag: tag,
                    authenticating: aad,
                    into: UnsafeMutableRawBufferPointer(rebasing: plaintext[..<ciphertext.count])
                )
                return ciphertext.count
            }
            return try cek.withBytes { (cek) throws(CryptoError) in
                let half = cek.count / 2
                let mac = Self.cbcMAC(
                    macAlgorithm,
                    key: UnsafeRawBufferPointer(rebasing: cek[..<half]),
                    aad: aad,
                    iv: iv,
                    ciphertext: ciphertext
                )
                let matches = mac.bytes.withUnsafeBytes {
                    constantTimeEquals(UnsafeRawBufferPointer(rebasing: $0[..<tag.count]), tag)
                }
                guard matches, ciphertext.count % 16 == 0, !ciphertext.isEmpty else {
                    throw CryptoError.authenticationFailure
                }
                let context = try CipherContext(
                    try AES.algorithm(gcm: false, keyByteCount: half),
                    encrypting: false,
                    key: UnsafeRawBufferPointer(rebasing: cek[half...]),
                    iv: iv,
                    padding: true
                )
                let count = context.update(ciphertext, into: plaintext)
                return count + (try context.finish(into: UnsafeMutableRawBufferPointer(rebasing: plaintext[count...])))
            }
        } catch {
            secureZero(plaintext)
            throw .authenticationFailure
        }
    }

    /// HMAC(MAC_KEY, A ‖ IV ‖ E ‖ AL), AL = the AAD length in bits as a 64-bit big-endian number.
    private static func cbcMAC(
        _ algorithm: HashAlgorithm,
        key: UnsafeRawBufferPointer,
        aad: UnsafeRawBufferPointer,
        iv: UnsafeRawBufferPointer,
        ciphertext: UnsafeRawBufferPointer
    ) -> AuthenticationCode {
        let context = MACContext(algorithm: algorithm, key: key)
        context.update(aad)
        context.update(iv)
        context.update(ciphertext)
        withUnsafeBytes(of: UInt64(aad.count * 8).bigEndian) { context.update($0) }
        return context.finish()
    }
}
