import SecCrypto
import TestSupport
import Testing

extension HashAlgorithm {
    /// HMAC of `message` under `key` with this algorithm. Also checks that an incremental computation
    /// fed in uneven pieces gives the same code.
    func authenticationCode(key: [UInt8], message: [UInt8]) -> [UInt8] {
        func compute<H: HashFunction>(_: H.Type) -> [UInt8] {
            let key = SymmetricKey(data: key)
            let oneShot = HMAC<H>.authenticationCode(for: message, using: key)
            var incremental = HMAC<H>(key: key)
            for piece in message.unevenPieces { incremental.update(data: piece) }
            #expect(incremental.finalize() == oneShot, "incremental HMAC differs from one-shot")
            return Array(oneShot)
        }
        return compute(hashFunction)
    }

    /// `HMAC<H>.isValidAuthenticationCode` for this algorithm.
    func isValidAuthenticationCode(_ code: [UInt8], key: [UInt8], message: [UInt8]) -> Bool {
        func check<H: HashFunction>(_: H.Type) -> Bool {
            HMAC<H>.isValidAuthenticationCode(code, authenticating: message, using: SymmetricKey(data: key))
        }
        return check(hashFunction)
    }
}

/// A Wycheproof `mac_test_schema_v1` group. Sizes are in bits.
struct MACTestGroup: WycheproofTestGroup {
    struct TestCase: Decodable {
        let tcId: Int
        let key: String
        let msg: String
        let tag: String
        let result: WycheproofResult
    }

    let keySize: Int
    let tagSize: Int
    let tests: [TestCase]
}

@Suite struct HMACVectorTests {
    /// RFC 2202 and RFC 4231 in pyca's format: `Len` (bits of Msg), `Key`, `Msg`, `MD`.
    @Test(arguments: [
        HashVectorFile(.md5, "nist-cavp/HMAC/rfc-2202-md5.txt", cases: 7),
        HashVectorFile(.sha1, "nist-cavp/HMAC/rfc-2202-sha1.txt", cases: 7),
        HashVectorFile(.sha224, "nist-cavp/HMAC/rfc-4231-sha224.txt", cases: 6),
        HashVectorFile(.sha256, "nist-cavp/HMAC/rfc-4231-sha256.txt", cases: 6),
        HashVectorFile(.sha384, "nist-cavp/HMAC/rfc-4231-sha384.txt", cases: 6),
        HashVectorFile(.sha512, "nist-cavp/HMAC/rfc-4231-sha512.txt", cases: 6),
    ])
    func rfc(_ file: HashVectorFile) throws {
        let records = try TestVectors.cavpRecords(file.path)
        for record in records {
            let message = try record.hex("Msg")
            #expect(message.count * 8 == (try record.int("Len")), "\(record.location)")
            let code = file.algorithm.authenticationCode(key: try record.hex("Key"), message: message)
            #expect(Hex.encode(code) == (try record.hexString("MD")), "\(record.location)")
        }
        #expect(records.count == file.cases)
    }

    /// NSS's CAVS 17.8 HMAC.fax: `[L=<digest bytes>]` selects the hash; records start at `Count`.
    @Test(arguments: [
        HashVectorFile(.sha1, "nist-cavs-nss/HMAC/HMAC.fax", cases: 75),
        HashVectorFile(.sha224, "nist-cavs-nss/HMAC/HMAC.fax", cases: 75),
        HashVectorFile(.sha256, "nist-cavs-nss/HMAC/HMAC.fax", cases: 60),
        HashVectorFile(.sha384, "nist-cavs-nss/HMAC/HMAC.fax", cases: 75),
        HashVectorFile(.sha512, "nist-cavs-nss/HMAC/HMAC.fax", cases: 75),
    ])
    func cavs(_ file: HashVectorFile) throws {
        let allRecords = try TestVectors.cavpRecords(file.path, firstKey: "Count")
        #expect(allRecords.count == 360)
        let records = try allRecords.filter { try $0.headerInt("L") == file.algorithm.byteCount }
        var longKeys = 0
        for record in records {
            let key = try record.hex("Key")
            let tagLength = try record.int("Tlen")
            #expect(key.count == (try record.int("Klen")), "\(record.location)")
            longKeys += key.count > file.algorithm.blockByteCount ? 1 : 0
            let code = file.algorithm.authenticationCode(key: key, message: try record.hex("Msg"))
            #expect(Hex.encode(code.prefix(tagLength)) == (try record.hexString("Mac")), "\(record.location)")
        }
        #expect(records.count == file.cases)
        #expect(longKeys > 0, "no key longer than the block size was exercised")
    }

    /// Wycheproof: the first tagSize/8 bytes must equal `tag` for valid cases and differ for invalid ones;
    /// `isValidAuthenticationCode` accepts exactly the valid full-length tags.
    @Test(arguments: [
        HashVectorFile(.sha1, "wycheproof/hmac_sha1_test.json", cases: 170),
        HashVectorFile(.sha224, "wycheproof/hmac_sha224_test.json", cases: 172),
        HashVectorFile(.sha256, "wycheproof/hmac_sha256_test.json", cases: 174),
        HashVectorFile(.sha384, "wycheproof/hmac_sha384_test.json", cases: 174),
        HashVectorFile(.sha512, "wycheproof/hmac_sha512_test.json", cases: 174),
    ])
    func wycheproof(_ file: HashVectorFile) throws {
        let vectors = try TestVectors.wycheproof(file.path, groups: MACTestGroup.self)
        #expect(vectors.algorithm == "HMAC" + file.algorithm.rawValue.uppercased())
        var caseCount = 0
        for group in vectors.testGroups {
            for test in group.tests {
                let key = try Hex.decode(test.key)
                let message = try Hex.decode(test.msg)
                let tag = try Hex.decode(test.tag)
                #expect(key.count * 8 == group.keySize && tag.count * 8 == group.tagSize, "tcId \(test.tcId)")
                let truncated = Array(
                    file.algorithm.authenticationCode(key: key, message: message).prefix(group.tagSize / 8)
                )
                #expect((truncated == tag) == (test.result == .valid), "tcId \(test.tcId)")
                let acceptsFullTag = test.result == .valid && tag.count == file.algorithm.byteCount
                #expect(
                    file.algorithm.isValidAuthenticationCode(tag, key: key, message: message) == acceptsFullTag,
                    "isValidAuthenticationCode, tcId \(test.tcId)"
                )
                caseCount += 1
            }
        }
        #expect(caseCount == file.cases)
    }
}
