import SecCrypto
import TestSupport
import Testing

/// A Wycheproof `ind_cpa_test_schema_v1` group (AES-CBC with PKCS#7 padding). Sizes are in bits.
struct IndCpaTestGroup: WycheproofTestGroup {
    struct TestCase: Decodable {
        let tcId: Int
        let key: String
        let iv: String
        let msg: String
        let ct: String
        let result: WycheproofResult
    }

    let keySize: Int
    let ivSize: Int
    let tests: [TestCase]
}

/// NIST CAVP AESVS (raw CBC, no padding) and Wycheproof AES-CBC-PKCS5.
@Suite struct AESCBCVectorTests {
    private static func cbcAlgorithm(keyByteCount: Int) throws -> CipherAlgorithm {
        try #require(CipherAlgorithm.allCases.first { !$0.isGCM && !$0.isTripleDES && $0.keyByteCount == keyByteCount })
    }

    /// GFSbox, KeySbox, VarKey, VarTxt (one block) and MMT (1–10 blocks); the key size is in the file name.
    @Test(arguments: [
        VectorFile("nist-cavp/ciphers/AES/CBC/CBCGFSbox128.rsp", cases: 14),
        VectorFile("nist-cavp/ciphers/AES/CBC/CBCGFSbox192.rsp", cases: 12),
        VectorFile("nist-cavp/ciphers/AES/CBC/CBCGFSbox256.rsp", cases: 10),
        VectorFile("nist-cavp/ciphers/AES/CBC/CBCKeySbox128.rsp", cases: 42),
        VectorFile("nist-cavp/ciphers/AES/CBC/CBCKeySbox192.rsp", cases: 48),
        VectorFile("nist-cavp/ciphers/AES/CBC/CBCKeySbox256.rsp", cases: 32),
        VectorFile("nist-cavp/ciphers/AES/CBC/CBCVarKey128.rsp", cases: 256),
        VectorFile("nist-cavp/ciphers/AES/CBC/CBCVarKey192.rsp", cases: 384),
        VectorFile("nist-cavp/ciphers/AES/CBC/CBCVarKey256.rsp", cases: 512),
        VectorFile("nist-cavp/ciphers/AES/CBC/CBCVarTxt128.rsp", cases: 256),
        VectorFile("nist-cavp/ciphers/AES/CBC/CBCVarTxt192.rsp", cases: 256),
        VectorFile("nist-cavp/ciphers/AES/CBC/CBCVarTxt256.rsp", cases: 256),
        VectorFile("nist-cavp/ciphers/AES/CBC/CBCMMT128.rsp", cases: 20),
        VectorFile("nist-cavp/ciphers/AES/CBC/CBCMMT192.rsp", cases: 20),
        VectorFile("nist-cavp/ciphers/AES/CBC/CBCMMT256.rsp", cases: 20),
    ])
    func knownAnswer(_ file: VectorFile) throws {
        let records = try TestVectors.cavpRecords(file.path)
        var directions: [CipherStream.Direction: Int] = [:]
        for record in records {
            let key = SymmetricKey(data: try record.hex("KEY"))
            let iv = try record.hex("IV")
            let direction = try record.direction()
            let input = try record.hex(direction.cavpFields.input)
            let output =
                switch direction {
                case .encrypt: try AES.CBC.encrypt(input, using: key, iv: iv, padding: .none)
                case .decrypt: try AES.CBC.decrypt(input, using: key, iv: iv, padding: .none)
                }
            #expect(Hex.encode(output) == (try record.hexString(direction.cavpFields.output)), "\(record.location)")
            #expect(file.path.hasSuffix("\(key.bitCount).rsp"), "\(record.location): key size")
            directions[direction, default: 0] += 1
        }
        #expect(records.count == file.cases)
        #expect(directions == [.encrypt: file.cases / 2, .decrypt: file.cases / 2])
    }

