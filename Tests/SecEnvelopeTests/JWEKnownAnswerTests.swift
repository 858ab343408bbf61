import Foundation
import SecCrypto
import TestSupport
import Testing

@testable import SecEnvelope

/// The RFC examples of `TestVectors/jose/rfc-examples.json`: RFC 7516 A.3, RFC 7518 B.1–B.3, RFC 7517 C.
@Suite struct JWEKnownAnswerTests {
    struct Examples: Decodable {
        struct KeyWrapExample: Decodable {
            let jwk, protectedHeader, plaintext, cek, iv, compact: String
        }

        struct CBCHMACCase: Decodable {
            let section, enc, K, P, IV, A, E, T: String
        }

        struct PasswordExample: Decodable {
            let password, protectedHeader: String
            let p2c: Int
            let derivedKey, cek, iv, plaintext, compact: String
        }

        let rfc7516AppendixA3: KeyWrapExample
        let rfc7518AppendixB: [CBCHMACCase]
        let rfc7517AppendixC: PasswordExample
    }

    static func examples() throws -> Examples {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(Examples.self, from: TestVectors.data("jose/rfc-examples.json"))
    }

    /// The five parts of a compact JWE, decoded (the header part as its text).
    private static func parts(
        _ compact: String
    ) throws -> (header: String, encryptedKey: [UInt8], iv: [UInt8], ciphertext: [UInt8], tag: [UInt8]) {
        let parts = compact.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        try #require(parts.count == 5)
        let decode = { (text: String) throws in try Base64.decodeCanonical(text, alphabet: .url, padded: false) }
        return (parts[0], try decode(parts[1]), try decode(parts[2]), try decode(parts[3]), try decode(parts[4]))
    }

    /// `JWE.ContentEncryptionAlgorithm.seal` on arrays.
    static func seal(
        _ enc: JWE.ContentEncryptionAlgorithm,
        _ plaintext: [UInt8],
        cek: [UInt8],
        iv: [UInt8],
        aad: [UInt8]
    ) throws -> (ciphertext: [UInt8], tag: [UInt8]) {
        var ciphertext = [UInt8](repeating: 0, count: enc.ciphertextCapacity(plaintextCount: plaintext.count))
        var tag = [UInt8](repeating: 0, count: enc.tagByteCount)
        let count = try plaintext.withUnsafeBytes { plaintext in
            try aad.withUnsafeBytes { aad in
                try ciphertext.withUnsafeMutableBytes { ciphertext in
                    try tag.withUnsafeMutableBytes { tag in
                        let sealed = try enc.seal(
                            plaintext,
                            cek: SymmetricKey(data: cek),
                            iv: iv,
                            aad: aad,
                            ciphertext: ciphertext,
                            tag: tag
                        )
                        #expect(sealed.iv == iv)
                        return sealed.count
                    }
                }
            }
        }
        return (Array(ciphertext[..<count]), tag)
    }

    /// `JWE.ContentEncryptionAlgorithm.open` on arrays.
    static func open(
        _ enc: JWE.ContentEncryptionAlgorithm,
        _ ciphertext: [UInt8],
        cek: [UInt8],
        iv: [UInt8],
        aad: [UInt8],
        tag: [UInt8]
    ) throws -> [UInt8] {
        var plaintext = [UInt8](repeating: 0, count: ciphertext.count + 16)
        let count = try ciphertext.withUnsafeBytes { ciphertext in
            try iv.withUnsafeBytes { iv in
                try aad.withUnsafeBytes { aad in
                    try tag.withUnsafeBytes { tag in
                        try plaintext.withUnsafeMutableBytes { plaintext in
                            try enc.open(
                                ciphertext,
                                cek: SymmetricKey(data: cek),
                                iv: iv,
                                aad: aad,
                                tag: tag,
                                into: plaintext
                            )
                        }
                    }
                }
            }
        }
        return Array(plaintext[..<count])
    }

    // MARK: RFC 7516 Appendix A.3

