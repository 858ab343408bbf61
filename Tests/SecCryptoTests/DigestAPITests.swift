import Dispatch
import Foundation
import SecCrypto
import Testing

@Suite struct DigestAPITests {
    private static func digest(_ algorithm: HashAlgorithm, _ string: String) -> AnyDigest {
        DigestHasher.hash(algorithm, data: Array(string.utf8))
    }

    @Test(arguments: HashAlgorithm.allCases, ["", "The quick brown fox jumps over the lazy dog"])
    func everyInputTypeGivesTheSameDigest(_ algorithm: HashAlgorithm, _ text: String) {
        func check<H: HashFunction>(_ hash: H.Type) {
            let bytes = Array(text.utf8)
            let expected = hash.hash(data: bytes)
            let padded = [0xAA, 0xBB, 0xCC] + bytes + [0xDD]
            let range = 3..<(3 + bytes.count)
            let thirds = [
                bytes[..<(bytes.count / 3)], bytes[(bytes.count / 3)..<(bytes.count * 2 / 3)],
                bytes[(bytes.count * 2 / 3)...],
            ]
            var regions = DispatchData.empty  // not contiguous: several regions
            for third in thirds { Array(third).withUnsafeBytes { regions.append($0) } }

            #expect(hash.hash(data: Data(bytes)) == expected)
            #expect(hash.hash(data: padded[range]) == expected)
            #expect(hash.hash(data: Data(padded)[range]) == expected)
            #expect(hash.hash(data: regions) == expected)
            #expect(hash.hash(string: text) == expected)
            #expect(bytes.withUnsafeBytes { hash.hash(bufferPointer: $0) } == expected)
            #expect(DigestHasher.hash(algorithm, data: bytes).bytes == Array(expected))
            #expect(expected == Data(DigestHasher.hash(algorithm, data: regions)))
            #expect(Array(expected).count == H.Digest.byteCount)

            var incremental = DigestHasher(algorithm)
            incremental.update(string: String(decoding: thirds[0], as: UTF8.self))
            incremental.update(data: Data(thirds[1]))
            thirds[2].withUnsafeBytes { incremental.update(bufferPointer: $0) }
            #expect(incremental.finalize().bytes == Array(expected))
            #expect(incremental.algorithm == algorithm)

            var typed = H()
            typed.update(data: regions)
            #expect(typed.finalize() == expected)
        }
        check(algorithm.hashFunction)
    }

    @Test(arguments: HashAlgorithm.allCases)
    func copiedHasherContinuesIndependently(_ algorithm: HashAlgorithm) {
        var original = DigestHasher(algorithm)
        original.update(string: "abc")
        let snapshot = original
        var copy = original
        copy.update(string: "def")
        original.update(string: "xyz")

        #expect(original.finalize() == Self.digest(algorithm, "abcxyz"))
        #expect(copy.finalize() == Self.digest(algorithm, "abcdef"))
        #expect(snapshot.finalize() == Self.digest(algorithm, "abc"))
    }

    @Test(arguments: HashAlgorithm.allCases)
    func updateAfterFinalizeContinuesTheStream(_ algorithm: HashAlgorithm) {
        var hasher = DigestHasher(algorithm)
        hasher.update(string: "abc")
        let first = hasher.finalize()
        #expect(hasher.finalize() == first)
        hasher.update(string: "def")

        #expect(first == Self.digest(algorithm, "abc"))
        #expect(hasher.finalize() == Self.digest(algorithm, "abcdef"))
    }

    @Test func hmacHasValueSemanticsAndContinuesAfterFinalize() {
        let key = SymmetricKey(data: Array("key".utf8))
        func code(_ string: String) -> HMAC<SHA256>.MAC { HMAC<SHA256>.authenticationCode(for: string, using: key) }

        var original = HMAC<SHA256>(key: key)
        original.update(string: "abc")
        var copy = original
        copy.update(string: "def")
        let first = original.finalize()
        original.update(string: "xyz")

        #expect(first == code("abc"))
        #expect(original.finalize() == code("abcxyz"))
        #expect(copy.finalize() == code("abcdef"))
        #expect(HMAC<SHA256>.isValidAuthenticationCode(first, authenticating: Array("abc".utf8), using: key))
    }

    @Test func digestEqualityAndEncodings() {
        let digest = SHA256.hash(string: "abc")
        #expect(digest.hexString == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(digest.base64String == "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=")
        #expect(digest.description == digest.hexString)
        #expect(digest.byteCount == 32 && digest.bytes.count == 32)
        #expect(digest.algorithm == .sha256)
        #expect(
            SHA256.Digest.byteCount == 32 && Insecure.MD5.Digest.byteCount == 16 && SHA512256.Digest.byteCount == 32
        )
        #expect(SHA512_256.blockByteCount == 128 && SHA224.blockByteCount == 64)

        #expect(digest == SHA256.hash(data: Array("abc".utf8)))
        #expect(digest != SHA256.hash(string: "abd"))
        #expect(Set([digest, SHA256.hash(string: "abc"), SHA256.hash(string: "abd")]).count == 2)
    }

    @Test(arguments: [
        ("SHA-256", HashAlgorithm.sha256), ("sha256", .sha256), ("sha_256", .sha256), ("SHA256", .sha256),
        ("MD5", .md5), ("SHA-1", .sha1), ("SHA-224", .sha224), ("SHA-384", .sha384), ("sha-512", .sha512),
        ("sha512-256", .sha512_256), ("SHA-512/256", .sha512_256), ("SHA512_256", .sha512_256),
    ])
    func hashAlgorithmParsesUserSpellings(_ name: String, _ expected: HashAlgorithm) {
        #expect(HashAlgorithm(name: name) == expected)
    }

    @Test(arguments: ["", "sha", "sha-3-256", "sha3-256", "blake2b"])
    func hashAlgorithmRejectsUnknownNames(_ name: String) {
        #expect(HashAlgorithm(name: name) == nil)
    }

    @Test(arguments: HashAlgorithm.allCases)
    func hashAlgorithmPropertiesAgreeWithItsType(_ algorithm: HashAlgorithm) {
        #expect(algorithm.hashFunction.algorithm == algorithm)
        #expect(algorithm.hashFunction.byteCount == algorithm.byteCount)
        #expect(DigestHasher(algorithm).finalize().byteCount == algorithm.byteCount)
        #expect(algorithm.description == algorithm.rawValue)
        #expect(algorithm.isInsecure == [.md5, .sha1].contains(algorithm))
    }
}
