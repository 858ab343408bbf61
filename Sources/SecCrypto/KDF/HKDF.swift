extension KDF {
    /// HKDF (RFC 5869): extracts a pseudo-random key from input key material (a Diffie-Hellman
    /// secret, a master key) and a salt, then expands it with `info` into keys for one purpose. Not
    /// for passwords: use PBKDF2 for those.
    public enum HKDF {
        /// Derives `outputByteCount` bytes (at most 255 × the hash length). An empty salt is
        /// RFC 5869's default, a string of zeros as long as the hash.
        ///
        /// - Parameters:
        ///   - inputKeyMaterial: Key material that is already random (not a password: use PBKDF2).
        ///   - salt: Random bytes, not secret; empty means none.
        ///   - info: What the key is for, so that one secret gives independent keys; may be empty.
        ///   - hash: The hash HKDF's HMAC is built on, SHA-256 by default.
        ///   - outputByteCount: The key length in bytes, 1 to 255 × `hash.byteCount`.
        /// - Returns: The derived key, `outputByteCount` bytes.
        /// - Throws: ``CryptoError/invalidParameter(_:)`` for an `outputByteCount` outside 1 to
        ///   255 × `hash.byteCount`; ``CryptoError/backendFailure(_:)`` if OpenSSL's HKDF fails,
        ///   which a working installation does not.
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

/// HKDF (RFC 5869) with the hash as a type, as CryptoKit's: `deriveKey`, or its two steps `extract`
/// (input key material and salt to a pseudo-random key, an HMAC code) and `expand` (that key and
/// `info` to output key material). Over OpenSSL's HKDF, the same as `KDF.HKDF`. An empty or absent
/// salt is RFC 5869's default, a string of zeros as long as the hash.
///
/// ```swift
/// let key = HKDF<SHA256>.deriveKey(inputKeyMaterial: secret, salt: salt, info: Data("v1 payload".utf8), outputByteCount: 32)
/// ```
public struct HKDF<H: HashFunction>: Sendable {
    /// Derives `outputByteCount` bytes (1 to 255 × `H.byteCount`; more stops the process).
    ///
    /// - Parameters:
    ///   - inputKeyMaterial: Key material that is already random (not a password: use PBKDF2).
    ///   - salt: Optional random bytes; empty means none.
    ///   - info: What the key is for.
    ///   - outputByteCount: The key length in bytes.
    /// - Returns: The derived key.
    public static func deriveKey(
        inputKeyMaterial: SymmetricKey,
        salt: some DataProtocol,
        info: some DataProtocol,
        outputByteCount: Int
    ) -> SymmetricKey {
        run(.extractAndExpand, key: inputKeyMaterial, salt: salt, info: info, outputByteCount: outputByteCount)
    }

    /// Derives `outputByteCount` bytes without a salt.
    ///
    /// - Parameters:
    ///   - inputKeyMaterial: Key material that is already random (not a password: use PBKDF2).
    ///   - info: What the key is for.
    ///   - outputByteCount: The key length in bytes, 1 to 255 × `H.byteCount`; another count stops
    ///     the process.
    /// - Returns: The derived key, `outputByteCount` bytes.
    public static func deriveKey(
        inputKeyMaterial: SymmetricKey,
        info: some DataProtocol,
        outputByteCount: Int
    ) -> SymmetricKey {
        deriveKey(inputKeyMaterial: inputKeyMaterial, salt: [UInt8](), info: info, outputByteCount: outputByteCount)
    }

    /// Derives `outputByteCount` bytes without `info`.
    ///
    /// - Parameters:
    ///   - inputKeyMaterial: Key material that is already random (not a password: use PBKDF2).
    ///   - salt: Optional random bytes; empty means none.
    ///   - outputByteCount: The key length in bytes, 1 to 255 × `H.byteCount`; another count stops
    ///     the process.
    /// - Returns: The derived key, `outputByteCount` bytes.
    public static func deriveKey(
        inputKeyMaterial: SymmetricKey,
        salt: some DataProtocol,
        outputByteCount: Int
    ) -> SymmetricKey {
        deriveKey(inputKeyMaterial: inputKeyMaterial, salt: salt, info: [UInt8](), outputByteCount: outputByteCount)
    }

    /// Derives `outputByteCount` bytes without a salt or `info`.
    ///
    /// - Parameters:
    ///   - inputKeyMaterial: Key material that is already random (not a password: use PBKDF2).
    ///   - outputByteCount: The key length in bytes, 1 to 255 × `H.byteCount`; another count stops
    ///     the process.
    /// - Returns: The derived key, `outputByteCount` bytes.
    public static func deriveKey(inputKeyMaterial: SymmetricKey, outputByteCount: Int) -> SymmetricKey {
        deriveKey(
            inputKeyMaterial: inputKeyMaterial,
            salt: [UInt8](),
            info: [UInt8](),
            outputByteCount: outputByteCount
        )
    }

    /// The extract step: the pseudo-random key, `H.byteCount` bytes.
    ///
    /// - Parameters:
    ///   - inputKeyMaterial: The key material.
    ///   - salt: Optional random bytes; nil or empty means none.
    /// - Returns: The pseudo-random key, as HMAC-`H`(salt, input key material).
    public static func extract<Salt: DataProtocol>(
        inputKeyMaterial: SymmetricKey,
        salt: Salt?
    ) -> HashedAuthenticationCode<H> {
        let prk =
            salt.map { run(.extract, key: inputKeyMaterial, salt: $0, info: [UInt8](), outputByteCount: H.byteCount) }
            ?? run(.extract, key: inputKeyMaterial, salt: [UInt8](), info: [UInt8](), outputByteCount: H.byteCount)
        return prk.withUnsafeBytes { HashedAuthenticationCode(algorithm: H.algorithm, bytes: [UInt8]($0)) }
    }

    /// The expand step: `outputByteCount` bytes (1 to 255 × `H.byteCount`; more stops the process)
    /// of key material from a pseudo-random key.
    ///
    /// - Parameters:
    ///   - prk: The pseudo-random key, `extract`'s output or another at least `H.byteCount` bytes long.
    ///   - info: What the key is for; nil means empty.
    ///   - outputByteCount: The key length in bytes.
    /// - Returns: The derived key.
    public static func expand<PRK: ContiguousBytes, Info: DataProtocol>(
        pseudoRandomKey prk: PRK,
        info: Info?,
        outputByteCount: Int
    ) -> SymmetricKey {
        let key = SymmetricKey(data: prk)
        return info.map { run(.expand, key: key, salt: [UInt8](), info: $0, outputByteCount: outputByteCount) }
            ?? run(.expand, key: key, salt: [UInt8](), info: [UInt8](), outputByteCount: outputByteCount)
    }

    private static func run(
        _ step: HKDFStep,
        key: SymmetricKey,
        salt: some DataProtocol,
        info: some DataProtocol,
        outputByteCount: Int
    ) -> SymmetricKey {
        precondition(
            (1...(255 * H.byteCount)).contains(outputByteCount),
            "HKDF-\(H.algorithm) derives 1 to \(255 * H.byteCount) bytes, not \(outputByteCount)"
        )
        do {
            let output = try SecureBytes(count: outputByteCount) { (output) throws(CryptoError) in
                try key.withBytes { (key) throws(CryptoError) in
                    try salt.withContiguousBytes { (salt) throws(CryptoError) in
                        try info.withContiguousBytes { (info) throws(CryptoError) in
                            try KDF.HKDF.hkdf(step, ikm: key, salt: salt, info: info, hash: H.algorithm, into: output)
                        }
                    }
                }
            }
            return SymmetricKey(output)
        } catch {
            // OpenSSL's HKDF fails only for lengths checked above, or a broken installation.
            fatalError("SecKit: \(error)")
        }
    }
}
