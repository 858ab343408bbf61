import SecCrypto
import TestSupport
import Testing

/// Streaming sinks against the one-shot APIs, `SealedBox` forms, and size errors.
@Suite struct CipherStreamTests {
    /// Around the block sizes, and across `CipherSink`'s 256 KiB internal piece.
    static let sizes = [0, 1, 7, 8, 15, 16, 17, 1000, 256 * 1024 + 17]

    /// What `stream` turns `input` into through a `CipherSink` (or `TagSplittingSink`), written in uneven pieces.
    private static func stream(
        _ input: [UInt8],
        through stream: CipherStream,
        splittingTag: Bool = false
    ) throws -> [UInt8] {
        let output = DataSink()
        let sink: ByteSink = splittingTag ? TagSplittingSink(stream, next: output) : CipherSink(stream, next: output)
        for piece in input.unevenPieces { try sink.write(data: piece) }
        try sink.finish()
        return [UInt8](output.data)
    }

    private static func randomKey(for cipher: CipherAlgorithm) throws -> SymmetricKey {
        SymmetricKey(data: try SecureRandom.bytes(count: cipher.keyByteCount))
    }

    /// The one-shot `AES.CBC` or `Insecure.TripleDES.CBC` call for `cipher`.
    private static func oneShot(
        _ cipher: CipherAlgorithm,
        _ direction: CipherStream.Direction,
        _ input: [UInt8],
        key: SymmetricKey,
        iv: [UInt8]
    ) throws -> [UInt8] {
        guard cipher.isTripleDES else {
            return [UInt8](
                direction == .encrypt
                    ? try AES.CBC.encrypt(input, using: key, iv: iv) : try AES.CBC.decrypt(input, using: key, iv: iv)
            )
        }
        let keying: Insecure.TripleDES.Keying = cipher == .tripleDESCBC ? .threeKey : .twoKey
        return [UInt8](
            direction == .encrypt
                ? try Insecure.TripleDES.CBC.encrypt(input, using: key, iv: iv, keying: keying)
                : try Insecure.TripleDES.CBC.decrypt(input, using: key, iv: iv, keying: keying)
        )
    }

    @Test(arguments: [CipherAlgorithm.aes128CBC, .aes192CBC, .aes256CBC, .tripleDESCBC, .tripleDES2KeyCBC], sizes)
    func cbcSinkMatchesOneShot(_ cipher: CipherAlgorithm, _ size: Int) throws {
        let key = try Self.randomKey(for: cipher)
        let iv = try SecureRandom.bytes(count: cipher.ivByteCount)
        let plaintext = try SecureRandom.bytes(count: size)
        let ciphertext = try Self.stream(plaintext, through: CipherStream(cipher, .encrypt, key: key, iv: iv))
        #expect(ciphertext == (try Self.oneShot(cipher, .encrypt, plaintext, key: key, iv: iv)))
        #expect(ciphertext.count == (size / cipher.blockByteCount + 1) * cipher.blockByteCount)
        #expect(try Self.stream(ciphertext, through: CipherStream(cipher, .decrypt, key: key, iv: iv)) == plaintext)
        #expect(try Self.oneShot(cipher, .decrypt, ciphertext, key: key, iv: iv) == plaintext)
    }

