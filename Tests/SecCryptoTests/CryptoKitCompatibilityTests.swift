// Written against swift-crypto 4.x's public API (`import Crypto` and `import _CryptoExtras`), in the
// style of its documentation's examples. tools/check-crypto-compat runs this same file against
// apple/swift-crypto with only the import line replaced (`import Crypto; import _CryptoExtras`), and
// SecCrypto's test suite runs it as it is: keep it so. No SecCrypto-only names here (no `Hex`,
// `CryptoError` or TestSupport); SecCrypto's own tests are in the other files. The one place where the
// two runs expect different things, a difference docs/SecCrypto.md lists, is under `#if SWIFT_CRYPTO`,
// which only the tool defines.
import Dispatch
import Foundation
import SecCrypto
import Testing

/// Code as a CryptoKit user writes it, against known answers from the RFCs and NIST.
@Suite struct CryptoKitCompatibilityTests {
    @Test func digestsAreSequencesOfBytesThatCompareWithAnyData() throws {
        let digest = SHA256.hash(data: Data("abc".utf8))
        let expected = bytes("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")

        #expect(Array(digest) == expected)
        #expect(Data(digest) == Data(expected))
        #expect(
            digest.map { String(format: "%02x", $0) }.joined()
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        )
        #expect(digest.withUnsafeBytes { Array($0) } == expected)
        #expect(SHA256.Digest.byteCount == 32 && SHA256Digest.byteCount == 32 && SHA512.Digest.byteCount == 64)
        #expect(SHA256.blockByteCount == 64 && SHA384.blockByteCount == 128 && Insecure.SHA1.blockByteCount == 64)

        // Equality with Data, [UInt8] and DispatchData (several regions), in constant time.
        #expect(digest == Data(expected))
        #expect(digest == expected)
        #expect(digest == dispatchData(expected, pieces: 3))
        #expect(!(digest == Data(expected.dropLast())))
        #expect(!(digest == Data(expected.reversed())))

        // Hashable: digests key dictionaries and sets.
        let seen: Set<SHA256.Digest> = [digest, SHA256.hash(data: Array("abc".utf8)), SHA256.hash(data: Data())]
        #expect(seen.count == 2)

        // Incremental hashing, over non-contiguous input too.
        var hasher = SHA256()
        hasher.update(data: dispatchData(Array("ab".utf8), pieces: 2))
        hasher.update(data: Data("c".utf8))
        #expect(hasher.finalize() == digest)