    /// The RFC's exact token opens with its JWK, directly and through a key set.
    @Test func rfc7516A3Decrypts() throws {
        let example = try Self.examples().rfc7516AppendixA3
        let jwk = try JSONWebKey(json: example.jwk)
        #expect(jwk.key.bitCount == 128)
        #expect(jwk.keyID == nil)
        #expect(try JWE.decrypt(example.compact, using: jwk.key) == Data(example.plaintext.utf8))
        #expect(try JWE.decrypt(example.compact, using: JSONWebKeySet([jwk])) == Data(example.plaintext.utf8))
        #expect(
            try JWE.decrypt(example.compact, using: JSONWebKeySet(json: example.jwk)) == Data(example.plaintext.utf8)
        )
        let token = try JWE.Token(compact: example.compact)
        #expect(token.header.keyManagement == .a128KW)
        #expect(token.header.contentEncryption == .a128CBCHS256)
        #expect(token.header.keyID == nil && token.header.contentType == nil && token.header.pbes2Iterations == nil)
    }

    /// Every part of the token, rebuilt from the RFC's CEK and IV: the header SecKit writes, the key
    /// wrap (A.3.3), the CBC-HMAC ciphertext and tag (A.3.5–A.3.6), and the serialization (A.3.7).
    @Test func rfc7516A3ByInspection() throws {
        let example = try Self.examples().rfc7516AppendixA3
        let parts = try Self.parts(example.compact)
        let kek = try JSONWebKey(json: example.jwk).key
        let cek = try Hex.decode(example.cek)
        let iv = try Hex.decode(example.iv)

        #expect(
            try Base64.decodeCanonical(parts.header, alphabet: .url, padded: false)
                == Array(example.protectedHeader.utf8)
        )
        #expect(
            JWE.Header(keyManagement: .a128KW, contentEncryption: .a128CBCHS256).json
                == Array(example.protectedHeader.utf8)
        )
        #expect(try AES.KeyWrap.unwrap(parts.encryptedKey, using: kek) == SymmetricKey(data: cek))
        #expect(try [UInt8](AES.KeyWrap.wrap(SymmetricKey(data: cek), using: kek)) == parts.encryptedKey)
        #expect(parts.iv == iv)

        let sealed = try Self.seal(
            .a128CBCHS256,
            Array(example.plaintext.utf8),
            cek: cek,
            iv: iv,
            aad: Array(parts.header.utf8)
        )
        #expect(Hex.encode(sealed.ciphertext) == Hex.encode(parts.ciphertext))
        #expect(Hex.encode(sealed.tag) == Hex.encode(parts.tag))
        let rebuilt =
            [parts.header] + [parts.encryptedKey, iv, sealed.ciphertext, sealed.tag].map { KAT.base64url($0) }
        #expect(rebuilt.joined(separator: ".") == example.compact)
    }

    /// A token SecKit makes for A128KW + A128CBC-HS256 starts with the RFC's header part, byte for byte,
    /// and opens again with the RFC's key.
    @Test func rfc7516A3HeaderFromEncrypt() throws {
        let example = try Self.examples().rfc7516AppendixA3
        let jwk = try JSONWebKey(json: example.jwk)
        let token = try JWE.encrypt(
            Data(example.plaintext.utf8),
            using: jwk,
            keyManagement: .a128KW,
            contentEncryption: .a128CBCHS256
        )
        #expect(token.split(separator: ".").first == example.compact.split(separator: ".").first)
        #expect(try JWE.decrypt(token, using: jwk.key) == Data(example.plaintext.utf8))
    }

    // MARK: RFC 7518 Appendix B

    @Test func rfc7518AppendixBHasThreeCases() throws {
        #expect(try Self.examples().rfc7518AppendixB.map(\.section) == ["B.1", "B.2", "B.3"])
    }

    /// AES_CBC_HMAC_SHA2 with the given K, P, IV and A gives exactly E and T; E and T open to P; a
    /// changed T, A, IV or E does not open.
    @Test(arguments: ["B.1", "B.2", "B.3"])
    func rfc7518AppendixB(_ section: String) throws {
        let example = try #require(try Self.examples().rfc7518AppendixB.first { $0.section == section })
        let enc = try #require(JWE.ContentEncryptionAlgorithm(rawValue: example.enc))
        let (k, p, iv, a) = (
            try Hex.decode(example.K), try Hex.decode(example.P), try Hex.decode(example.IV), try Hex.decode(example.A)
        )
        #expect(k.count == enc.keyByteCount)
        #expect(try Hex.decode(example.T).count == enc.tagByteCount)

        let sealed = try Self.seal(enc, p, cek: k, iv: iv, aad: a)
        #expect(Hex.encode(sealed.ciphertext) == example.E)
        #expect(Hex.encode(sealed.tag) == example.T)

        let e = try Hex.decode(example.E)
        let t = try Hex.decode(example.T)
        #expect(try Self.open(enc, e, cek: k, iv: iv, aad: a, tag: t) == p)
        for index in [0, t.count / 2, t.count - 1] {
            var altered = t
            altered[index] ^= 0x01
            KAT.expectError("authenticationFailure", "T[\(index)]") {
                try Self.open(enc, e, cek: k, iv: iv, aad: a, tag: altered)
            }
        }
        for index in [0, a.count - 1] {
            var altered = a
            altered[index] ^= 0x80
            KAT.expectError("authenticationFailure", "A[\(index)]") {
                try Self.open(enc, e, cek: k, iv: iv, aad: altered, tag: t)
            }
        }
        KAT.expectError("authenticationFailure", "A empty") { try Self.open(enc, e, cek: k, iv: iv, aad: [], tag: t) }
        var alteredIV = iv
        alteredIV[15] ^= 0x01
        KAT.expectError("authenticationFailure", "IV") { try Self.open(enc, e, cek: k, iv: alteredIV, aad: a, tag: t) }
        var alteredE = e
        alteredE[e.count - 1] ^= 0x01
        KAT.expectError("authenticationFailure", "E") { try Self.open(enc, alteredE, cek: k, iv: iv, aad: a, tag: t) }
        KAT.expectError("authenticationFailure", "E truncated") {
            try Self.open(enc, Array(e.dropLast(16)), cek: k, iv: iv, aad: a, tag: t)
        }
        // The MAC key is the first half of K: swapping the halves must not open.
        let swapped = Array(k[(k.count / 2)...] + k[..<(k.count / 2)])
        KAT.expectError("authenticationFailure", "K halves swapped") {
            try Self.open(enc, e, cek: swapped, iv: iv, aad: a, tag: t)
        }
    }

    // MARK: RFC 7517 Appendix C

    /// The RFC's PBES2 token opens with the RFC's password to the RFC's RSA JWK (C.1); its header
    /// (members in the RFC's order, not SecKit's) is authenticated as sent.
    @Test func rfc7517AppendixCDecrypts() throws {
        let example = try Self.examples().rfc7517AppendixC
        let plaintext = try JWE.decrypt(example.compact, password: Data(example.password.utf8))
        #expect(plaintext == Data(example.plaintext.utf8))
        let token = try JWE.Token(compact: example.compact)
        #expect(token.header.keyManagement == .pbes2HS256A128KW)
        #expect(token.header.contentEncryption == .a128CBCHS256)
        #expect(token.header.pbes2Iterations == example.p2c)
        #expect(token.header.contentType == "jwk+json")
        #expect(token.header.pbes2SaltInput.map { KAT.base64url($0) } == "2WCTcJZ1Rvd_CJuJripQ1w")
        KAT.expectError("authenticationFailure") {
            try JWE.decrypt(example.compact, password: Data((example.password + " ").utf8))
        }
        var policy = JWE.DecryptionPolicy()
        policy.maximumPBES2Iterations = example.p2c - 1
        KAT.expectError("invalidParameter") {
            try JWE.decrypt(example.compact, password: Data(example.password.utf8), policy: policy)
        }
    }

    /// C.4's PBKDF2 key, C.3's CEK inside C.5's encrypted key, C.6's IV.
    @Test func rfc7517AppendixCByInspection() throws {
        let example = try Self.examples().rfc7517AppendixC
        let parts = try Self.parts(example.compact)
        #expect(
            try Base64.decodeCanonical(parts.header, alphabet: .url, padded: false)
                == Array(example.protectedHeader.utf8)
        )
        let header = try JWE.Token(compact: example.compact).header
        let derived = try Array(example.password.utf8).withUnsafeBytes { password in
            try JWE.keyEncryptionKey(for: header, secret: password, byteCount: 16)
        }
        #expect(derived == SymmetricKey(data: try Hex.decode(example.derivedKey)))
        #expect(
            try AES.KeyWrap.unwrap(parts.encryptedKey, using: derived)
                == SymmetricKey(data: try Hex.decode(example.cek))
        )
        #expect(parts.iv == (try Hex.decode(example.iv)))
        let opened = try Self.open(
            .a128CBCHS256,
            parts.ciphertext,
            cek: try Hex.decode(example.cek),
            iv: parts.iv,
            aad: Array(parts.header.utf8),
            tag: parts.tag
        )
        #expect(opened == Array(example.plaintext.utf8))
    }
}
