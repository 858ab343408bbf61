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

        /// Decrypts a secret (PKCS#7 padding) into memory that is wiped on release, never into
        /// `Data`: for secrets a peer sends encrypted, such as the Secret Service's. Failures are
        /// `decryptionFailed`, and leave nothing behind.
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
