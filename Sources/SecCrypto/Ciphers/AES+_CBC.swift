extension AES {
    /// AES-CBC by `_CryptoExtras`' names, for code written against swift-crypto: the same cipher as
    /// `AES.CBC` (and as unauthenticated: see there), with the IV as its own type and `noPadding:`.
    public enum _CBC {
        /// Encrypts with PKCS#7 padding.
        ///
        /// - Parameters:
        ///   - plaintext: The bytes to encrypt.
        ///   - key: The AES key, 16, 24 or 32 bytes.
        ///   - iv: The IV, a new one for every message under the key.
        /// - Returns: The ciphertext without the IV, 1 to 16 bytes longer than the plaintext.
        /// - Throws: `CryptoError.incorrectSize` for a key that is not 16, 24 or 32 bytes.
        public static func encrypt(
            _ plaintext: some DataProtocol,
            using key: SymmetricKey,
            iv: IV
        ) throws(CryptoError) -> Data {
            try encrypt(plaintext, using: key, iv: iv, noPadding: false)
        }

        /// Encrypts; with `noPadding`, the plaintext must be a whole number of 16-byte blocks.
        ///
        /// - Parameters:
        ///   - plaintext: The bytes to encrypt.
        ///   - key: The AES key, 16, 24 or 32 bytes.
        ///   - iv: The IV, a new one for every message under the key.
        ///   - noPadding: `true` to encrypt the blocks as they are, `false` for PKCS#7 padding.
        /// - Returns: The ciphertext without the IV: as long as the plaintext without padding, 1 to
        ///   16 bytes longer with it.
        /// - Throws: `CryptoError.incorrectSize` for a key that is not 16, 24 or 32 bytes, or, without
        ///   padding, a plaintext that is not a whole number of blocks.
        public static func encrypt(
            _ plaintext: some DataProtocol,
            using key: SymmetricKey,
            iv: IV,
            noPadding: Bool
        ) throws(CryptoError) -> Data {
            try checkBlocks(plaintext.count, noPadding: noPadding)
            return try CBC.encrypt(plaintext, using: key, iv: iv, padding: noPadding ? .none : .pkcs7)
        }

        /// Decrypts and removes PKCS#7 padding.
        ///
        /// - Parameters:
        ///   - ciphertext: The bytes to decrypt, without the IV.
        ///   - key: The AES key, 16, 24 or 32 bytes.
        ///   - iv: The IV the ciphertext was made with.
        /// - Returns: The plaintext, unauthenticated: check a MAC over the ciphertext first.
        /// - Throws: `CryptoError.incorrectSize` for a key that is not 16, 24 or 32 bytes;
        ///   `CryptoError.decryptionFailed` for a wrong key, bad padding or truncated input.
        /// - Throws: `CryptoError.decryptionFailed` for a wrong key, bad padding or truncated input.
        public static func decrypt(
            _ ciphertext: some DataProtocol,
            using key: SymmetricKey,
            iv: IV
        ) throws(CryptoError) -> Data {
            try decrypt(ciphertext, using: key, iv: iv, noPadding: false)
        }

        /// Decrypts; with `noPadding`, the plaintext is returned as it is, whole blocks.
        ///
        /// - Parameters:
        ///   - ciphertext: The bytes to decrypt, without the IV.
        ///   - key: The AES key, 16, 24 or 32 bytes.
        ///   - iv: The IV the ciphertext was made with.
        ///   - noPadding: `true` to return every decrypted block, `false` to check and remove PKCS#7
        ///     padding.
        /// - Returns: The plaintext, unauthenticated: check a MAC over the ciphertext first.
        /// - Throws: `CryptoError.incorrectSize` without padding for a ciphertext that is not a whole
        ///   number of blocks or a key that is not 16, 24 or 32 bytes; `decryptionFailed` for a wrong
        ///   key, bad padding or truncated input.
        public static func decrypt(
            _ ciphertext: some DataProtocol,
            using key: SymmetricKey,
            iv: IV,
            noPadding: Bool
        ) throws(CryptoError) -> Data {
            try checkBlocks(ciphertext.count, noPadding: noPadding)
            return try CBC.decrypt(ciphertext, using: key, iv: iv, padding: noPadding ? .none : .pkcs7)
        }

        /// Without padding OpenSSL only finds a partial block at the end, and reports no more than a failure.
        private static func checkBlocks(_ count: Int, noPadding: Bool) throws(CryptoError) {
            guard noPadding, !count.isMultiple(of: 16) else { return }
            throw .incorrectSize(
                what: "AES-CBC input without padding",
                expected: "a multiple of 16 bytes",
                actual: count
            )
        }

        /// A CBC initialization vector: 16 bytes, never reused with the same key.
        public struct IV: ContiguousBytes, Sequence, Sendable {
            private let bytes: [UInt8]

            /// A new random IV from OpenSSL's CSPRNG.
            public init() {
                do {
                    bytes = try SecureRandom.bytes(count: CBC.ivByteCount)
                } catch {
                    fatalError("SecKit: \(error)")
                }
            }

            /// An IV from existing bytes.
            ///
            /// - Parameter ivBytes: The IV's bytes, 16 of them.
            /// - Throws: `CryptoError.incorrectSize` unless there are 16.
            public init(ivBytes: some Collection<UInt8>) throws(CryptoError) {
                guard ivBytes.count == CBC.ivByteCount else {
                    throw .incorrectSize(what: "AES-CBC IV", expected: "16 bytes", actual: ivBytes.count)
                }
                bytes = [UInt8](ivBytes)
            }

            /// Calls `body` with the IV's bytes, without copying them.
            ///
            /// - Parameter body: A closure that reads the bytes; the pointer is valid only during the call.
            /// - Returns: What `body` returns.
            /// - Throws: Whatever `body` throws; this method throws nothing of its own.
            public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
                try bytes.withUnsafeBytes(body)
            }

            /// The IV's bytes, in order.
            ///
            /// - Returns: An iterator over the 16 bytes, first to last.
            public func makeIterator() -> IndexingIterator<[UInt8]> { bytes.makeIterator() }
        }
    }
}