    /// `CipherSink` encryption writes ciphertext ‖ tag, which `TagSplittingSink` verifies and decrypts;
    /// both equal `seal`/`open`. A flipped last byte (the tag) fails at `finish`.
    @Test(arguments: [CipherAlgorithm.aes128GCM, .aes192GCM, .aes256GCM], sizes)
    func gcmSinksMatchSealAndOpen(_ cipher: CipherAlgorithm, _ size: Int) throws {
        let key = try Self.randomKey(for: cipher)
        let nonce = AES.GCM.Nonce()
        let aad = Array("header".utf8)
        let plaintext = try SecureRandom.bytes(count: size)
        func stream(_ direction: CipherStream.Direction) throws -> CipherStream {
            let stream = try CipherStream(cipher, direction, key: key, iv: nonce)
            aad.withUnsafeBytes { stream.authenticate($0) }
            return stream
        }
        let sealed = try Self.stream(plaintext, through: stream(.encrypt))
        let box = try AES.GCM.seal(plaintext, using: key, nonce: nonce, authenticating: aad)
        #expect(sealed == [UInt8](box.ciphertext + box.tag))
        #expect(try Self.stream(sealed, through: stream(.decrypt), splittingTag: true) == plaintext)
        #expect(try AES.GCM.open(box, using: key, authenticating: aad) == Data(plaintext))

        var tampered = sealed
        tampered[tampered.count - 1] ^= 0x80
        #expect(throws: CryptoError.authenticationFailure) {
            try Self.stream(tampered, through: stream(.decrypt), splittingTag: true)
        }
    }

    @Test func tagSplittingSinkNeedsAWholeTag() throws {
        let key = SymmetricKey(size: .bits128)
        let stream = try CipherStream(.aes128GCM, .decrypt, key: key, iv: AES.GCM.Nonce())
        #expect(throws: CryptoError.authenticationFailure) {
            try Self.stream(Array(repeating: 0, count: 15), through: stream, splittingTag: true)
        }
    }

    /// nonce(12) ‖ ciphertext ‖ tag(16) parses back into the same box, and opens.
    @Test(arguments: [0, 1, 100])
    func combinedRoundTrip(_ size: Int) throws {
        let key = SymmetricKey(size: .bits256)
        let message = try SecureRandom.bytes(count: size)
        let box = try AES.GCM.seal(message, using: key)
        let combined = try #require(box.combined)
        #expect(combined.count == 12 + size + 16)
        let parsed = try AES.GCM.SealedBox(combined: combined)
        #expect(parsed.nonce == box.nonce && parsed.ciphertext == box.ciphertext && parsed.tag == box.tag)
        #expect(try AES.GCM.open(parsed, using: key) == Data(message))
    }

    @Test func combinedFormNeedsATwelveByteNonce() throws {
        let box = try AES.GCM.seal(
            [1, 2, 3],
            using: SymmetricKey(size: .bits128),
            nonce: AES.GCM.Nonce(data: [UInt8](repeating: 7, count: 16))
        )
        #expect(box.combined == nil)
        expectIncorrectSize(actual: 27, expected: "at least 28 bytes") {
            try AES.GCM.SealedBox(combined: [UInt8](repeating: 0, count: 27))
        }
    }

    /// A wrong size throws `incorrectSize` naming the size that was expected.
    struct SizeError: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let actual: Int
        let expected: String
        let attempt: @Sendable () throws -> Void
    }

    static let sizeErrors: [SizeError] = [
        SizeError(testDescription: "AES-CBC key", actual: 20, expected: "16, 24 or 32 bytes") {
            _ = try AES.CBC.encrypt(
                [UInt8](),
                using: SymmetricKey(data: [UInt8](repeating: 0, count: 20)),
                iv: [UInt8](repeating: 0, count: 16)
            )
        },
        SizeError(testDescription: "AES-CBC IV", actual: 12, expected: "16 bytes") {
            _ = try AES.CBC.decrypt(
                [UInt8](),
                using: SymmetricKey(size: .bits128),
                iv: [UInt8](repeating: 0, count: 12)
            )
        },
        SizeError(testDescription: "AES-GCM key", actual: 8, expected: "16, 24 or 32 bytes") {
            _ = try AES.GCM.seal([UInt8](), using: SymmetricKey(data: [UInt8](repeating: 0, count: 8)))
        },
        SizeError(testDescription: "empty GCM nonce", actual: 0, expected: "1 to 128 bytes") {
            _ = try AES.GCM.Nonce(data: [UInt8]())
        },
        SizeError(testDescription: "129-byte GCM nonce", actual: 129, expected: "1 to 128 bytes") {
            _ = try AES.GCM.Nonce(data: [UInt8](repeating: 0, count: 129))
        },
        SizeError(testDescription: "short GCM tag", actual: 12, expected: "16 bytes") {
            _ = try AES.GCM.SealedBox(
                nonce: AES.GCM.Nonce(),
                ciphertext: [UInt8](),
                tag: [UInt8](repeating: 0, count: 12)
            )
        },
        SizeError(testDescription: "three-key 3DES key", actual: 16, expected: "24 bytes") {
            _ = try Insecure.TripleDES.CBC.encrypt(
                [UInt8](),
                using: SymmetricKey(size: .bits128),
                iv: [UInt8](repeating: 0, count: 8),
                keying: .threeKey
            )
        },
        SizeError(testDescription: "two-key 3DES key", actual: 24, expected: "16 bytes") {
            _ = try Insecure.TripleDES.CBC.encrypt(
                [UInt8](),
                using: SymmetricKey(size: .bits192),
                iv: [UInt8](repeating: 0, count: 8),
                keying: .twoKey
            )
        },
        SizeError(testDescription: "3DES IV", actual: 16, expected: "8 bytes") {
            _ = try Insecure.TripleDES.CBC.decrypt(
                [UInt8](),
                using: SymmetricKey(size: .bits192),
                iv: [UInt8](repeating: 0, count: 16),
                keying: .threeKey
            )
        },
        SizeError(testDescription: "CipherStream key", actual: 16, expected: "32 bytes") {
            _ = try CipherStream(.aes256GCM, .encrypt, key: SymmetricKey(size: .bits128), iv: AES.GCM.Nonce())
        },
        SizeError(testDescription: "CipherStream expected tag", actual: 15, expected: "16 bytes") {
            try CipherStream(.aes128GCM, .decrypt, key: SymmetricKey(size: .bits128), iv: AES.GCM.Nonce())
                .setExpectedTag([UInt8](repeating: 0, count: 15))
        },
    ]

    @Test(arguments: sizeErrors)
    func wrongSizesNameTheExpectedSize(_ error: SizeError) {
        expectIncorrectSize(actual: error.actual, expected: error.expected) { try error.attempt() }
    }
}
