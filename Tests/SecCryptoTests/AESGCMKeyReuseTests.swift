import Foundation
import SecCrypto
import TestSupport
import Testing

/// A key seals and opens many messages through one keyed OpenSSL context (only the nonce is set per
/// message). These tests drive one key object through long mixed sequences — both directions, nonces
/// of several lengths, failed opens in between, several threads at once — and check every result
/// against Python's `cryptography` AESGCM (Tests/Peers/aead_peer.py) or a fresh context.
@Suite struct AESGCMKeyReuseTests {
    /// One message of a sequence, with the nonce, AAD and plaintext as hex for the peer.
    private struct Message {
        var nonce: [UInt8]
        var aad: [UInt8]
        var plaintext: [UInt8]
    }

    /// Nonce lengths the peer accepts (cryptography: 8 to 128 bytes), 12 most often.
    private static let nonceLengths = [12, 12, 12, 8, 16, 60, 128]

    private static func messages(count: Int) -> [Message] {
        (0..<count).map { index in
            let nonceLength = nonceLengths[index % nonceLengths.count]
            let size = [0, 1, 15, 16, 17, 255, 4096, 16384, 65537][index % 9]
            return Message(
                nonce: randomBytes(nonceLength),
                aad: randomBytes(index % 5 == 0 ? 0 : index % 40),
                plaintext: randomBytes(size)
            )
        }
    }

    /// SecKit seals a long sequence under one key object, opening each box again right after (the
    /// context switches direction) and failing a tampered open every third message; the peer opens
    /// every box. Then the peer seals a sequence, and the same key object opens it.
    @Test(arguments: [16, 24, 32])
    func bothWaysWithPython(keyByteCount: Int) throws {
        let keyBytes = randomBytes(keyByteCount)
        let key = SymmetricKey(data: keyBytes)

        let ours = Self.messages(count: 63)
        var boxes: [AES.GCM.SealedBox] = []
        for (index, message) in ours.enumerated() {
            let box = try AES.GCM.seal(
                message.plaintext,
                using: key,
                nonce: try AES.GCM.Nonce(data: message.nonce),
                authenticating: message.aad
            )
            boxes.append(box)
            #expect(try AES.GCM.open(box, using: key, authenticating: message.aad) == Data(message.plaintext))
            if index % 3 == 0 {
                var tag = [UInt8](box.tag)
                tag[index % 16] ^= 0x01
                let tampered = try AES.GCM.SealedBox(nonce: box.nonce, ciphertext: box.ciphertext, tag: tag)
                #expect(throws: CryptoError.authenticationFailure) {
                    try AES.GCM.open(tampered, using: key, authenticating: message.aad)
                }
            }
        }

        let theirs = Self.messages(count: 63)
        let reply = try InteropPeer.aeadBatch(
            .aesGCM,
            key: keyBytes,
            open: zip(ours, boxes).map { message, box in
                AEADPeerMessage(
                    nonce: message.nonce,
                    aad: message.aad,
                    text: Array(box.ciphertext),
                    tag: Array(box.tag)
                )
            },
            seal: theirs.map { AEADPeerMessage(nonce: $0.nonce, aad: $0.aad, text: $0.plaintext) }
        )
        #expect(reply.opened == ours.map(\.plaintext))

