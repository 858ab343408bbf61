import SecCrypto
import TestSupport
import Testing

/// A Wycheproof `pbkdf_test_schema` group. `password` and `salt` are hex; `dkLen` is in bytes.
struct PBKDFTestGroup: WycheproofTestGroup {
    struct TestCase: Decodable {
        let tcId: Int
        let password: String
        let salt: String
        let iterationCount: Int
        let dkLen: Int
        let dk: String
        let result: WycheproofResult
    }

    let tests: [TestCase]
}

/// PBKDF2-HMAC known answers (Wycheproof, RFC 6070, ring), and the iteration-count policy.
@Suite struct PBKDF2VectorTests {
    /// The derived key in hex, with the iteration count unchecked (the vectors use counts from 1 up).
    private static func derive(
        _ password: [UInt8],
        _ salt: [UInt8],
        _ prf: HashAlgorithm,
        iterations: Int,
        byteCount: Int
    ) throws -> String {
        Hex.encode(
            try KDF.PBKDF2.deriveKey(
                from: password,
                salt: salt,
                using: prf,
                unsafeUncheckedIterations: iterations,
                outputByteCount: byteCount
            )
        )
    }

    /// Every case is valid. The SHA-1 file repeats RFC 6070's 16,777,216-iteration case, hence slow.
    @Test(
        .tags(.slow),
        arguments: [
            HashVectorFile(.sha1, "wycheproof/pbkdf2_hmacsha1_test.json", cases: 64),
            HashVectorFile(.sha224, "wycheproof/pbkdf2_hmacsha224_test.json", cases: 58),
            HashVectorFile(.sha256, "wycheproof/pbkdf2_hmacsha256_test.json", cases: 60),
            HashVectorFile(.sha384, "wycheproof/pbkdf2_hmacsha384_test.json", cases: 58),
            HashVectorFile(.sha512, "wycheproof/pbkdf2_hmacsha512_test.json", cases: 58),
        ]
    )
    func wycheproof(_ file: HashVectorFile) throws {
        let vectors = try TestVectors.wycheproof(file.path, groups: PBKDFTestGroup.self)
        #expect(vectors.algorithm == "PBKDF2-HMAC" + file.algorithm.rawValue.uppercased())
        var caseCount = 0
        for test in vectors.testGroups.flatMap(\.tests) {
            let expected = try Hex.decode(test.dk)
            #expect(test.result == .valid && expected.count == test.dkLen, "tcId \(test.tcId)")
            let derived = try Self.derive(
                try Hex.decode(test.password),
                try Hex.decode(test.salt),
                file.algorithm,
                iterations: test.iterationCount,
                byteCount: test.dkLen
            )
            #expect(derived == Hex.encode(expected), "tcId \(test.tcId)")
            caseCount += 1
        }
        #expect(caseCount == file.cases)
    }

    /// RFC 6070 in pyca's format: PASSWORD and SALT are ASCII with `\0` for NUL. COUNT 3 has
    /// 16,777,216 iterations: slow, and run every time.
    @Test(.tags(.slow)) func rfc6070() throws {
        let records = try TestVectors.cavpRecords("nist-cavp/KDF/rfc-6070-PBKDF2-SHA1.txt")
        for record in records {
            let expected = try record.hexString("DERIVED_KEY")
            let length = try record.int("LENGTH")
            #expect(expected.count == 2 * length, "\(record.location)")
            let derived = try Self.derive(
                try record.asciiWithEscapedNUL("PASSWORD"),
                try record.asciiWithEscapedNUL("SALT"),
                .sha1,
                iterations: try record.int("ITERATIONS"),
                byteCount: length
            )
            #expect(derived == expected, "\(record.location)")
        }
        #expect(records.count == 6)
        #expect(try records.map { try $0.int("ITERATIONS") }.max() == 16_777_216)
        #expect(try records.contains { try $0.asciiWithEscapedNUL("PASSWORD") == Array("pass\0word".utf8) })
    }