        #expect(
            Array(SHA512256.hash(data: Data("abc".utf8)))
                == bytes("53048e2681941ef99b2e29b76b4c7dabe4c2d0c634fc6d46e0e2f13107e7af23")
        )
        #expect(Array(Insecure.MD5.hash(data: Data())) == bytes("d41d8cd98f00b204e9800998ecf8427e"))
    }

    /// A generic function over `HashFunction`, as CryptoKit code writes them.
    private func hexDigest<H: HashFunction>(_: H.Type, of data: Data) -> String {
        let digest = H.hash(data: data)
        #expect(Array(digest).count == H.Digest.byteCount)
        return digest.map { String(format: "%02x", $0) }.joined()
    }

    @Test func genericCodeOverHashFunction() {
        #expect(hexDigest(SHA256.self, of: Data("abc".utf8)).hasPrefix("ba7816bf"))
        #expect(hexDigest(Insecure.SHA1.self, of: Data("abc".utf8)) == "a9993e364706816aba3e25717850c26c9cd0d89d")
    }

    /// RFC 4231 test case 2, and `isValidAuthenticationCode` with `H` inferred from the code.
    @Test func hmacInfersItsHashFromTheCode() {
        let key = SymmetricKey(data: Data("Jefe".utf8))
        let message = Data("what do ya want for nothing?".utf8)
        let mac = HMAC<SHA256>.authenticationCode(for: message, using: key)
        let expected = bytes("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")

        #expect(Array(mac) == expected)
        #expect(Data(mac) == Data(expected))
        #expect(mac == Data(expected))
        #expect(mac.byteCount == 32)
        #expect(HMAC.isValidAuthenticationCode(mac, authenticating: message, using: key))
        #expect(!HMAC.isValidAuthenticationCode(mac, authenticating: message + [0], using: key))
        #expect(HMAC<SHA256>.isValidAuthenticationCode(Data(expected), authenticating: message, using: key))

        var hmac = HMAC<SHA256>(key: key)
        hmac.update(data: message.prefix(10))
        hmac.update(data: message.dropFirst(10))
        let incremental: HMAC<SHA256>.MAC = hmac.finalize()
        let named: HashedAuthenticationCode<SHA256> = incremental
        #expect(named == mac)
    }

    /// RFC 5869 A.1 (extract and expand apart, then together) and A.3 (no salt, no info).
    @Test func hkdfExtractAndExpand() {
        let ikm = SymmetricKey(data: [UInt8](repeating: 0x0b, count: 22))
        let salt = bytes("000102030405060708090a0b0c")
        let info = bytes("f0f1f2f3f4f5f6f7f8f9")
        let okm = bytes("3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865")

        let prk = HKDF<SHA256>.extract(inputKeyMaterial: ikm, salt: salt)
        #expect(Array(prk) == bytes("077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5"))
        let expanded = HKDF<SHA256>.expand(pseudoRandomKey: prk, info: info, outputByteCount: 42)
        #expect(expanded.withUnsafeBytes { Array($0) } == okm)
        let derived = HKDF<SHA256>.deriveKey(inputKeyMaterial: ikm, salt: salt, info: info, outputByteCount: 42)
        #expect(derived == expanded)

        let noSaltNoInfo = HKDF<SHA256>.deriveKey(inputKeyMaterial: ikm, outputByteCount: 42)
        #expect(
            noSaltNoInfo.withUnsafeBytes { Array($0) }
                == bytes("8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8")
        )
        let nilSalt = HKDF<SHA256>.extract(inputKeyMaterial: ikm, salt: Data?.none)
        let nilInfo = HKDF<SHA256>.expand(pseudoRandomKey: nilSalt, info: Data?.none, outputByteCount: 42)
        #expect(nilInfo == noSaltNoInfo)
    }

    /// NIST SP 800-38A F.2.1 (CBC-AES128) without padding; with padding, a whole extra block.
    @Test func aesCBCWithAndWithoutPadding() throws {
        let key = SymmetricKey(data: bytes("2b7e151628aed2a6abf7158809cf4f3c"))
        let iv = try AES._CBC.IV(ivBytes: bytes("000102030405060708090a0b0c0d0e0f"))
        let plaintext = bytes(
            "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"
                + "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710"
        )
        let ciphertext = bytes(
            "7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b2"
                + "73bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7"
        )
        #expect(Array(try AES._CBC.encrypt(plaintext, using: key, iv: iv, noPadding: true)) == ciphertext)
        #expect(Array(try AES._CBC.decrypt(ciphertext, using: key, iv: iv, noPadding: true)) == plaintext)

        let padded = try AES._CBC.encrypt(plaintext, using: key, iv: iv)
        #expect(padded.count == plaintext.count + 16 && Array(padded.prefix(64)) == ciphertext)
        #expect(Array(try AES._CBC.decrypt(padded, using: key, iv: iv)) == plaintext)

        let random = AES._CBC.IV()
        #expect(Array(random).count == 16)
        #expect(throws: (any Error).self) { try AES._CBC.IV(ivBytes: [UInt8](repeating: 0, count: 8)) }
        #expect(throws: (any Error).self) {
            try AES._CBC.encrypt(plaintext.dropLast(), using: key, iv: iv, noPadding: true)
        }
    }

    /// RFC 6070 (PBKDF2-HMAC-SHA1), whose counts are below any minimum: `unsafeUncheckedRounds`.
    @Test func pbkdf2RFC6070() throws {
        let expected = [
            1: "0c60c80f961f0e71f3a9b524af6012062fe037a6",
            2: "ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957",
            4096: "4b007901b765489abead49d926f721d065a429c1",
        ]
        for (rounds, dk) in expected {
            let key = try KDF.Insecure.PBKDF2.deriveKey(
                from: Array("password".utf8),
                salt: Array("salt".utf8),
                using: .insecureSHA1,
                outputByteCount: 20,
                unsafeUncheckedRounds: rounds
            )
            #expect(key.withUnsafeBytes { Array($0) } == bytes(dk), "\(rounds) rounds")
        }
        let checked = try KDF.Insecure.PBKDF2.deriveKey(
            from: Data("password".utf8),
            salt: Data("salt".utf8),
            using: .sha512,
            outputByteCount: 64,
            rounds: 300_000
        )
        #expect(checked.bitCount == 512)
        #expect(throws: (any Error).self) {
            try KDF.Insecure.PBKDF2.deriveKey(
                from: Data("password".utf8),
                salt: Data("salt".utf8),
                using: .sha256,
                outputByteCount: 32,
                rounds: 1000
            )
        }
    }

    /// RFC 8439 §2.8.2.
    @Test func chaChaPolyRFC8439() throws {
        let key = SymmetricKey(data: bytes("808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"))
        let nonce = try ChaChaPoly.Nonce(data: bytes("070000004041424344454647"))
        let aad = bytes("50515253c0c1c2c3c4c5c6c7")
        let plaintext = Data(
            "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it."
                .utf8
        )
        let sealed = try ChaChaPoly.seal(plaintext, using: key, nonce: nonce, authenticating: aad)
        #expect(Array(sealed.tag) == bytes("1ae10b594f09e26a7e902ecbd0600691"))
        #expect(Array(sealed.ciphertext.prefix(16)) == bytes("d31a8d34648e60db7b86afbc53ef7ec2"))
        #expect(Array(sealed.nonce) == Array(nonce))
        #expect(sealed.combined.count == 12 + plaintext.count + 16)

        let received = try ChaChaPoly.SealedBox(combined: sealed.combined)
        #expect(try ChaChaPoly.open(received, using: key, authenticating: aad) == plaintext)
        let rebuilt = try ChaChaPoly.SealedBox(nonce: nonce, ciphertext: sealed.ciphertext, tag: sealed.tag)
        #expect(try ChaChaPoly.open(rebuilt, using: key, authenticating: aad) == plaintext)
    }

    /// The GCM specification's test case 4 (AES-128, 60-byte message, 20-byte AAD).
    @Test func aesGCMKnownAnswer() throws {
        let key = SymmetricKey(data: bytes("feffe9928665731c6d6a8f9467308308"))
        let nonce = try AES.GCM.Nonce(data: bytes("cafebabefacedbaddecaf888"))
        let plaintext = bytes(
            "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
                + "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39"
        )
        let aad = bytes("feedfacedeadbeeffeedfacedeadbeefabaddad2")
        let box = try AES.GCM.seal(plaintext, using: key, nonce: nonce, authenticating: aad)
        #expect(
            Array(box.ciphertext)
                == bytes(
                    "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
                        + "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091"
                )
        )
        #expect(Array(box.tag) == bytes("5bc94fbc3221a5db94fae95ae7121a47"))
        #expect(try AES.GCM.open(box, using: key, authenticating: aad) == Data(plaintext))
    }

    /// RFC 3394 §4.1 and §4.6 (a 128-bit key under a 128-bit KEK; a 256-bit key under a 256-bit KEK),
    /// and an unwrap under the wrong KEK.
    @Test func aesKeyWrapRFC3394() throws {
        let kek = SymmetricKey(data: bytes("000102030405060708090a0b0c0d0e0f"))
        let key = SymmetricKey(data: bytes("00112233445566778899aabbccddeeff"))
        let wrapped = try AES.KeyWrap.wrap(key, using: kek)
        #expect(Array(wrapped) == bytes("1fa68b0a8112b447aef34bd8fb5a7b829d3e862371d2cfe5"))
        #expect(try AES.KeyWrap.unwrap(wrapped, using: kek) == key)

        let kek256 = SymmetricKey(data: bytes("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"))
        let key256 = SymmetricKey(data: bytes("00112233445566778899aabbccddeeff000102030405060708090a0b0c0d0e0f"))
        #expect(
            Array(try AES.KeyWrap.wrap(key256, using: kek256))
                == bytes("28c9f404c4b810f4cbccb35cfb87f8263f5786e2d80ed326cbc7f0e71a99f43bfb988b9b7a02dd21")
        )
        #expect(
            isIntegrityFailure(caughtName { _ = try AES.KeyWrap.unwrap(wrapped, using: SymmetricKey(size: .bits128)) })
        )
    }

    /// AES-GCM nonces are sequences and come from any bytes, `DispatchData` included.
    @Test func gcmNoncesFromAnyBytes() throws {
        let key = SymmetricKey(size: .bits256)
        let nonceBytes = Array(1...12) as [UInt8]
        let nonce = try AES.GCM.Nonce(data: dispatchData(nonceBytes, pieces: 2))
        #expect(Array(nonce) == nonceBytes)
        let box = try AES.GCM.seal(Data("hello".utf8), using: key, nonce: nonce)
        #expect(Array(box.nonce) == nonceBytes)
        #expect(try AES.GCM.open(AES.GCM.SealedBox(combined: box.combined!), using: key) == Data("hello".utf8))
        let drawn = try AES.GCM.seal(Data("hello".utf8), using: key, nonce: nil)
        #expect(Array(drawn.nonce).count == 12)
    }

    /// Whether `name` (from `caughtName`) is what a tag or a wrapped key that does not verify throws.
    /// swift-crypto on Linux throws BoringSSL's error code there (`underlyingCoreCryptoError`), where
    /// CryptoKit and SecCrypto throw `authenticationFailure`: one of the differences docs/SecCrypto.md
    /// lists, and the one place this file takes each side (tools/check-crypto-compat defines SWIFT_CRYPTO).
    private func isIntegrityFailure(_ name: String) -> Bool {
        #if SWIFT_CRYPTO
        name.hasPrefix("underlyingCoreCryptoError")
        #else
        name == "authenticationFailure"
        #endif
    }

    /// Errors are caught by CryptoKit's names.
    @Test func errorsAreCaughtByCryptoKitNames() throws {
        let key = SymmetricKey(size: .bits256)
        let box = try AES.GCM.seal(Data("transfer 100 EUR".utf8), using: key)
        var tampered = box.combined!
        tampered[tampered.startIndex + 12] ^= 1

        #expect(
            isIntegrityFailure(caughtName { _ = try AES.GCM.open(AES.GCM.SealedBox(combined: tampered), using: key) })
        )
        #expect(
            isIntegrityFailure(
                caughtName { _ = try ChaChaPoly.open(ChaChaPoly.SealedBox(combined: Data(count: 40)), using: key) }
            )
        )
        #expect(
            caughtName { _ = try AES.GCM.seal(Data([1]), using: SymmetricKey(data: [UInt8](repeating: 0, count: 20))) }
                == "incorrectKeySize"
        )
        #expect(
            caughtName { _ = try ChaChaPoly.Nonce(data: [UInt8](repeating: 0, count: 8)) } == "incorrectParameterSize"
        )
        #expect(caughtName { _ = try ChaChaPoly.SealedBox(combined: Data(count: 27)) } == "incorrectParameterSize")
    }

    /// The CryptoKit name `body`'s error is caught by, the error itself when none catches it, or
    /// "nothing".
    private func caughtName(_ body: () throws -> Void) -> String {
        do {
            try body()
            return "nothing"
        } catch CryptoKitError.authenticationFailure {
            return "authenticationFailure"
        } catch CryptoKitError.incorrectKeySize {
            return "incorrectKeySize"
        } catch CryptoKitError.incorrectParameterSize {
            return "incorrectParameterSize"
        } catch {
            return "\(error)"
        }
    }

    private func bytes(_ hex: String) -> [UInt8] {
        var result: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            result.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return result
    }

    /// `bytes` as `DispatchData` of `pieces` regions: not contiguous.
    private func dispatchData(_ bytes: [UInt8], pieces: Int) -> DispatchData {
        var data = DispatchData.empty
        let size = (bytes.count + pieces - 1) / pieces
        for start in stride(from: 0, to: bytes.count, by: size) {
            Array(bytes[start..<min(start + size, bytes.count)]).withUnsafeBytes { data.append($0) }
        }
        return data
    }
}
