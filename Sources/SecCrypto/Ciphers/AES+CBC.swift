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
