import Foundation
import TestSupport
import Testing

/// Failed checks: a wrong password, key, IV, iteration count or digest; altered bytes; empty and
/// truncated input. Exit 1, the documented message, nothing on standard output, no `--out` file.
extension DecryptFailureTests {
    // MARK: - Wrong secrets

    struct WrongSecret: Sendable, CustomTestStringConvertible {
        var format: Format
        var mistake: Mistake
        var testDescription: String { "\(format.rawValue): \(mistake.rawValue)" }
    }

    static let wrongSecrets: [WrongSecret] = [
        .init(format: .password, mistake: .wrongPassword),
        .init(format: .password, mistake: .wrongIterations),
        .init(format: .password, mistake: .wrongDigest),
        .init(format: .rawCBC, mistake: .wrongKey),
        .init(format: .gcm, mistake: .wrongKey),
        .init(format: .gcm, mistake: .wrongIV),
    ]

    @Test(
        "wrong password, iteration count, digest, key or nonce: exit 1, one line, no output, no --out file (openssl fails too)",
        arguments: wrongSecrets
    )
    func wrongSecret(_ wrong: WrongSecret) throws {
        let plaintext = fixedText(1000)
        let file = try wrong.format.encrypt(plaintext)
        expectSameBytes(try wrong.format.decrypt(file).stdout, plaintext, "the fixture itself decrypts")
        if wrong.format.isCBC {
            let reference = try Tools.opensslAllowingFailure(
                wrong.format.opensslDecryptArguments(wrong.mistake),
                stdin: file,
                environment: wrong.format.environment
            )
            try #require(
                reference.status != 0,
                "openssl decrypts the fixture with the wrong secret: pick another fixture"
            )
        }
        Self.expectCheckFailed(try wrong.format.decryptBothWays(file, wrong.mistake), wrong.format)
    }

    // MARK: - Altered bytes

    enum Position: String, Sendable {
        case magic, salt, firstBlock, middle, lastBlock, lastCiphertextByte, firstTagByte, lastTagByte

        func offset(in count: Int, _ format: Format) -> Int {
            switch self {
            case .magic: 3
            case .salt: 12
            case .firstBlock: format.headerCount + 5
            case .middle: (format.headerCount + count) / 2
            case .lastBlock, .lastTagByte: count - 1
            case .lastCiphertextByte: count - 17
            case .firstTagByte: count - 16
            }
        }
    }

    struct Flip: Sendable, CustomTestStringConvertible {
        var format: Format
        var position: Position
        var testDescription: String { "\(format.rawValue): \(position.rawValue)" }
    }

    static let flips: [Flip] =
        [Position.magic, .salt, .firstBlock, .middle, .lastBlock].map { Flip(format: .password, position: $0) }
        + [Position.firstBlock, .middle, .lastBlock].map { Flip(format: .rawCBC, position: $0) }
        + [Position.firstBlock, .middle, .lastCiphertextByte, .firstTagByte, .lastTagByte].map {
            Flip(format: .gcm, position: $0)
        }

    @Test(
        "one flipped byte: GCM always fails; CBC fails or gives the garbage openssl gives; no --out file on failure",
        arguments: flips
    )
    func flippedByte(_ flip: Flip) throws {
        let format = flip.format
        let plaintext = fixedText(1000)
        var file = try format.encrypt(plaintext)
        let offset = flip.position.offset(in: file.count, format)
        file[offset] ^= 0x01
        let outcome = try format.decryptBothWays(file)
        let result = outcome.piped

        guard format.isCBC else {
            Self.expectCheckFailed(outcome, format)
            return
        }
        let reference = try Tools.opensslAllowingFailure(
            format.opensslDecryptArguments(),
            stdin: file,
            environment: format.environment
        )
        switch flip.position {
        case .firstBlock, .middle:
            // CBC is not authenticated: the last block and its padding are intact, so decryption
            // succeeds; the block holding the flip is garbled and the same byte of the next one flipped.
            #expect(reference.status == 0)
            Self.expectDecrypted(outcome, reference.stdout, "garbage as openssl's")
            let position = offset - format.headerCount
            let block = format.cipher.blockByteCount
            let garbled = (position / block * block)..<(position / block * block + block)
            let changed = Set(
                (0..<min(result.stdout.count, plaintext.count)).filter { result.stdout[$0] != plaintext[$0] }
            )
            #expect(result.stdout.count == plaintext.count)
            #expect(
                changed.contains(position + block) && changed.subtracting(garbled) == [position + block],
                "changed bytes: \(changed.sorted())"
            )
        case .magic:
            #expect(reference.status != 0, "openssl refuses a file without Salted__")
            Self.expectCheckFailed(outcome, format, message: Self.alteredMagic)
        default:
            // A new salt (new key) or an altered last block: padding rarely survives, and the
            // output is never the plaintext. seccli must do what openssl does.
            let recovered = result.status == 0 && result.stdout == plaintext
            #expect(!recovered, "an altered file decrypted to the original plaintext")
            if reference.status == 0 {
                Self.expectDecrypted(outcome, reference.stdout, "garbage as openssl's")
            } else {
                Self.expectCheckFailed(outcome, format)
            }
        }
    }

    // MARK: - Truncated and empty input

    struct Cut: Sendable, CustomTestStringConvertible {
        var format: Format
        /// Bytes kept (0: empty input); nil: all but the last.
        var keep: Int?
        var testDescription: String {
            "\(format.rawValue): \(keep.map { $0 == 0 ? "empty input" : "first \($0) bytes" } ?? "all but the last byte")"
        }

        var message: String? {
            guard let keep, keep < 16, format == .password else { return nil }
            return DecryptFailureTests.shortPasswordInput
        }
    }

    static let cuts: [Cut] = Format.allCases.flatMap { format in
        [0, 8, 16, 17, nil].map { Cut(format: format, keep: $0) }
    }

    @Test("empty or truncated input: exit 1, one line, nothing on stdout, no --out file", arguments: cuts)
    func truncated(_ cut: Cut) throws {
        let file = try cut.format.encrypt(fixedText(1000))
        let outcome = try cut.format.decryptBothWays(Array(file.prefix(cut.keep ?? file.count - 1)))
        Self.expectCheckFailed(outcome, cut.format, message: cut.message)
    }
}
