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
