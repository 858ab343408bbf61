/// Key derivation functions.
public enum KDF {
    /// PBKDF2 (RFC 8018) with HMAC-SHA-1/224/256/384/512: turns a password and a salt into key bytes.
    ///
    /// Iteration counts below `minimumIterations(for:)` (OWASP 2023) are refused by `deriveKey`;
    /// `deriveKey(…, unsafeUncheckedIterations:)` accepts any count, for interoperability with formats
    /// that fix a lower one (for example `openssl enc -pbkdf2`'s default of 10,000).
    public enum PBKDF2 {
        /// The pseudo-random functions PBKDF2 is offered with.
        public static let supportedPRFs: [HashAlgorithm] = [.sha1, .sha224, .sha256, .sha384, .sha512]

        /// OWASP's 2023 recommendation for new secrets: 1,300,000 for SHA-1, 600,000 for SHA-256
        /// (and SHA-224), 210,000 for SHA-512 (and SHA-384 and SHA-512/256, which cost as much).
        ///
        /// - Parameter prf: The hash of PBKDF2's HMAC.
        /// - Returns: The fewest iterations `deriveKey(from:salt:using:iterations:outputByteCount:)`
        ///   accepts with `prf` (for MD5, which PBKDF2 refuses anyway, SHA-1's).
        public static func minimumIterations(for prf: HashAlgorithm) -> Int {
            switch prf {
            case .md5, .sha1: 1_300_000
            case .sha224, .sha256: 600_000
            case .sha384, .sha512, .sha512_256: 210_000
            }
        }

        /// Derives `outputByteCount` bytes; refuses iteration counts below `minimumIterations(for:)`.
        ///
        /// - Parameters:
        ///   - password: The password's bytes (UTF-8 for text).
        ///   - salt: Random bytes, unique per password, not secret (16 or more).
        ///   - prf: The hash of PBKDF2's HMAC, one of ``supportedPRFs``; SHA-256 by default.
        ///   - iterations: The iteration count, at least ``minimumIterations(for:)`` for `prf`.
        ///   - outputByteCount: The key length in bytes, 1 to `Int32.max`.
        /// - Returns: The derived key, `outputByteCount` bytes.
        /// - Throws: ``CryptoError/invalidParameter(_:)`` for too few iterations, a `prf` not in
        ///   ``supportedPRFs``, or an `outputByteCount` outside 1 to `Int32.max`;
        ///   ``CryptoError/backendFailure(_:)`` if OpenSSL's PBKDF2 fails, which a working
        ///   installation does not.
        public static func deriveKey(
            from password: some ContiguousBytes,
            salt: some ContiguousBytes,
            using prf: HashAlgorithm = .sha256,
            iterations: Int,
            outputByteCount: Int
        ) throws(CryptoError) -> SymmetricKey {
            try requireMinimumIterations(iterations, for: prf)
            return try deriveKey(
                from: password,
                salt: salt,
                using: prf,
                unsafeUncheckedIterations: iterations,
                outputByteCount: outputByteCount
            )
        }

        /// Throws `invalidParameter` for fewer iterations than `minimumIterations(for: prf)`.
        static func requireMinimumIterations(_ iterations: Int, for prf: HashAlgorithm) throws(CryptoError) {
            let minimum = minimumIterations(for: prf)
            guard iterations >= minimum else {
                throw .invalidParameter(
                    "PBKDF2-HMAC-\(prf.rawValue.uppercased()) needs at least \(minimum) iterations for new secrets, got \(iterations)"
                )
            }
        }

