import SecCrypto
import TestSupport
import Testing

/// A Wycheproof `aead_test_schema_v1` group (AES-GCM). Sizes are in bits; `tag` is separate from `ct`.
struct AEADTestGroup: WycheproofTestGroup {
    struct TestCase: Decodable {
        let tcId: Int
        let key: String
        let iv: String
        let aad: String
        let msg: String
        let ct: String
        let tag: String
        let result: WycheproofResult
    }

    let keySize: Int
    let ivSize: Int
    let tagSize: Int
    let tests: [TestCase]
}

/// NIST CAVP GCMVS (CAVS 14.0) and Wycheproof AES-GCM.
@Suite struct AESGCMVectorTests {
    /// The fields common to GCMVS encryption and decryption records, checked against the bit lengths of
    /// the `[Keylen] [IVlen] [PTlen] [AADlen] [Taglen]` headers.
    private struct GCMRecord {
        let key: SymmetricKey
        let iv: [UInt8]
        let aad: [UInt8]
        let ciphertext: [UInt8]
        let tag: [UInt8]

        init(_ record: CAVPRecord) throws {
            func field(_ name: String, bits header: String) throws -> [UInt8] {
                let value = try record.hex(name)
                #expect(
                    value.count * 8 == (try record.headerInt(header)),
                    "\(record.location): \(name) against [\(header)]"
                )
                return value
            }
            key = SymmetricKey(data: try field("Key", bits: "Keylen"))
            iv = try field("IV", bits: "IVlen")
            aad = try field("AAD", bits: "AADlen")
            ciphertext = try field("CT", bits: "PTlen")
            tag = try field("Tag", bits: "Taglen")
        }
    }

    /// Sealing gives CT and a 16-byte tag whose first Taglen/8 bytes are the record's tag. Nonces of
    /// 1, 12 and 128 bytes.
    @Test(arguments: [
        VectorFile("nist-cavp/ciphers/AES/GCM/gcmEncryptExtIV128.rsp", cases: 7875),
        VectorFile("nist-cavp/ciphers/AES/GCM/gcmEncryptExtIV192.rsp", cases: 7875),
        VectorFile("nist-cavp/ciphers/AES/GCM/gcmEncryptExtIV256.rsp", cases: 7875),
    ])
    func nistEncrypt(_ file: VectorFile) throws {
        let records = try TestVectors.cavpRecords(file.path)
        for record in records {
            let gcm = try GCMRecord(record)
            let box = try AES.GCM.seal(
                try record.hex("PT"),
                using: gcm.key,
                nonce: try AES.GCM.Nonce(data: gcm.iv),
                authenticating: gcm.aad
            )
            #expect(Hex.encode(box.ciphertext) == Hex.encode(gcm.ciphertext), "\(record.location)")
            #expect(box.tag.count == AES.GCM.tagByteCount, "\(record.location)")
            #expect(Hex.encode(box.tag.prefix(gcm.tag.count)) == Hex.encode(gcm.tag), "\(record.location)")
            // Again under the same key object: its kept context is only restarted with the nonce.
            let again = try AES.GCM.seal(
                try record.hex("PT"),
                using: gcm.key,
                nonce: try AES.GCM.Nonce(data: gcm.iv),
                authenticating: gcm.aad
            )
            #expect(again.ciphertext == box.ciphertext && again.tag == box.tag, "\(record.location)")
        }
        #expect(records.count == file.cases)
    }

    /// Full 16-byte tags: valid records open to PT, `FAIL` records throw `authenticationFailure`.
    /// Truncated tags are refused by policy: the sealed box cannot even be built (`incorrectSize`).
    @Test(arguments: [
        (VectorFile("nist-cavp/ciphers/AES/GCM/gcmDecrypt128.rsp", cases: 7875), 4011),
        (VectorFile("nist-cavp/ciphers/AES/GCM/gcmDecrypt192.rsp", cases: 7875), 3978),
        (VectorFile("nist-cavp/ciphers/AES/GCM/gcmDecrypt256.rsp", cases: 7875), 3919),
    ])
    func nistDecrypt(_ file: VectorFile, failures: Int) throws {
        let records = try TestVectors.cavpRecords(file.path)
        var failRecords = 0
        var opened = 0
        var rejected = 0
        var refused = 0
        for record in records {
            let gcm = try GCMRecord(record)
            let mustFail = record.fields["FAIL"] != nil
            #expect(mustFail != (record.fields["PT"] != nil), "\(record.location): needs exactly one of PT and FAIL")
            failRecords += mustFail ? 1 : 0
            let nonce = try AES.GCM.Nonce(data: gcm.iv)
            guard gcm.tag.count == AES.GCM.tagByteCount else {
                expectIncorrectSize(actual: gcm.tag.count, expected: "16 bytes", "\(record.location)") {
                    try AES.GCM.SealedBox(nonce: nonce, ciphertext: gcm.ciphertext, tag: gcm.tag)
                }
                refused += 1
                continue
            }
            let box = try AES.GCM.SealedBox(nonce: nonce, ciphertext: gcm.ciphertext, tag: gcm.tag)
            // Twice under the same key object: the second time on its kept context, after a success
            // or a failure.
            for _ in 0..<2 {
                if mustFail {
                    #expect(throws: CryptoError.authenticationFailure, "\(record.location)") {
                        try AES.GCM.open(box, using: gcm.key, authenticating: gcm.aad)
                    }
                } else {
                    let plaintext = try AES.GCM.open(box, using: gcm.key, authenticating: gcm.aad)
                    #expect(Hex.encode(plaintext) == (try record.hexString("PT")), "\(record.location)")
                }
            }
            if mustFail { rejected += 1 } else { opened += 1 }
        }
        #expect(records.count == file.cases)
        #expect(failRecords == failures)
        #expect(opened > 0 && rejected > 0 && refused > 0, "opened \(opened), rejected \(rejected), refused \(refused)")
    }

    /// Valid cases seal to ct ‖ tag and open to msg; invalid ones fail to open (`authenticationFailure`),
    /// or, with an empty IV, cannot even make a nonce. IVs longer than 128 bytes (tcId 268, 272, 276)
    /// are beyond OpenSSL's limit and must be refused with `incorrectSize`.
    @Test func wycheproof() throws {
        let vectors = try TestVectors.wycheproof("wycheproof/aes_gcm_test.json", groups: AEADTestGroup.self)
        #expect(vectors.algorithm == "AES-GCM")
        var results: [WycheproofResult: Int] = [:]
        var unsupported: [Int] = []
        for group in vectors.testGroups {
            for test in group.tests {
                results[test.result, default: 0] += 1
                let key = SymmetricKey(data: try Hex.decode(test.key))
                let iv = try Hex.decode(test.iv)
                let aad = try Hex.decode(test.aad)
                let message = try Hex.decode(test.msg)
                let ciphertext = try Hex.decode(test.ct)
                let tag = try Hex.decode(test.tag)
                #expect(key.bitCount == group.keySize && iv.count * 8 == group.ivSize, "tcId \(test.tcId)")
                #expect(tag.count * 8 == group.tagSize && tag.count == AES.GCM.tagByteCount, "tcId \(test.tcId)")
                guard (1...128).contains(iv.count) else {
                    expectIncorrectSize(actual: iv.count, expected: "1 to 128 bytes", "tcId \(test.tcId)") {
                        try AES.GCM.Nonce(data: iv)
                    }
                    if !iv.isEmpty { unsupported.append(test.tcId) }
                    #expect(!iv.isEmpty || test.result == .invalid, "tcId \(test.tcId): an empty IV must be invalid")
                    continue
                }
                let nonce = try AES.GCM.Nonce(data: iv)
                let box = try AES.GCM.SealedBox(nonce: nonce, ciphertext: ciphertext, tag: tag)
                switch test.result {
                case .valid:
                    let sealed = try AES.GCM.seal(message, using: key, nonce: nonce, authenticating: aad)
                    #expect(
                        Hex.encode(sealed.ciphertext + sealed.tag) == Hex.encode(ciphertext + tag),
                        "tcId \(test.tcId)"
                    )
                    #expect(
                        Hex.encode(try AES.GCM.open(box, using: key, authenticating: aad)) == Hex.encode(message),
                        "tcId \(test.tcId)"
                    )
                case .invalid:
                    #expect(throws: CryptoError.authenticationFailure, "tcId \(test.tcId)") {
                        try AES.GCM.open(box, using: key, authenticating: aad)
                    }
                }
            }
        }
        #expect(results == [.valid: 229, .invalid: 87])
        #expect(unsupported == [268, 272, 276])
    }
}