    /// AESVS Monte Carlo: 1000 chained inner iterations per record, each record checked on its own.
    @Test(
        arguments: [
            VectorFile("nist-cavp/ciphers/AES/CBC/CBCMCT128.rsp", cases: 200),
            VectorFile("nist-cavp/ciphers/AES/CBC/CBCMCT192.rsp", cases: 200),
            VectorFile("nist-cavp/ciphers/AES/CBC/CBCMCT256.rsp", cases: 200),
        ],
        [CipherStream.Direction.encrypt, .decrypt]
    )
    func monteCarlo(_ file: VectorFile, _ direction: CipherStream.Direction) throws {
        let records = try TestVectors.cavpRecords(file.path).filter { try $0.direction() == direction }
        for record in records {
            let key = try record.hex("KEY")
            let iv = try record.hex("IV")
            let stream = try CipherStream(
                try Self.cbcAlgorithm(keyByteCount: key.count),
                direction,
                key: SymmetricKey(data: key),
                iv: iv,
                padding: .none
            )
            let output = CBCMonteCarlo.lastOutput(
                of: stream,
                iv: iv,
                firstInput: try record.hex(direction.cavpFields.input),
                iterations: 1000,
                feedback: .outputBeforeLast
            )
            #expect(Hex.encode(output) == (try record.hexString(direction.cavpFields.output)), "\(record.location)")
        }
        #expect(records.count == file.cases / 2)
    }

    /// Valid cases encrypt to `ct` and decrypt to `msg`; invalid ones (bad padding) fail to decrypt with
    /// `decryptionFailed` and nothing more specific, so that no padding oracle is exposed.
    @Test func wycheproof() throws {
        let vectors = try TestVectors.wycheproof("wycheproof/aes_cbc_pkcs5_test.json", groups: IndCpaTestGroup.self)
        #expect(vectors.algorithm == "AES-CBC-PKCS5")
        var results: [WycheproofResult: Int] = [:]
        for group in vectors.testGroups {
            for test in group.tests {
                let key = SymmetricKey(data: try Hex.decode(test.key))
                let iv = try Hex.decode(test.iv)
                let message = try Hex.decode(test.msg)
                let ciphertext = try Hex.decode(test.ct)
                #expect(key.bitCount == group.keySize && iv.count * 8 == group.ivSize, "tcId \(test.tcId)")
                switch test.result {
                case .valid:
                    #expect(
                        Hex.encode(try AES.CBC.encrypt(message, using: key, iv: iv)) == Hex.encode(ciphertext),
                        "tcId \(test.tcId)"
                    )
                    #expect(
                        Hex.encode(try AES.CBC.decrypt(ciphertext, using: key, iv: iv)) == Hex.encode(message),
                        "tcId \(test.tcId)"
                    )
                    #expect(
                        Hex.encode(try AES.CBC.decryptSecret(ciphertext, using: key, iv: iv)) == Hex.encode(message),
                        "tcId \(test.tcId)"
                    )
                case .invalid:
                    #expect(throws: CryptoError.decryptionFailed, "tcId \(test.tcId)") {
                        try AES.CBC.decrypt(ciphertext, using: key, iv: iv)
                    }
                    #expect(throws: CryptoError.decryptionFailed, "tcId \(test.tcId)") {
                        try AES.CBC.decryptSecret(ciphertext, using: key, iv: iv)
                    }
                }
                results[test.result, default: 0] += 1
            }
        }
        #expect(results == [.valid: 72, .invalid: 144])
    }

    /// Without padding, a plaintext of a partial block is the caller's mistake, not a failed
    /// decryption: it is refused as a parameter, while a ciphertext of a partial block still
    /// decrypts to `decryptionFailed` alone.
    @Test func partialBlocksWithoutPadding() throws {
        let key = SymmetricKey(size: .bits256)
        let iv = [UInt8](repeating: 7, count: 16)
        let message = [UInt8](repeating: 1, count: 15)
        #expect(
            throws: CryptoError.invalidParameter("without padding, the input must be a whole number of 16-byte blocks")
        ) {
            try AES.CBC.encrypt(message, using: key, iv: iv, padding: .none)
        }
        #expect(throws: CryptoError.decryptionFailed) {
            try AES.CBC.decrypt(message, using: key, iv: iv, padding: .none)
        }
        #expect(
            throws: CryptoError.invalidParameter("without padding, the input must be a whole number of 8-byte blocks")
        ) {
            try Insecure.TripleDES.CBC.encrypt(
                [UInt8](repeating: 1, count: 7),
                using: SymmetricKey(size: .bits192),
                iv: [UInt8](repeating: 7, count: 8),
                keying: .threeKey,
                padding: .none
            )
        }
        #expect(try AES.CBC.encrypt(message + [2], using: key, iv: iv, padding: .none).count == 16)
    }
}
