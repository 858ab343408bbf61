extension Insecure {
    /// Triple DES (EDE). Legacy: 64-bit blocks and slow; for interoperability with old servers only.
    public enum TripleDES {
        /// How many independent keys the key bytes hold. Always said explicitly, never guessed from the length.
        public enum Keying: Sendable {
            /// Three keys K1‖K2‖K3, 24 bytes (`des-ede3-cbc`).
            case threeKey
            /// Two keys K1‖K2 with K3 = K1, 16 bytes (`des-ede-cbc`).
            case twoKey

            var algorithm: CipherAlgorithm { self == .threeKey ? .tripleDESCBC : .tripleDES2KeyCBC }
        }

        /// Triple DES in CBC mode with an explicit 8-byte IV.
        public enum CBC {
            /// The IV length in bytes.
            public static let ivByteCount = 8

            /// Encrypts `plaintext` (PKCS#7 padding by default).
            ///
            /// - Parameters:
            ///   - plaintext: The bytes to encrypt.
            ///   - key: The key bytes: 24 for `threeKey`, 16 for `twoKey`.
            ///   - iv: The 8-byte IV, fresh from `SecureRandom` for every message under the key.
            ///   - keying: How many independent keys `key` holds.
            ///   - padding: PKCS#7 (the default) or none, for a plaintext of whole 8-byte blocks.
            /// - Returns: The ciphertext, without the IV: with PKCS#7 padding 1 to 8 bytes longer than
            ///   the plaintext, without padding as long as it.
            /// - Throws: ``CryptoError/incorrectSize(what:expected:actual:)`` for a key that does not
            ///   match `keying` or an IV that is not 8 bytes; ``CryptoError/invalidParameter(_:)``
            ///   without padding for a plaintext that is not a whole number of blocks.
            public static func encrypt(
                _ plaintext: some DataProtocol,
                using key: SymmetricKey,
                iv: some ContiguousBytes,
                keying: Keying,
                padding: CipherStream.Padding = .pkcs7
            ) throws(CryptoError) -> Data {
                try CipherStream.process(
                    keying.algorithm,
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
            ///   - key: The key bytes: 24 for `threeKey`, 16 for `twoKey`.
            ///   - iv: The 8-byte IV the ciphertext was made with.
            ///   - keying: How many independent keys `key` holds.
            ///   - padding: PKCS#7 (the default), checked and removed; or none, which returns every block.
            /// - Returns: The plaintext, unauthenticated: check a MAC over the ciphertext first.
            /// - Throws: ``CryptoError/incorrectSize(what:expected:actual:)`` for a key that does not
            ///   match `keying` or an IV that is not 8 bytes; ``CryptoError/decryptionFailed`` for bad
            ///   padding (often a wrong key) or a ciphertext that is not a whole number of blocks.
            public static func decrypt(
                _ ciphertext: some DataProtocol,
                using key: SymmetricKey,
                iv: some ContiguousBytes,
                keying: Keying,
                padding: CipherStream.Padding = .pkcs7
            ) throws(CryptoError) -> Data {
                try CipherStream.process(
                    keying.algorithm,
                    .decrypt,
                    key: key,
                    iv: iv,
                    padding: padding,
                    input: ciphertext
                )
            }
        }
    }
}
