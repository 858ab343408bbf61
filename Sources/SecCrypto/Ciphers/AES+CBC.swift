/// AES (FIPS 197) with 128-, 192- or 256-bit keys, chosen by the key's length.
public enum AES {
    /// AES in CBC mode with an explicit 16-byte IV — what `CCCrypt(kCCAlgorithmAES128,
    /// kCCOptionPKCS7Padding, key, iv, …)` and `openssl enc -aes-256-cbc` do.
    ///
    /// CBC alone is **unauthenticated**: anyone can flip bits of the plaintext by flipping bits of the
    /// ciphertext, and a server that reveals padding errors decrypts for an attacker (padding oracle).
    /// Use `AES.GCM`, or CBC only together with a MAC checked before decryption.
    /// Never reuse an IV with the same key: draw it from `SecureRandom`.
    public enum CBC {
        /// The IV length in bytes.
        public static let ivByteCount = 16

        /// Encrypts `plaintext`. The key must be 16, 24 or 32 bytes; the IV 16 bytes.
        ///
        /// - Parameters:
        ///   - plaintext: The bytes to encrypt.
        ///   - key: The AES key, 16, 24 or 32 bytes (AES-128, -192 or -256).
        ///   - iv: The 16-byte IV, fresh from `SecureRandom` for every message under the key.
        ///   - padding: PKCS#7 (the default) or none, for a plaintext of whole 16-byte blocks.
        /// - Returns: The ciphertext, without the IV: with PKCS#7 padding 1 to 16 bytes longer than
        ///   the plaintext (a whole number of blocks), without padding as long as it.
        /// - Throws: ``CryptoError/incorrectSize(what:expected:actual:)`` for a key or IV of another
        ///   size; ``CryptoError/invalidParameter(_:)`` without padding for a plaintext that is not a
        ///   whole number of blocks.
        public static func encrypt(
            _ plaintext: some DataProtocol,
            using key: SymmetricKey,
            iv: some ContiguousBytes,
            padding: CipherStream.Padding = .pkcs7
        ) throws(CryptoError) -> Data {
            try CipherStream.process(
                try AES.algorithm(gcm: false, for: key),
                .encrypt,
                key: key,
                iv: iv,
                padding: padding,
                input: plaintext
            )
        }

        /// Decrypts `ciphertext`. A wrong key, bad padding or truncated input throws `decryptionFailed`.
        ///
        /// - Parameters:
        ///   - ciphertext: The bytes to decrypt, without the IV.
        ///   - key: The AES key, 16, 24 or 32 bytes.
        ///   - iv: The 16-byte IV the ciphertext was made with.
        ///   - padding: PKCS#7 (the default), checked and removed; or none, which returns every block.
        /// - Returns: The plaintext. It is not authenticated: check a MAC over the ciphertext first.
        /// - Throws: ``CryptoError/incorrectSize(what:expected:actual:)`` for a key or IV of another
        ///   size; ``CryptoError/decryptionFailed`` for bad padding (often a wrong key) or a
        ///   ciphertext that is not a whole number of blocks. Nothing is returned on failure.
        public static func decrypt(
            _ ciphertext: some DataProtocol,
            using key: SymmetricKey,
            iv: some ContiguousBytes,
            padding: CipherStream.Padding = .pkcs7
        ) throws(CryptoError) -> Data {
            try CipherStream.process(
                try AES.algorithm(gcm: false, for: key),
                .decrypt,
                key: key,
                iv: iv,
                padding: padding,
                input: ciphertext
            )
        }

        /// Decrypts a secret (PKCS#7 padding) into memory that is wiped on release, never into
        /// `Data`: for secrets a peer sends encrypted, such as the Secret Service's. Failures are
        /// `decryptionFailed`, and leave nothing behind.
        ///
        /// - Parameters:
        ///   - ciphertext: The padded ciphertext, without the IV.
        ///   - key: The AES key, 16, 24 or 32 bytes.
        ///   - iv: The 16-byte IV the ciphertext was made with.
        /// - Returns: The plaintext with its PKCS#7 padding removed, in memory wiped when released.
        /// - Throws: ``CryptoError/incorrectSize(what:expected:actual:)`` for a key or IV of another
        ///   size; ``CryptoError/decryptionFailed`` for bad padding (often a wrong key) or a
        ///   ciphertext that is not a whole number of blocks, after wiping what was decrypted.
        public static func decryptSecret(
            _ ciphertext: some ContiguousBytes,
            using key: SymmetricKey,
            iv: some ContiguousBytes
        ) throws(CryptoError) -> SecureBytes {
            let algorithm = try AES.algorithm(gcm: false, for: key)
            let context = try key.withBytes { (key) throws(CryptoError) in
                try iv.withBytes { (iv) throws(CryptoError) in
                    try CipherContext(algorithm, encrypting: false, key: key, iv: iv, padding: true)
                }
            }
            var length = 0
            let padded = try ciphertext.withBytes { (ciphertext) throws(CryptoError) in
                try SecureBytes(count: ciphertext.count + algorithm.blockByteCount) { (output) throws(CryptoError) in
                    length = context.update(ciphertext, into: output)
                    length += try context.finish(into: UnsafeMutableRawBufferPointer(rebasing: output[length...]))
                }
            }
            return padded.withUnsafeBytes { padded in
                SecureBytes(count: length) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: padded[..<length])) }
            }
        }
    }

    /// The AES algorithm (CBC or GCM) for a key of this length: 16, 24 or 32 bytes.
    static func algorithm(gcm: Bool, for key: SymmetricKey) throws(CryptoError) -> CipherAlgorithm {
        try algorithm(gcm: gcm, keyByteCount: key.bitCount / 8)
    }

    /// The AES algorithm (CBC or GCM) for a key of `keyByteCount` bytes: 16, 24 or 32.
    package static func algorithm(gcm: Bool, keyByteCount: Int) throws(CryptoError) -> CipherAlgorithm {
        let match = CipherAlgorithm.allCases.first {
            !$0.isTripleDES && $0.isGCM == gcm && $0.keyByteCount == keyByteCount
        }
        guard let match else {
            throw .incorrectSize(what: "AES key", expected: "16, 24 or 32 bytes", actual: keyByteCount)
        }
        return match
    }
}