    /// ring's file: `Verify = OK` must match; `Verify = Err` must not (a flipped bit), and its empty DK
    /// stands for a zero-length output, which `deriveKey` refuses with `invalidParameter`.
    @Test func ring() throws {
        let records = try TestVectors.cavpRecords("supplementary/ring/pbkdf2_tests.txt")
        var prfs: [HashAlgorithm: Int] = [:]
        var verdicts: [String: Int] = [:]
        for record in records {
            let prf = try #require(HashAlgorithm(name: try record.string("Hash")), "\(record.location)")
            let password = try record.quotedStringOrHex("P")
            let salt = try record.quotedStringOrHex("S")
            let iterations = try record.int("c")
            let expected = try record.quotedStringOrHex("DK")
            let verify = try record.string("Verify")
            prfs[prf, default: 0] += 1
            verdicts[expected.isEmpty ? "Err, empty DK" : verify, default: 0] += 1
            if expected.isEmpty {
                #expect(verify == "Err", "\(record.location)")
                let error = #expect(throws: CryptoError.self, "\(record.location)") {
                    try KDF.PBKDF2.deriveKey(
                        from: password,
                        salt: salt,
                        using: prf,
                        unsafeUncheckedIterations: iterations,
                        outputByteCount: 0
                    )
                }
                #expect(error?.isInvalidParameter == true, "\(record.location): \(String(describing: error))")
                continue
            }
            let derived = try Self.derive(password, salt, prf, iterations: iterations, byteCount: expected.count)
            switch verify {
            case "OK": #expect(derived == Hex.encode(expected), "\(record.location)")
            case "Err": #expect(derived != Hex.encode(expected), "\(record.location)")
            default: Issue.record("\(record.location): Verify = \(verify)")
            }
        }
        #expect(records.count == 28)
        #expect(prfs == [.sha256: 24, .sha512: 4])
        #expect(verdicts == ["OK": 20, "Err": 7, "Err, empty DK": 1])
    }

    /// `deriveKey(…, iterations:)` refuses one iteration fewer than the OWASP 2023 minimum and accepts
    /// the minimum, deriving the same key as the unchecked variant.
    @Test(arguments: [
        (HashAlgorithm.sha1, 1_300_000), (.sha224, 600_000), (.sha256, 600_000), (.sha384, 210_000), (.sha512, 210_000),
    ])
    func checkedDerivationEnforcesTheMinimum(_ prf: HashAlgorithm, _ minimum: Int) throws {
        #expect(KDF.PBKDF2.minimumIterations(for: prf) == minimum)
        let password = Array("correct horse battery staple".utf8)
        let salt = Array("NaCl-NaCl-NaCl".utf8)
        let error = #expect(throws: CryptoError.self) {
            try KDF.PBKDF2.deriveKey(
                from: password,
                salt: salt,
                using: prf,
                iterations: minimum - 1,
                outputByteCount: 32
            )
        }
        #expect(error?.isInvalidParameter == true, "\(String(describing: error))")
        let key = try KDF.PBKDF2.deriveKey(
            from: password,
            salt: salt,
            using: prf,
            iterations: minimum,
            outputByteCount: 32
        )
        #expect(Hex.encode(key) == (try Self.derive(password, salt, prf, iterations: minimum, byteCount: 32)))
    }

    /// The calibrated count takes roughly the requested time; the bounds are loose (0.25× to 4×)
    /// because other tests share the machine.
    @Test func calibrationApproximatesTheRequestedDuration() throws {
        let iterations = try KDF.PBKDF2.calibrate(duration: .milliseconds(100))
        let elapsed = try ContinuousClock().measure {
            _ = try KDF.PBKDF2.deriveKey(
                from: [UInt8](repeating: 0x70, count: 16),
                salt: [UInt8](repeating: 0x73, count: 16),
                unsafeUncheckedIterations: iterations,
                outputByteCount: 32
            )
        }
        #expect(
            elapsed >= .milliseconds(25) && elapsed <= .milliseconds(400),
            "\(iterations) iterations took \(elapsed)"
        )
    }
}
