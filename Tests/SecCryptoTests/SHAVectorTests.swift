import SecCrypto
import TestSupport
import Testing

/// NIST CAVP SHAVS ShortMsg/LongMsg and RFC 1321 (pyca's `Len`/`Msg`/`MD` format).
@Suite struct SHAVectorTests {
    @Test(arguments: [
        HashVectorFile(.md5, "nist-cavp/hashes/MD5/rfc-1321.txt", cases: 7),
        HashVectorFile(.sha1, "nist-cavp/hashes/SHA1/SHA1ShortMsg.rsp", cases: 65),
        HashVectorFile(.sha1, "nist-cavp/hashes/SHA1/SHA1LongMsg.rsp", cases: 64),
        HashVectorFile(.sha224, "nist-cavp/hashes/SHA2/SHA224ShortMsg.rsp", cases: 65),
        HashVectorFile(.sha224, "nist-cavp/hashes/SHA2/SHA224LongMsg.rsp", cases: 64),
        HashVectorFile(.sha256, "nist-cavp/hashes/SHA2/SHA256ShortMsg.rsp", cases: 65),
        HashVectorFile(.sha256, "nist-cavp/hashes/SHA2/SHA256LongMsg.rsp", cases: 64),
        HashVectorFile(.sha384, "nist-cavp/hashes/SHA2/SHA384ShortMsg.rsp", cases: 129),
        HashVectorFile(.sha384, "nist-cavp/hashes/SHA2/SHA384LongMsg.rsp", cases: 128),
        HashVectorFile(.sha512, "nist-cavp/hashes/SHA2/SHA512ShortMsg.rsp", cases: 129),
        HashVectorFile(.sha512, "nist-cavp/hashes/SHA2/SHA512LongMsg.rsp", cases: 128),
        HashVectorFile(.sha512_256, "nist-cavp/hashes/SHA2/SHA512_256ShortMsg.rsp", cases: 129),
        HashVectorFile(.sha512_256, "nist-cavp/hashes/SHA2/SHA512_256LongMsg.rsp", cases: 128),
    ])
    func messageDigests(_ file: HashVectorFile) throws {
        let hash = file.algorithm.hashFunction
        let records = try TestVectors.cavpRecords(file.path)
        for record in records {
            let bitLength = try record.int("Len")
            // `Len = 0` is written `Msg = 00`: the message is the first Len/8 bytes.
            let message = Array(try record.hex("Msg").prefix(bitLength / 8))
            #expect(message.count * 8 == bitLength, "\(record.location)")
            let expected = try record.hexString("MD")

            #expect(hash.hash(data: message).hexString == expected, "one-shot, \(record.location)")
            var incremental = hash.init()
            for piece in message.unevenPieces { incremental.update(data: piece) }
            #expect(incremental.finalize().hexString == expected, "incremental, \(record.location)")
        }
        #expect(records.count == file.cases)
    }

    /// SHAVS Monte Carlo: per checkpoint MD0 = MD1 = MD2 = Seed, MDi = H(MDi-3 ‖ MDi-2 ‖ MDi-1)
    /// for i = 3...1002; MD1002 is the checkpoint and the next Seed.
    @Test(arguments: [
        HashVectorFile(.sha1, "nist-cavp/hashes/SHA1/SHA1Monte.rsp", cases: 100),
        HashVectorFile(.sha224, "nist-cavp/hashes/SHA2/SHA224Monte.rsp", cases: 100),
        HashVectorFile(.sha256, "nist-cavp/hashes/SHA2/SHA256Monte.rsp", cases: 100),
        HashVectorFile(.sha384, "nist-cavp/hashes/SHA2/SHA384Monte.rsp", cases: 100),
        HashVectorFile(.sha512, "nist-cavp/hashes/SHA2/SHA512Monte.rsp", cases: 100),
        HashVectorFile(.sha512_256, "nist-cavp/hashes/SHA2/SHA512_256Monte.rsp", cases: 100),
    ])
    func monteCarlo(_ file: HashVectorFile) throws {
        let hash = file.algorithm.hashFunction
        let records = try TestVectors.cavpRecords(file.path)
        let seedRecord = try #require(records.first { $0.fields["Seed"] != nil }, "\(file.path) has no Seed")
        #expect(try seedRecord.headerInt("L") == file.algorithm.byteCount)
        var seed = try seedRecord.hex("Seed")
        let checkpoints = records.filter { $0.fields["COUNT"] != nil }
        for (index, checkpoint) in checkpoints.enumerated() {
            #expect(try checkpoint.int("COUNT") == index, "\(checkpoint.location)")
            var window = seed + seed + seed
            for _ in 3...1002 {
                let next = Array(hash.hash(data: window))
                window.removeFirst(next.count)
                window += next
            }
            seed = Array(window.suffix(file.algorithm.byteCount))
            #expect(Hex.encode(seed) == (try checkpoint.hexString("MD")), "\(checkpoint.location)")
        }
        #expect(checkpoints.count == file.cases)
        #expect(records.count == checkpoints.count + 1, "records other than Seed and COUNT/MD")
    }
}
