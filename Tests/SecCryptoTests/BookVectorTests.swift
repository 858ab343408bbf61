import SecCrypto
import Testing

/// Worked examples quoted in textbooks and API documentation.
@Suite struct BookVectorTests {
    @Test(arguments: [
        (HashAlgorithm.md5, "6f8db599de986fab7a21625b7916589c"),
        (.sha1, "661295c9cbf9d6b2f6428414504a8deed3020641"),
        (.sha256, "d5579c46dfcc7f18207013e65b44e4cb4e2c2298f4ac457ba8f82743f31e930b"),
    ])
    func testString(_ algorithm: HashAlgorithm, _ expectedHex: String) {
        #expect(algorithm.hashFunction.hash(string: "test string").hexString == expectedHex)
    }

    /// Wikipedia's HMAC example: empty key, empty message.
    @Test func hmacSHA256WithEmptyKeyAndMessage() {
        let code = HMAC<SHA256>.authenticationCode(for: [UInt8](), using: SymmetricKey(data: [UInt8]()))
        #expect(code.hexString == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }

    /// The key is the 32 ASCII characters themselves, not the 16 bytes they spell in hex.
    @Test func hmacSHA256WithASCIIKey() {
        let key = SymmetricKey(data: Array("065a62448fb75fce3764dcbe68f9908d".utf8))
        let code = HMAC<SHA256>.authenticationCode(for: "123443212300.002012-12-25 00:00:00", using: key)
        #expect(code.hexString == "51e66ca8fd8eb4bbe02fc6421e0dda1deb94f0c9518996a55bc7a4c242f1c8a9")
    }
}
