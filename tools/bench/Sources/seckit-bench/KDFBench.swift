import SecCrypto

// MARK: KDF

/// PBKDF2-HMAC-SHA256; password patternBytes(16, seed: 0x70), salt patternBytes(16, seed: 0x73).
/// The result is the derived key in hex.
func pbkdf2SHA256(iterations: Int, outputByteCount: Int) -> Benchmark {
    Benchmark(
        name: "pbkdf2-sha256-\(iterations)",
        summary: "KDF.PBKDF2.deriveKey(from:salt:using: .sha256, unsafeUncheckedIterations: \(iterations),"
            + " outputByteCount: \(outputByteCount)), 16-byte password and salt; result = the key"
    ) {
        let password = patternBytes(16, seed: 0x70)
        let salt = patternBytes(16, seed: 0x73)
        func derive() -> SymmetricKey {
            do {
                return try KDF.PBKDF2.deriveKey(
                    from: password,
                    salt: salt,
                    using: .sha256,
                    unsafeUncheckedIterations: iterations,
                    outputByteCount: outputByteCount
                )
            } catch {
                fail("PBKDF2: \(error)")
            }
        }
        return Prepared(operation: { derive().withUnsafeBytes { $0[0] } }, result: derive().withUnsafeBytes { hex($0) })
    }
}
