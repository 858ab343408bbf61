extension KDF {
    /// HKDF (RFC 5869): extracts a pseudo-random key from input key material (a Diffie-Hellman
    /// secret, a master key) and a salt, then expands it with `info` into keys for one purpose. Not
    /// for passwords: use PBKDF2 for those.
    public enum HKDF {
        /// Derives `outputByteCount` bytes (at most 255 × the hash length). An empty salt is
        /// RFC 5869's default, a string of zeros as long as the hash.
        public static func deriveKey(
            inputKeyMaterial: some ContiguousBytes,
            salt: some ContiguousBytes,
            info: some ContiguousBytes,
            using hash: HashAlgorithm = .sha256,
            outputByteCount: Int
        ) throws(CryptoError) -> SymmetricKey {
            guard (1...(255 * hash.byteCount)).contains(outputByteCount) else {
                throw .invalidParameter(
                    "HKDF-\(hash.rawValue.uppercased()) derives 1 to \(255 * hash.byteCount) bytes, not \(outputByteCount)"
                )
            }
            let key = try SecureBytes(count: outputByteCount) { (output) throws(CryptoError) in
                try inputKeyMaterial.withBytes { (ikm) throws(CryptoError) in
                    try salt.withBytes { (salt) throws(CryptoError) in
                        try info.withBytes { (info) throws(CryptoError) in
                            try hkdf(ikm: ikm, salt: salt, info: info, hash: hash, into: output)
                        }
                    }
                }
            }
            return SymmetricKey(key)
        }
    }
}