        /// Derives `outputByteCount` bytes with any iteration count ≥ 1. Only for reading or writing
        /// formats that dictate a low count; new secrets use `deriveKey(…, iterations:…)`.
        ///
        /// - Parameters:
        ///   - password: The password's bytes (UTF-8 for text).
        ///   - salt: The salt the format gives.
        ///   - prf: The hash of PBKDF2's HMAC, one of ``supportedPRFs``; SHA-256 by default.
        ///   - iterations: The iteration count, 1 to `Int32.max`, unchecked against any minimum.
        ///   - outputByteCount: The key length in bytes, 1 to `Int32.max`.
        /// - Returns: The derived key, `outputByteCount` bytes.
        /// - Throws: ``CryptoError/invalidParameter(_:)`` for a `prf` not in ``supportedPRFs``, or
        ///   `iterations` or `outputByteCount` outside 1 to `Int32.max`;
        ///   ``CryptoError/backendFailure(_:)`` if OpenSSL's PBKDF2 fails.
        public static func deriveKey(
            from password: some ContiguousBytes,
            salt: some ContiguousBytes,
            using prf: HashAlgorithm = .sha256,
            unsafeUncheckedIterations iterations: Int,
            outputByteCount: Int
        ) throws(CryptoError) -> SymmetricKey {
            guard supportedPRFs.contains(prf) else {
                throw .invalidParameter("PBKDF2 does not offer \(prf) as its PRF")
            }
            guard (1...Int(Int32.max)).contains(iterations) else {
                throw .invalidParameter("PBKDF2 iterations must be between 1 and \(Int32.max), got \(iterations)")
            }
            guard (1...Int(Int32.max)).contains(outputByteCount) else {
                throw .invalidParameter("PBKDF2 output length must be at least 1 byte, got \(outputByteCount)")
            }
            let key = try SecureBytes(count: outputByteCount) { (output) throws(CryptoError) in
                try password.withBytes { (password) throws(CryptoError) in
                    try salt.withBytes { (salt) throws(CryptoError) in
                        try pbkdf2(password: password, salt: salt, prf: prf, iterations: iterations, into: output)
                    }
                }
            }
            return SymmetricKey(key)
        }

        /// The iteration count that takes about `duration` on this machine for one derivation of
        /// `outputByteCount` bytes (CommonCrypto's `CCCalibratePBKDF`). Measures a probe run and scales.
        ///
        /// - Parameters:
        ///   - prf: The hash of PBKDF2's HMAC, one of ``supportedPRFs``; SHA-256 by default.
        ///   - duration: How long one derivation should take, more than zero.
        ///   - outputByteCount: The key length the derivation will produce, 32 bytes by default.
        /// - Returns: The iteration count, 1 to `Int32.max`. It may be below
        ///   ``minimumIterations(for:)``: take the larger of the two for new secrets.
        /// - Throws: ``CryptoError/invalidParameter(_:)`` for a `duration` that is not positive, a
        ///   `prf` not in ``supportedPRFs`` or an `outputByteCount` outside 1 to `Int32.max`;
        ///   ``CryptoError/backendFailure(_:)`` if OpenSSL's PBKDF2 fails.
        public static func calibrate(
            using prf: HashAlgorithm = .sha256,
            duration: Duration,
            outputByteCount: Int = 32
        ) throws(CryptoError) -> Int {
            guard duration > .zero else { throw .invalidParameter("calibration needs a positive duration") }
            let password = [UInt8](repeating: 0x70, count: 16)
            let salt = [UInt8](repeating: 0x73, count: 16)
            var probe = 10_000
            let clock = ContinuousClock()
            while true {
                let start = clock.now
                _ = try deriveKey(
                    from: password,
                    salt: salt,
                    using: prf,
                    unsafeUncheckedIterations: probe,
                    outputByteCount: outputByteCount
                )
                let elapsed: Duration = clock.now - start
                // Measure at least 50 ms so timer resolution and start-up costs do not dominate.
                if elapsed >= .milliseconds(50) || probe >= Int(Int32.max) / 2 {
                    let scaled = Double(probe) * (duration / elapsed)
                    return max(1, min(Int(Int32.max), Int(scaled.rounded())))
                }
                probe *= 4
            }
        }
    }
}
