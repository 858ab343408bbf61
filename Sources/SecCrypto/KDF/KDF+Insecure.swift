extension KDF {
    /// Key derivation by `_CryptoExtras`' names, for code written against swift-crypto. "Insecure"
    /// is swift-crypto's name for PBKDF2, whose cost is only its rounds.
    public enum Insecure {
        /// PBKDF2 (RFC 8018) as `_CryptoExtras` spells it: `KDF.PBKDF2` with `rounds:` and a hash
        /// chosen by name.
        public enum PBKDF2 {
            /// The pseudo-random function's hash.
            public struct HashFunction: Hashable, Sendable {
                let algorithm: HashAlgorithm

                /// MD5: swift-crypto offers it, SecCrypto refuses it (`invalidParameter`).
                public static let insecureMD5 = HashFunction(algorithm: .md5)
                public static let insecureSHA1 = HashFunction(algorithm: .sha1)
                public static let insecureSHA224 = HashFunction(algorithm: .sha224)
                public static let sha256 = HashFunction(algorithm: .sha256)
                public static let sha384 = HashFunction(algorithm: .sha384)
                public static let sha512 = HashFunction(algorithm: .sha512)
            }

            /// Derives `outputByteCount` bytes; refuses fewer rounds than `KDF.PBKDF2.minimumIterations(for:)`
            /// (OWASP 2023: 600,000 for SHA-256, 210,000 for SHA-512, 1,300,000 for SHA-1).
            ///
            /// - Parameters:
            ///   - password: The password's bytes (UTF-8 for text).
            ///   - salt: Random bytes, unique per password, not secret (16 or more).
            ///   - hashFunction: The hash of PBKDF2's HMAC.
            ///   - outputByteCount: The key length in bytes, 1 to `Int32.max`.
            ///   - rounds: The iteration count, at least the minimum for `hashFunction`.
            /// - Returns: The derived key, `outputByteCount` bytes.
            /// - Throws: `CryptoError.invalidParameter` for too few rounds (or more than `Int32.max`),
            ///   the MD5 hash, or an `outputByteCount` outside 1 to `Int32.max`.
            public static func deriveKey(
                from password: some DataProtocol,
                salt: some DataProtocol,
                using hashFunction: HashFunction,
                outputByteCount: Int,
                rounds: Int
            ) throws(CryptoError) -> SymmetricKey {
                try KDF.PBKDF2.requireMinimumIterations(rounds, for: hashFunction.algorithm)
                return try deriveKey(
                    from: password,
                    salt: salt,
                    using: hashFunction,
                    outputByteCount: outputByteCount,
                    unsafeUncheckedRounds: rounds
                )
            }

            /// Derives `outputByteCount` bytes with any number of rounds ≥ 1: only for formats that
            /// dictate a low count.
            ///
            /// - Parameters:
            ///   - password: The password's bytes (UTF-8 for text).
            ///   - salt: The salt the format gives.
            ///   - hashFunction: The hash of PBKDF2's HMAC.
            ///   - outputByteCount: The key length in bytes, 1 to `Int32.max`.
            ///   - rounds: The iteration count, 1 to `Int32.max`, unchecked against any minimum.
            /// - Returns: The derived key, `outputByteCount` bytes.
            /// - Throws: `CryptoError.invalidParameter` for rounds outside 1 to `Int32.max`, the MD5
            ///   hash, or an `outputByteCount` outside 1 to `Int32.max`.
            public static func deriveKey(
                from password: some DataProtocol,
                salt: some DataProtocol,
                using hashFunction: HashFunction,
                outputByteCount: Int,
                unsafeUncheckedRounds rounds: Int
            ) throws(CryptoError) -> SymmetricKey {
                try password.withContiguousBytes { (password) throws(CryptoError) in
                    try salt.withContiguousBytes { (salt) throws(CryptoError) in
                        try KDF.PBKDF2.deriveKey(
                            from: password,
                            salt: salt,
                            using: hashFunction.algorithm,
                            unsafeUncheckedIterations: rounds,
                            outputByteCount: outputByteCount
                        )
                    }
                }
            }
        }
    }
}
