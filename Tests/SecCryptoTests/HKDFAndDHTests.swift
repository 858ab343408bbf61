import Foundation
import TestSupport
import Testing

@testable import SecCrypto

/// HKDF against RFC 5869's vectors and Python's `cryptography`, and the Secret Service's
/// Diffie-Hellman group against `cryptography`'s DH: the pieces of the encrypted session
/// (`dh-ietf1024-sha256-aes128-cbc-pkcs7`) that SecKeychain opens.
@Suite struct HKDFAndDHTests {
    struct RFC5869: Decodable {
        struct Case: Decodable {
            let `case`: String
            let ikm, salt, info, prk, okm: String
            let length: Int
        }

        let tests: [Case]
    }

    @Test func rfc5869Vectors() throws {
        let vectors = try JSONDecoder().decode(RFC5869.self, from: TestVectors.data("rfc5869/hkdf-sha256.json"))
        #expect(vectors.tests.count == 3)
        for test in vectors.tests {
            let key = try KDF.HKDF.deriveKey(
                inputKeyMaterial: try Hex.decode(test.ikm),
                salt: try Hex.decode(test.salt),
                info: try Hex.decode(test.info),
                outputByteCount: test.length
            )
            #expect(Hex.encode(key) == test.okm, "RFC 5869 \(test.case)")

            // The same through HKDF<SHA256>, whole and in its two steps.
            let ikm = SymmetricKey(data: try Hex.decode(test.ikm))
            let salt = try Hex.decode(test.salt)
            let info = try Hex.decode(test.info)
            let prk = HKDF<SHA256>.extract(inputKeyMaterial: ikm, salt: salt)
            #expect(prk.hexString == test.prk, "RFC 5869 \(test.case) PRK")
            let expanded = HKDF<SHA256>.expand(pseudoRandomKey: prk, info: info, outputByteCount: test.length)
            #expect(Hex.encode(expanded) == test.okm, "RFC 5869 \(test.case) expand")
            let derived = HKDF<SHA256>.deriveKey(
                inputKeyMaterial: ikm,
                salt: salt,
                info: info,
                outputByteCount: test.length
            )
            #expect(derived == expanded, "RFC 5869 \(test.case) deriveKey")
        }
    }

    /// Random inputs and lengths with SHA-1, SHA-256 and SHA-512, against `cryptography`'s HKDF;
    /// lengths outside 1...255 × the hash length are refused.
    @Test(arguments: [(HashAlgorithm.sha1, "SHA1"), (.sha256, "SHA256"), (.sha512, "SHA512")])
    func matchesPython(_ hash: HashAlgorithm, _ pythonName: String) throws {
        let script = """
            import sys
            from cryptography.hazmat.primitives import hashes
            from cryptography.hazmat.primitives.kdf.hkdf import HKDF
            name, ikm, salt, info, length = sys.argv[1:]
            salt = bytes.fromhex(salt) or None
            print(HKDF(getattr(hashes, name)(), int(length), salt, bytes.fromhex(info)).derive(bytes.fromhex(ikm)).hex())
            """
        for length in [1, 16, hash.byteCount, 3 * hash.byteCount + 5, 255 * hash.byteCount] {
            let ikm = randomBytes(Int.random(in: 1...80))
            let salt = randomBytes([0, 7, 64][length % 3])
            let info = randomBytes(Int.random(in: 0...40))
            let expected = try ProcessRunner.run(
                "python3",
                ["-c", script, pythonName, Hex.encode(ikm), Hex.encode(salt), Hex.encode(info), "\(length)"]
            ).requiringSuccess(of: "python3 HKDF").stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
            let key = try KDF.HKDF.deriveKey(
                inputKeyMaterial: ikm,
                salt: salt,
                info: info,
                using: hash,
                outputByteCount: length
            )
            #expect(Hex.encode(key) == expected, "\(hash), \(length) bytes")
        }
        for length in [0, 255 * hash.byteCount + 1] {
            #expect(throws: CryptoError.self) {
                try KDF.HKDF.deriveKey(
                    inputKeyMaterial: [1],
                    salt: [UInt8](),
                    info: [UInt8](),
                    using: hash,
                    outputByteCount: length
                )
            }
        }
    }

    /// SecKit and `cryptography` each make a key pair in the ietf1024 group and reach the same
    /// secret from the other's public key; SecKit's is padded to 128 bytes, as the Secret Service wants.
    @Test func ietf1024AgreesWithPython() throws {
        let script = """
            import sys
            from cryptography.hazmat.primitives.asymmetric import dh
            p = int(sys.argv[1], 16)
            numbers = dh.DHParameterNumbers(p, 2)
            ours = numbers.parameters().generate_private_key()
            theirs = dh.DHPublicNumbers(int(sys.argv[2], 16), numbers).public_key()
            print(ours.public_key().public_numbers().y.to_bytes(128, "big").hex())
            print(ours.exchange(theirs).rjust(128, b"\\0").hex())
            """
        for _ in 0..<4 {
            let swift = try FiniteFieldDH(group: .ietf1024)
            #expect(swift.publicKey.count == 128)
            let lines = try ProcessRunner.run(
                "python3",
                ["-c", script, Hex.encode(FiniteFieldDH.Group.ietf1024.prime), Hex.encode(swift.publicKey)]
            ).requiringSuccess(of: "python3 DH").stdoutLines
            try #require(lines.count == 2)
            let secret = try swift.sharedSecret(with: try Hex.decode(lines[0]))
            #expect(secret.count == 128)
            #expect(Hex.encode(secret) == lines[1])
        }
    }

    /// Every key pair draws an exponent of its own from the kernel's generator: no two of 64 public
    /// keys are equal, as they would be if the draw left the exponent unfilled (2^255 alone) or stuck.
    @Test func keyPairsDrawTheirOwnExponents() throws {
        let keys = try (0..<64).map { _ in Hex.encode(try FiniteFieldDH(group: .ietf1024).publicKey) }
        #expect(Set(keys).count == keys.count)
    }

    /// Public keys outside the group (0, 1, p - 1, p and beyond) are refused, never used.
    @Test func invalidPeerKeysAreRefused() throws {
        let swift = try FiniteFieldDH(group: .ietf1024)
        let prime = FiniteFieldDH.Group.ietf1024.prime
        var primeMinusOne = prime
        primeMinusOne[primeMinusOne.count - 1] -= 1
        for bad in [[0], [1], primeMinusOne, prime, [UInt8](repeating: 0xFF, count: 128)] {
            #expect(throws: CryptoError.self, "\(Hex.encode(bad).prefix(8))…") { try swift.sharedSecret(with: bad) }
        }
    }
}
