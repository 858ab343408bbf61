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
