import SecCrypto

/// The `enc` algorithms on raw buffers: one pass, no intermediate copies (RFC 7518 §5.2 and §5.3).
extension JWE.ContentEncryptionAlgorithm {
    /// The most ciphertext `plaintextCount` bytes can produce (CBC adds up to one block of padding).
    func ciphertextCapacity(plaintextCount: Int) -> Int { plaintextCount + 16 }

    /// Encrypts `plaintext` into `ciphertext` (at least `ciphertextCapacity` bytes) and writes the tag
    /// into `tag` (`tagByteCount` bytes). Returns the ciphertext length.
    func seal(
        _ plaintext: UnsafeRawBufferPointer,
        cek: UnsafeRawBufferPointer,
        iv: UnsafeRawBufferPointer,
        aad: UnsafeRawBufferPointer,
        ciphertext: UnsafeMutableRawBufferPointer,
        tag: UnsafeMutableRawBufferPointer
    ) throws(CryptoError) -> Int {
        precondition(cek.count == keyByteCount && iv.count == ivByteCount && tag.count == tagByteCount)
        guard let macAlgorithm else {
            let context = try CipherContext(
                try AES.algorithm(gcm: true, keyByteCount: cek.count),
                encrypting: true,
                key: cek,
                iv: iv,
                padding: false
            )
            context.authenticate(aad)
            var count = context.update(plaintext, into: ciphertext)
            count += try context.finish(into: UnsafeMutableRawBufferPointer(rebasing: ciphertext[count...]))
            context.tag().withUnsafeBytes { tag.copyMemory(from: $0) }
            return count
        }
        let half = cek.count / 2
        let context = try CipherContext(
            try AES.algorithm(gcm: false, keyByteCount: half),
            encrypting: true,
            key: UnsafeRawBufferPointer(rebasing: cek[half...]),
            iv: iv,
            padding: true
        )
        var count = context.update(plaintext, into: ciphertext)
        count += try context.finish(into: UnsafeMutableRawBufferPointer(rebasing: ciphertext[count...]))
        let mac = Self.cbcMAC(
            macAlgorithm,
            key: UnsafeRawBufferPointer(rebasing: cek[..<half]),
            aad: aad,
            iv: iv,
            ciphertext: UnsafeRawBufferPointer(rebasing: ciphertext[..<count])
        )
        mac.bytes.withUnsafeBytes { tag.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[..<tag.count])) }
        return count
    }

    /// Verifies the tag and decrypts `ciphertext` into `plaintext` (at least `ciphertext.count + 16`
    /// bytes); returns the plaintext length. For CBC-HMAC the tag is checked, in constant time,
    /// before anything is decrypted. Any failure is `authenticationFailure` and leaves `plaintext` wiped.
    func open(
        _ ciphertext: UnsafeRawBufferPointer,
        cek: UnsafeRawBufferPointer,
        iv: UnsafeRawBufferPointer,
        aad: UnsafeRawBufferPointer,
        tag: UnsafeRawBufferPointer,
        into plaintext: UnsafeMutableRawBufferPointer
    ) throws(CryptoError) -> Int {
        guard cek.count == keyByteCount, iv.count == ivByteCount, tag.count == tagByteCount else {
            throw .authenticationFailure
        }
        do {
            guard let macAlgorithm else {
                let context = try CipherContext(
                    try AES.algorithm(gcm: true, keyByteCount: cek.count),
                    encrypting: false,
                    key: cek,
                    iv: iv,
                    padding: false
                )
                context.authenticate(aad)
                try context.setExpectedTag(tag)
                let count = context.update(ciphertext, into: plaintext)
                return count + (try context.finish(into: UnsafeMutableRawBufferPointer(rebasing: plaintext[count...])))
            }
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