        for (message, sealed) in zip(theirs, reply.sealed) {
            let box = try AES.GCM.SealedBox(
                nonce: try AES.GCM.Nonce(data: message.nonce),
                ciphertext: sealed.ciphertext,
                tag: sealed.tag
            )
            #expect(try AES.GCM.open(box, using: key, authenticating: message.aad) == Data(message.plaintext))
            #expect(throws: CryptoError.authenticationFailure) {
                try AES.GCM.open(box, using: key, authenticating: message.aad + [0])
            }
        }
    }

    /// Four threads seal and open under one key at once: each result equals the one a fresh context
    /// (`CipherStream`) gives for the same nonce, so no message ever ran on another's context.
    @Test func concurrentMessagesUnderOneKey() async throws {
        let key = SymmetricKey(size: .bits256)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    for round in 0..<300 {
                        let message = [UInt8](repeating: UInt8(worker), count: 100 + round)
                        let aad = [UInt8(round & 0xff), UInt8(worker)]
                        let nonce = AES.GCM.Nonce()
                        let box = try AES.GCM.seal(message, using: key, nonce: nonce, authenticating: aad)
                        let stream = try CipherStream(.aes256GCM, .encrypt, key: key, iv: nonce, padding: .none)
                        aad.withUnsafeBytes { stream.authenticate($0) }
                        var expected = stream.update(data: message)
                        expected.append(try stream.finalize())
                        #expect(box.ciphertext == expected)
                        #expect(box.tag == stream.tag)
                        #expect(try AES.GCM.open(box, using: key, authenticating: aad) == Data(message))
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    /// Seals with random nonces stop at the key's limit (2^32 by default, NIST SP 800-38D §8.3;
    /// three here) with `keyUsageLimitReached`; seals with nonces the caller gives, and opens, go on.
    @Test func randomNonceLimit() throws {
        let key = SymmetricKey(data: [UInt8](repeating: 7, count: 32), gcmRandomNonceLimit: 3)
        var boxes: [AES.GCM.SealedBox] = []
        for _ in 0..<3 { boxes.append(try AES.GCM.seal([1, 2, 3], using: key)) }
        let error = #expect(throws: CryptoError.self) { try AES.GCM.seal([1, 2, 3], using: key) }
        guard case .keyUsageLimitReached(let reason) = error else {
            Issue.record("expected keyUsageLimitReached, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("use a new key"))
        let explicit = try AES.GCM.seal(
            [4],
            using: key,
            nonce: try AES.GCM.Nonce(data: [UInt8](repeating: 1, count: 12))
        )
        for box in boxes + [explicit] { _ = try AES.GCM.open(box, using: key) }
        // A copy of the key shares its count; a new key from the same bytes starts its own.
        let copy = key
        #expect(throws: CryptoError.self) { try AES.GCM.seal([1], using: copy) }
        _ = try AES.GCM.seal([1], using: SymmetricKey(data: [UInt8](repeating: 7, count: 32)))
    }

    /// A sealed box is one buffer, nonce ‖ ciphertext ‖ tag: `combined` is that buffer, `ciphertext`
    /// and `tag` are its slices, and a box parsed from a slice of a larger buffer (indices not from
    /// 0) reads the same parts. A box with a 1-byte nonce has no combined form and still opens.
    @Test func sealedBoxLayout() throws {
        let key = SymmetricKey(size: .bits256)
        let message = Data("layout of a sealed box".utf8)
        let box = try AES.GCM.seal(message, using: key, authenticating: [1, 2])
        let combined = try #require(box.combined)
        #expect([UInt8](combined) == [UInt8](box.nonce.withUnsafeBytes { Data($0) } + box.ciphertext + box.tag))
        #expect(box.tag.count == 16 && box.ciphertext.count == message.count)

        let padded = Data([0xEE, 0xEE, 0xEE]) + combined
        let parsed = try AES.GCM.SealedBox(combined: padded[3...])
        #expect(parsed.nonce == box.nonce && parsed.ciphertext == box.ciphertext && parsed.tag == box.tag)
        #expect(try AES.GCM.open(parsed, using: key, authenticating: [1, 2]) == message)

        let short = try AES.GCM.seal(message, using: key, nonce: try AES.GCM.Nonce(data: [7]))
        #expect(short.combined == nil)
        let rebuilt = try AES.GCM.SealedBox(nonce: short.nonce, ciphertext: short.ciphertext, tag: short.tag)
        #expect(try AES.GCM.open(rebuilt, using: key) == message)
    }

    /// The buffer forms write exactly where they are told: a ciphertext buffer of the wrong size
    /// or a tag buffer of other than 16 bytes is refused; a failed open wipes the plaintext buffer.
    @Test func bufferForms() throws {
        let key = SymmetricKey(size: .bits128)
        let nonce = AES.GCM.Nonce()
        let message: [UInt8] = Array("buffer forms".utf8)
        let aad: [UInt8] = [9, 9]
        var ciphertext = [UInt8](repeating: 0, count: message.count)
        var tag = [UInt8](repeating: 0, count: 16)
        try message.withUnsafeBytes { message in
            try aad.withUnsafeBytes { aad in
                try ciphertext.withUnsafeMutableBytes { ciphertext in
                    try tag.withUnsafeMutableBytes { tag in
                        try AES.GCM.seal(
                            message,
                            using: key,
                            nonce: nonce,
                            authenticating: aad,
                            into: ciphertext,
                            tag: tag
                        )
                        expectIncorrectSize(actual: 15, expected: "16 bytes") {
                            try AES.GCM.seal(
                                message,
                                using: key,
                                nonce: nonce,
                                authenticating: aad,
                                into: ciphertext,
                                tag: UnsafeMutableRawBufferPointer(rebasing: tag[..<15])
                            )
                        }
                        expectIncorrectSize(actual: message.count - 1, expected: "\(message.count) bytes") {
                            try AES.GCM.seal(
                                message,
                                using: key,
                                nonce: nonce,
                                authenticating: aad,
                                into: UnsafeMutableRawBufferPointer(rebasing: ciphertext.dropLast()),
                                tag: tag
                            )
                        }
                    }
                }
            }
        }
        let box = try AES.GCM.SealedBox(nonce: nonce, ciphertext: ciphertext, tag: tag)
        #expect(try AES.GCM.open(box, using: key, authenticating: aad) == Data(message))

        var plaintext = [UInt8](repeating: 0xAA, count: message.count)
        ciphertext[0] ^= 0x80
        #expect(throws: CryptoError.authenticationFailure) {
            try ciphertext.withUnsafeBytes { ciphertext in
                try tag.withUnsafeBytes { tag in
                    try aad.withUnsafeBytes { aad in
                        try plaintext.withUnsafeMutableBytes { plaintext in
                            try AES.GCM.open(
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
        #expect(plaintext == [UInt8](repeating: 0, count: message.count))
    }
}
