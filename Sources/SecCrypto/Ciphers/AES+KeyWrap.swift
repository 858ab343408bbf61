extension AES {
    /// AES Key Wrap (RFC 3394, NIST SP 800-38F "KW"): encrypts a key under a key-encryption key with
    /// an integrity check, as JWE `A128KW`/`A192KW`/`A256KW` do. The key-encryption key is 16, 24 or
    /// 32 bytes; the wrapped key a multiple of 8 bytes, at least 16.
    ///
    /// ```swift
    /// let wrapped = try AES.KeyWrap.wrap(contentKey, using: keyEncryptionKey)   // 8 bytes longer
    /// let unwrapped = try AES.KeyWrap.unwrap(wrapped, using: keyEncryptionKey)
    /// ```
    public enum KeyWrap {
        /// Wraps `keyToWrap`; the result is 8 bytes longer.
        ///
        /// - Parameters:
        ///   - keyToWrap: The key to protect, a multiple of 8 bytes and at least 16.
        ///   - kek: The key-encryption key, 16, 24 or 32 bytes (`A128KW`, `A192KW`, `A256KW`).
        /// - Returns: The wrapped key, 8 bytes longer than `keyToWrap`.
        /// - Throws: ``CryptoError/incorrectSize(what:expected:actual:)`` for a key to wrap or a
        ///   key-encryption key of a size the algorithm does not take.
        public static func wrap(_ keyToWrap: SymmetricKey, using kek: SymmetricKey) throws(CryptoError) -> Data {
            let count = keyToWrap.bitCount / 8
            guard count >= 16, count % 8 == 0 else {
                throw .incorrectSize(what: "key to wrap", expected: "a multiple of 8 bytes, at least 16", actual: count)
            }
            let wrapped = try SecureBytes(count: count + 8) { (output) throws(CryptoError) in
                try kek.withBytes { (kek) throws(CryptoError) in
                    try keyToWrap.withBytes { (input) throws(CryptoError) in
                        try keyWrap(encrypting: true, kek: kek, input: input, into: output)
                    }
                }
            }
            return wrapped.withUnsafeBytes { Data($0) }
        }

        /// Unwraps a key wrapped by `wrap`. A wrong key-encryption key or any altered byte throws
        /// `authenticationFailure`.
        ///
        /// - Parameters:
        ///   - wrappedKey: The wrapped key, a multiple of 8 bytes and at least 24.
        ///   - kek: The key-encryption key it was wrapped with, 16, 24 or 32 bytes.
        /// - Returns: The key, 8 bytes shorter than `wrappedKey`.
        /// - Throws: ``CryptoError/incorrectSize(what:expected:actual:)`` for a wrapped key or a
        ///   key-encryption key of a size the algorithm does not take;
        ///   ``CryptoError/authenticationFailure`` when the integrity check fails (a wrong
        ///   key-encryption key, or any altered byte), after wiping what was unwrapped.
        public static func unwrap(
            _ wrappedKey: some DataProtocol,
            using kek: SymmetricKey
        ) throws(CryptoError) -> SymmetricKey {
            let wrapped = [UInt8](wrappedKey)
            guard wrapped.count >= 24, wrapped.count % 8 == 0 else {
                throw .incorrectSize(
                    what: "wrapped key",
                    expected: "a multiple of 8 bytes, at least 24",
                    actual: wrapped.count
                )
            }
            let key = try SecureBytes(count: wrapped.count - 8) { (output) throws(CryptoError) in
                try kek.withBytes { (kek) throws(CryptoError) in
                    try wrapped.withUnsafeBufferPointer { (input) throws(CryptoError) in
                        try keyWrap(encrypting: false, kek: kek, input: UnsafeRawBufferPointer(input), into: output)
                    }
                }
            }
            return SymmetricKey(key)
        }
    }
}
