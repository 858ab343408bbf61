import Foundation
import SecCrypto
import TestSupport
import Testing

/// ChaCha20-Poly1305: RFC 8439 §2.8.2, Wycheproof, and Python `cryptography`'s ChaCha20Poly1305
/// (Tests/Peers/aead_peer.py) both ways.
@Suite struct ChaChaPolyTests {
    /// RFC 8439 §2.8.2, transcribed from the RFC's text: the sealed box, its parts and its opening.
    @Test func rfc8439Section2_8_2() throws {
        let key = SymmetricKey(data: Array(0x80...0x9f) as [UInt8])
        let nonce = try ChaChaPoly.Nonce(data: try Hex.decode("07000000 40414243 44454647".filter { $0 != " " }))
        let aad = try Hex.decode("50515253c0c1c2c3c4c5c6c7")
        let plaintext = Data(
            "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it."
                .utf8
        )
        let ciphertext =
            "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d63dbea45e8ca9671282fafb69da92728b"
            + "1a71de0a9e060b2905d6a5b67ecd3b3692ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc"
            + "3ff4def08e4b7a9de576d26586cec64b6116"
        let tag = "1ae10b594f09e26a7e902ecbd0600691"

        let box = try ChaChaPoly.seal(plaintext, using: key, nonce: nonce, authenticating: aad)
        #expect(Hex.encode(box.ciphertext) == ciphertext)
        #expect(Hex.encode(box.tag) == tag)
        #expect(box.nonce == nonce)
        #expect(Hex.encode(box.combined) == "070000004041424344454647" + ciphertext + tag)
        #expect(try ChaChaPoly.open(box, using: key, authenticating: aad) == plaintext)

        let parsed = try ChaChaPoly.SealedBox(combined: box.combined)
        #expect(try ChaChaPoly.open(parsed, using: key, authenticating: aad) == plaintext)
        var altered = box.combined
        altered[altered.startIndex + 20] ^= 0x01
        #expect(throws: CryptoError.authenticationFailure) {
            try ChaChaPoly.open(ChaChaPoly.SealedBox(combined: altered), using: key, authenticating: aad)
        }
        #expect(throws: CryptoError.authenticationFailure) { try ChaChaPoly.open(box, using: key) }
    }

    /// Valid cases seal to ct ‖ tag and open to msg; invalid ones with a 12-byte nonce fail to open;
    /// every other nonce length cannot even make a nonce.
    @Test func wycheproof() throws {
        let vectors = try TestVectors.wycheproof("wycheproof/chacha20_poly1305_test.json", groups: AEADTestGroup.self)
        #expect(vectors.algorithm == "CHACHA20-POLY1305")
        var results: [WycheproofResult: Int] = [:]
        var refusedNonces = 0
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
                guard iv.count == ChaChaPoly.Nonce.byteCount else {
                    #expect(test.result == .invalid, "tcId \(test.tcId)")
                    expectIncorrectSize(actual: iv.count, expected: "12 bytes", "tcId \(test.tcId)") {
                        try ChaChaPoly.Nonce(data: iv)
                    }
                    refusedNonces += 1
                    continue
                }
                let nonce = try ChaChaPoly.Nonce(data: iv)
                let box = try ChaChaPoly.SealedBox(nonce: nonce, ciphertext: ciphertext, tag: tag)
                switch test.result {
                case .valid:
                    let sealed = try ChaChaPoly.seal(message, using: key, nonce: nonce, authenticating: aad)
                    #expect(Hex.encode(sealed.combined) == Hex.encode(iv + ciphertext + tag), "tcId \(test.tcId)")
                    #expect(
                        try ChaChaPoly.open(box, using: key, authenticating: aad) == Data(message),
                        "tcId \(test.tcId)"
                    )
                case .invalid:
                    #expect(throws: CryptoError.authenticationFailure, "tcId \(test.tcId)") {
                        try ChaChaPoly.open(box, using: key, authenticating: aad)
                    }
                }
            }
        }
        #expect(results == [.valid: 256, .invalid: 69])
        #expect(refusedNonces == 9)
    }

    /// SecKit seals messages of many sizes under one key object (its kept context restarted for
    /// each) and Python opens them; Python seals, SecKit opens. A tampered box fails on both sides.
    @Test func bothWaysWithPython() throws {
        let keyBytes = randomBytes(32)
        let key = SymmetricKey(data: keyBytes)
        let sizes = [0, 1, 15, 16, 63, 64, 65, 255, 4096, 16384, 65537]
        var ours: [AEADPeerMessage] = []
        var plaintexts: [[UInt8]] = []
        for (index, size) in sizes.enumerated() {
            let plaintext = randomBytes(size)
            let aad = randomBytes(index % 3 == 0 ? 0 : index * 5)
            let box = try ChaChaPoly.seal(plaintext, using: key, authenticating: aad)
            #expect(try ChaChaPoly.open(box, using: key, authenticating: aad) == Data(plaintext))
            var tag = Array(box.tag)
            if index == 3 { tag[0] ^= 0x80 }  // Python must refuse this one
            ours.append(AEADPeerMessage(nonce: Array(box.nonce), aad: aad, text: Array(box.ciphertext), tag: tag))
            plaintexts.append(plaintext)
        }
        let theirs = sizes.map {
            AEADPeerMessage(nonce: randomBytes(12), aad: randomBytes($0 % 7), text: randomBytes($0))
        }
        let reply = try InteropPeer.aeadBatch(.chaCha20Poly1305, key: keyBytes, open: ours, seal: theirs)
        #expect(reply.opened == plaintexts.enumerated().map { $0.offset == 3 ? nil : $0.element })

        for (message, sealed) in zip(theirs, reply.sealed) {
            let box = try ChaChaPoly.SealedBox(
                nonce: try ChaChaPoly.Nonce(data: message.nonce),
                ciphertext: sealed.ciphertext,
                tag: sealed.tag
            )
            #expect(try ChaChaPoly.open(box, using: key, authenticating: message.aad) == Data(message.text))
            #expect(throws: CryptoError.authenticationFailure) {
                try ChaChaPoly.open(box, using: key, authenticating: message.aad + [1])
            }
        }
    }

    /// One key object serves AES-GCM and ChaChaPoly in turn: each message gets a context of its own
    /// kind, so the results equal those of fresh keys with the same bytes.
    @Test func oneKeyForBothAEADs() throws {
        let bytes = randomBytes(32)
        let shared = SymmetricKey(data: bytes)
        let message = randomBytes(100)
        for round in 0..<4 {
            let gcmNonce = try AES.GCM.Nonce(data: randomBytes(12))
            let chachaNonce = try ChaChaPoly.Nonce(data: randomBytes(12))
            let gcm = try AES.GCM.seal(message, using: shared, nonce: gcmNonce)
            let chacha = try ChaChaPoly.seal(message, using: shared, nonce: chachaNonce)
            #expect(gcm.tag == (try AES.GCM.seal(message, using: SymmetricKey(data: bytes), nonce: gcmNonce)).tag)
            #expect(
                chacha.combined
                    == (try ChaChaPoly.seal(message, using: SymmetricKey(data: bytes), nonce: chachaNonce)).combined
            )
            #expect(gcm.ciphertext != chacha.ciphertext, "round \(round)")
            #expect(try ChaChaPoly.open(chacha, using: shared) == Data(message))
            #expect(try AES.GCM.open(gcm, using: shared) == Data(message))
        }
    }

    /// The buffer forms give the sealed box's bytes; a failed open wipes the plaintext buffer.
    @Test func sealAndOpenIntoBuffers() throws {
        let key = SymmetricKey(size: .bits256)
        let nonce = ChaChaPoly.Nonce()
        let message = randomBytes(1000)
        let aad = randomBytes(13)
        var ciphertext = [UInt8](repeating: 0, count: message.count)
        var tag = [UInt8](repeating: 0, count: ChaChaPoly.tagByteCount)
        try message.withUnsafeBytes { message in
            try aad.withUnsafeBytes { aad in
                try ciphertext.withUnsafeMutableBytes { ciphertext in
                    try tag.withUnsafeMutableBytes { tag in
                        try ChaChaPoly.seal(
                            message,
                            using: key,
                            nonce: nonce,
                            authenticating: aad,
                            into: ciphertext,
                            tag: tag
                        )
                    }
                }
            }
        }
        let box = try ChaChaPoly.seal(message, using: key, nonce: nonce, authenticating: aad)
        #expect(Data(ciphertext) == box.ciphertext && Data(tag) == box.tag)

        var plaintext = [UInt8](repeating: 0, count: message.count)
        func open(tag: [UInt8]) throws {
            try ciphertext.withUnsafeBytes { ciphertext in
                try tag.withUnsafeBytes { tag in
                    try aad.withUnsafeBytes { aad in
                        try plaintext.withUnsafeMutableBytes { plaintext in
                            try ChaChaPoly.open(
                                ciphertext,
                                using: key,
                                nonce: nonce,
                                tag: tag,
                                authenticating: aad,
                                into: plaintext
                            )
                        }
                    }
                }
            }
        }
        try open(tag: tag)
        #expect(plaintext == message)
        #expect(throws: CryptoError.authenticationFailure) { try open(tag: tag.map { $0 ^ 1 }) }
        #expect(plaintext.allSatisfy { $0 == 0 })
    }

    /// Sizes: 32-byte keys only, 12-byte nonces, 16-byte tags, combined boxes of at least 28 bytes.
    @Test func sizesAreChecked() throws {
        expectIncorrectSize(actual: 16, expected: "32 bytes") {
            try ChaChaPoly.seal([1, 2, 3], using: SymmetricKey(size: .bits128))
        }
        expectIncorrectSize(actual: 8, expected: "12 bytes") {
            try ChaChaPoly.Nonce(data: [UInt8](repeating: 0, count: 8))
        }
        expectIncorrectSize(actual: 15, expected: "16 bytes") {
            try ChaChaPoly.SealedBox(nonce: ChaChaPoly.Nonce(), ciphertext: [1], tag: [UInt8](repeating: 0, count: 15))
        }
        expectIncorrectSize(actual: 27, expected: "at least 28 bytes") {
            try ChaChaPoly.SealedBox(combined: [UInt8](repeating: 0, count: 27))
        }
        // Random nonces differ, and a box sealed without one carries the nonce it drew.
        let key = SymmetricKey(size: .bits256)
        let first = try ChaChaPoly.seal([7], using: key)
        let second = try ChaChaPoly.seal([7], using: key)
        #expect(first.nonce != second.nonce && first.ciphertext.count == 1)
    }
}
