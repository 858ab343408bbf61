import Foundation
import TestSupport
import Testing

/// Wrong secrets, altered and truncated files, bad options: the documented exit code (1 failed
/// check, 2 bad data, 64 usage), exactly one `seccli: ` line, nothing on standard output, and no
/// output file. Fixture files are made the same way on every run (fixed secrets and salt, text
/// plaintext), so whether a CBC padding check passes never depends on luck.
@Suite("seccli encrypt/decrypt: failures")
struct DecryptFailureTests {
    /// How a fixture file is encrypted.
    enum Format: String, CaseIterable, Sendable {
        /// aes-256-cbc in the openssl enc -pbkdf2 format, written by openssl with a fixed salt.
        case password
        /// aes-128-cbc with a raw key and IV, written by openssl enc -K -iv.
        case rawCBC
        /// aes-256-gcm with a raw key and nonce: ciphertext ‖ tag, written by seccli.
        case gcm

        var cipher: Cipher {
            switch self {
            case .password: .aes256CBC
            case .rawCBC: .aes128CBC
            case .gcm: .aes256GCM
            }
        }
        var isCBC: Bool { self != .gcm }
        /// Bytes before the ciphertext: `Salted__` and the salt.
        var headerCount: Int { self == .password ? 16 : 0 }

        static let passphrase = "correct horse battery staple"
        static let salt = "0123456789abcdef"
        static let iterations = "10000"
        var key: String { hexString((0..<cipher.keyByteCount).map { UInt8($0 * 7 + 1) }) }
        var wrongKey: String { String(key.dropLast()) + (key.last == "0" ? "1" : "0") }
        var iv: String { hexString((0..<cipher.ivByteCount).map { UInt8(0xA0 + $0) }) }
        var wrongIV: String { String(iv.dropLast()) + "0" }
        /// Every secret the options below refer to.
        var environment: [String: String] {
            ["P": Self.passphrase, "WRONG_P": Self.passphrase + "!", "K": key, "WRONG_K": wrongKey]
        }

        /// The message of a failed check, as documented.
        var failureMessage: String {
            isCBC
                ? "seccli: decryption failed: wrong key or password, or corrupted input\n"
                : "seccli: authentication failed: wrong key, or the data was altered\n"
        }

        /// seccli options that decrypt the fixture, or fail to with `mistake`.
        func seccliOptions(_ mistake: Mistake? = nil) -> [String] {
            switch self {
            case .password:
                [
                    "--cipher", cipher.rawValue, "--password", mistake == .wrongPassword ? "env:WRONG_P" : "env:P",
                    "--iter", mistake == .wrongIterations ? "9999" : Self.iterations, "--md",
                    mistake == .wrongDigest ? "sha512" : "sha256",
                ]
            case .rawCBC, .gcm:
                [
                    "--cipher", cipher.rawValue, "--key", mistake == .wrongKey ? "env:WRONG_K" : "env:K",
                    "--iv", mistake == .wrongIV ? wrongIV : iv,
                ]
            }
        }

        /// The `openssl enc -d` arguments for the same thing (CBC only: openssl enc has no AEAD).
        func opensslDecryptArguments(_ mistake: Mistake? = nil) -> [String] {
            precondition(isCBC)
            switch self {
            case .password:
                return [
                    "enc", "-d", cipher.opensslOption, "-pbkdf2", "-pass",
                    mistake == .wrongPassword ? "env:WRONG_P" : "env:P",
                    "-iter", mistake == .wrongIterations ? "9999" : Self.iterations, "-md",
                    mistake == .wrongDigest ? "sha512" : "sha256",
                ]
            default:
                return [
                    "enc", "-d", cipher.opensslOption, "-K", mistake == .wrongKey ? wrongKey : key, "-iv",
                    mistake == .wrongIV ? wrongIV : iv,
                ]
            }
        }

        /// The fixture for `plaintext`.
        func encrypt(_ plaintext: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
            switch self {
            case .password:
                // With -S openssl writes no header (3.0): add Salted__ ‖ salt as it does without -S.
                let body = try Tools.openssl(
                    [
                        "enc", cipher.opensslOption, "-pbkdf2", "-iter", Self.iterations, "-md", "sha256", "-pass",
                        "env:P", "-S", Self.salt,
                    ],
                    stdin: plaintext,
                    environment: environment,
                    sourceLocation: sourceLocation
                ).stdout
                return Array("Salted__".utf8) + hexBytes(Self.salt) + body
            case .rawCBC:
                return try Tools.openssl(
                    ["enc", cipher.opensslOption, "-K", key, "-iv", iv],
                    stdin: plaintext,
                    sourceLocation: sourceLocation
                ).stdout
            case .gcm:
                let result = try Tools.seccli(
                    ["encrypt"] + seccliOptions(),
                    stdin: plaintext,
                    environment: environment,
                    sourceLocation: sourceLocation
                )
                try #require(
                    result.status == 0 && result.stdout.count == plaintext.count + 16,
                    "seccli cannot make the GCM fixture: \(result.stderr)",
                    sourceLocation: sourceLocation
                )
                return result.stdout
            }
        }

        /// Runs `seccli decrypt` on `input`, standard input to standard output.
        func decrypt(_ input: [UInt8], _ mistake: Mistake? = nil) throws -> ProcessResult {
            try Tools.seccli(["decrypt"] + seccliOptions(mistake), stdin: input, environment: environment)
        }

        /// Runs `seccli decrypt` on `input` both ways: standard input to standard output, and
        /// `--in FILE --out FILE` in a fresh folder.
        func decryptBothWays(_ input: [UInt8], _ mistake: Mistake? = nil) throws -> Outcome {
            let piped = try decrypt(input, mistake)
            return try withScratch { dir in
                try dir.write("in.enc", input)
                let toFile = try Tools.seccli(
                    ["decrypt"] + seccliOptions(mistake) + ["--in", "in.enc", "--out", "out.txt"],
                    environment: environment,
                    in: dir
                )
                let entries = try directoryEntries(dir)
                return Outcome(
                    piped: piped,
                    toFile: toFile,
                    outputFile: entries.contains("out.txt") ? try dir.read("out.txt") : nil,
                    leftovers: entries.subtracting(["in.enc", "out.txt"])
                )
            }
        }
    }

    /// What `Format.decryptBothWays` saw.
    struct Outcome {
        var piped: ProcessResult
        var toFile: ProcessResult
        /// The `--out` file, if it exists.
        var outputFile: [UInt8]?
        /// Anything else left in the folder (a temporary file).
        var leftovers: Set<String>
    }

    enum Mistake: String, Sendable {
        case wrongPassword, wrongIterations, wrongDigest, wrongKey, wrongIV
    }

    /// Asserts the documented shape of a failed check: exit 1, one line (the format's failure message
    /// unless `message` names another), no output.
    static func expectCheckFailed(
        _ result: ProcessResult,
        _ format: Format,
        message: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.stdout.isEmpty, "\(result.stdout.count) bytes on stdout", sourceLocation: sourceLocation)
        expectOneLine(result.stderr, sourceLocation: sourceLocation)
        #expect(result.status == 1, "exit code; stderr: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr == (message ?? format.failureMessage), sourceLocation: sourceLocation)
    }

    /// The same for both ways of running, and no output file (nor temporary file) at all.
    static func expectCheckFailed(
        _ outcome: Outcome,
        _ format: Format,
        message: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        expectCheckFailed(outcome.piped, format, message: message, sourceLocation: sourceLocation)
        expectCheckFailed(outcome.toFile, format, message: message, sourceLocation: sourceLocation)
        #expect(outcome.outputFile == nil, "--out file created", sourceLocation: sourceLocation)
        #expect(outcome.leftovers.isEmpty, "left behind: \(outcome.leftovers)", sourceLocation: sourceLocation)
    }

    /// Both ways succeeded silently with `expected` as the output.
    static func expectDecrypted(
        _ outcome: Outcome,
        _ expected: [UInt8],
        _ what: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for result in [outcome.piped, outcome.toFile] {
            #expect(result.status == 0, "\(what): \(result.stderr)", sourceLocation: sourceLocation)
            #expect(result.stderr.isEmpty, sourceLocation: sourceLocation)
        }
        expectSameBytes(outcome.piped.stdout, expected, "\(what) (stdout)", sourceLocation: sourceLocation)
        #expect(outcome.toFile.stdout.isEmpty, sourceLocation: sourceLocation)
        expectSameBytes(outcome.outputFile ?? [], expected, "\(what) (--out)", sourceLocation: sourceLocation)
        #expect(outcome.leftovers.isEmpty, "left behind: \(outcome.leftovers)", sourceLocation: sourceLocation)
    }

    /// Password-format input that is not in the format at all says so (exit 1 still).
    static let shortPasswordInput = "seccli: input is too short for the openssl enc format (16-byte header)\n"
    static let alteredMagic = "seccli: input is not in the openssl enc format (no Salted__ header)\n"

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

    // MARK: - Output only after verification

    @Test(
        "--out naming a device is written in place, never replaced: /dev/null stays a character device",
        arguments: Format.allCases
    )
    func outputToDevice(_ format: Format) throws {
        try withScratch { dir in
            try dir.write("in.enc", try format.encrypt(fixedText(1000)))
            for command in [
                ["decrypt"] + format.seccliOptions() + ["--in", "in.enc"],
                ["encrypt"] + format.seccliOptions() + ["--in", "in.enc"],
            ] {
                let result = try Tools.seccli(
                    command + ["--out", "/dev/null"],
                    environment: format.environment,
                    in: dir
                )
                #expect(result.status == 0, "\(command.first!): \(result.stderr)")
                let attributes = try FileManager.default.attributesOfItem(atPath: "/dev/null")
                #expect(attributes[.type] as? FileAttributeType == .typeCharacterSpecial, "/dev/null was replaced")
            }
            let full = try Tools.seccli(
                ["decrypt"] + format.seccliOptions() + ["--in", "in.enc", "--out", "/dev/full"],
                environment: format.environment,
                in: dir
            )
            #expect(full.status == 1)
            #expect(full.stderr == "seccli: /dev/full: No space left on device\n")
        }
    }

    @Test(
        "--out is replaced only on success, keeping its mode; no temporary file is left; stdout gets nothing from a bad 3 MiB file",
        arguments: Format.allCases
    )
    func outputOnlyOnSuccess(_ format: Format) throws {
        try withScratch { dir in
            let plaintext = fixedText(largeSize)
            let good = try format.encrypt(plaintext)
            var bad = good
            bad[bad.count - 1] ^= 0x01
            if format.isCBC {
                let reference = try Tools.opensslAllowingFailure(
                    format.opensslDecryptArguments(),
                    stdin: bad,
                    environment: format.environment
                )
                try #require(reference.status != 0, "openssl decrypts the altered fixture: pick another")
            }
            try dir.write("good.enc", good)
            try dir.write("bad.enc", bad)
            let precious = Array("keep me\n".utf8)
            try dir.write("existing.txt", precious)
            try #require(chmod(dir.path("existing.txt"), 0o600) == 0)
            func decrypt(_ input: String, to output: String?) throws -> ProcessResult {
                try Tools.seccli(
                    ["decrypt"] + format.seccliOptions() + ["--in", input] + (output.map { ["--out", $0] } ?? []),
                    environment: format.environment,
                    in: dir
                )
            }

            // Failures: the existing file untouched, no new file, no temporary file, nothing on stdout.
            Self.expectCheckFailed(try decrypt("bad.enc", to: "existing.txt"), format)
            #expect(try dir.read("existing.txt") == precious)
            Self.expectCheckFailed(try decrypt("bad.enc", to: "new.txt"), format)
            Self.expectCheckFailed(try decrypt("bad.enc", to: nil), format)
            #expect(try directoryEntries(dir) == ["good.enc", "bad.enc", "existing.txt"])

            // Success: replaced in place (same mode), or created.
            let replaced = try decrypt("good.enc", to: "existing.txt")
            #expect(replaced.status == 0, "\(replaced.stderr)")
            #expect(replaced.stdout.isEmpty && replaced.stderr.isEmpty)
            expectSameBytes(try dir.read("existing.txt"), plaintext, "replaced existing.txt")
            let mode =
                try FileManager.default.attributesOfItem(atPath: dir.path("existing.txt"))[.posixPermissions] as? Int
            #expect(mode == 0o600, "a replaced file keeps its mode")
            let created = try decrypt("good.enc", to: "new.txt")
            #expect(created.status == 0, "\(created.stderr)")
            expectSameBytes(try dir.read("new.txt"), plaintext, "created new.txt")
            #expect(try directoryEntries(dir) == ["good.enc", "bad.enc", "existing.txt", "new.txt"])
        }
    }

    @Test("encrypt of an unreadable input: exit 1, one line, nothing on stdout", arguments: [10_000, 600_000])
    func encryptUnreadableInput(iterations: Int) throws {
        let result = try Tools.seccli(
            [
                "encrypt", "--password", "env:P", "--iter", "\(iterations)", "--in",
                "/nonexistent-seccli-test/plain.txt",
            ],
            environment: ["P": "pw"]
        )
        #expect(result.status == 1)
        #expect(
            result.stderr.hasSuffix("seccli: /nonexistent-seccli-test/plain.txt: No such file or directory\n"),
            "\(result.stderr)"
        )
        #expect(result.stdout.isEmpty, "\(result.stdout.count) bytes on stdout")
        expectOneLine(result.stderr)
    }

    // MARK: - Bad options and data

    struct BadCall: Sendable, CustomTestStringConvertible {
        var label: String
        var arguments: [String]
        var stdin: [UInt8]? = nil
        var status: Int32
        /// Text the message must contain.
        var mentions: String
        /// Must appear nowhere in the output.
        var secret: String? = nil
        var testDescription: String { label }
    }

    static let secret = "hunter2"
    static let badEnvironment: [String: String] = [
        "P": "pw", "K16": hexString(randomBytes(16)), "K24": hexString(randomBytes(24)),
        "K32": hexString(randomBytes(32)),
        "BADKEY": "00\(secret)00",
    ]
    static let iv16 = hexString(randomBytes(16)), iv12 = hexString(randomBytes(12))

    static let badCalls: [BadCall] = [
        // Bad data: 2.
        .init(
            label: "non-hex --iv (CBC)",
            arguments: [
                "encrypt", "--cipher", "aes-128-cbc", "--key", "env:K16", "--iv", "00112233445566778899aabbccddeezz",
                "--in", "plain.txt",
            ],
            status: 2,
            mentions: "--iv"
        ),
        .init(
            label: "non-hex --iv (GCM)",
            arguments: [
                "decrypt", "--cipher", "aes-256-gcm", "--key", "env:K32", "--iv", "nonce", "--in", "plain.txt",
            ],
            status: 2,
            mentions: "--iv"
        ),
        .init(
            label: "8-byte IV for aes-128-cbc",
            arguments: [
                "decrypt", "--cipher", "aes-128-cbc", "--key", "env:K16", "--iv", "0011223344556677", "--in",
                "plain.txt",
            ],
            status: 2,
            mentions: "16 bytes"
        ),
        .init(
            label: "16-byte IV for des-ede3-cbc",
            arguments: ["encrypt", "--cipher", "des-ede3-cbc", "--key", "env:K24", "--iv", iv16, "--in", "plain.txt"],
            status: 2,
            mentions: "8 bytes"
        ),
        .init(
            label: "empty GCM nonce",
            arguments: ["encrypt", "--cipher", "aes-128-gcm", "--key", "env:K16", "--iv", "", "--in", "plain.txt"],
            status: 2,
            mentions: "nonce"
        ),
        .init(
            label: "16-byte key for aes-256-cbc",
            arguments: ["encrypt", "--cipher", "aes-256-cbc", "--key", "env:K16", "--iv", iv16, "--in", "plain.txt"],
            status: 2,
            mentions: "32 bytes"
        ),
        .init(
            label: "24-byte key for des-ede-cbc",
            arguments: [
                "decrypt", "--cipher", "des-ede-cbc", "--key", "env:K24", "--iv", "0011223344556677", "--in",
                "plain.txt",
            ],
            status: 2,
            mentions: "16 bytes"
        ),
        .init(
            label: "32-byte key for aes-128-gcm",
            arguments: ["decrypt", "--cipher", "aes-128-gcm", "--key", "env:K32", "--iv", iv12, "--in", "plain.txt"],
            status: 2,
            mentions: "16 bytes"
        ),
        .init(
            label: "key that is not hex",
            arguments: ["encrypt", "--key", "env:BADKEY", "--iv", iv12, "--in", "plain.txt"],
            status: 2,
            mentions: "hex",
            secret: secret
        ),
        .init(
            label: "unset environment variable",
            arguments: ["decrypt", "--password", "env:SECCLI_TEST_UNSET_PASSWORD", "--in", "plain.txt"],
            status: 2,
            mentions: "SECCLI_TEST_UNSET_PASSWORD is not set"
        ),
        .init(
            label: "-a input that is not base64: the input is at fault (1), not the options",
            arguments: ["decrypt", "-a", "--password", "env:P", "--in", "plain.txt"],
            status: 1,
            mentions: "the input is not valid base64"
        ),
        // Unreadable input: 1.
        .init(
            label: "missing --in file",
            arguments: ["decrypt", "--password", "env:P", "--in", "missing.enc"],
            status: 1,
            mentions: "missing.enc: No such file or directory"
        ),
        // Usage: 64.
        .init(
            label: "unknown cipher",
            arguments: ["encrypt", "--cipher", "aes-512-cbc", "--password", "env:P", "--in", "plain.txt"],
            status: 64,
            mentions: "aes-512-cbc"
        ),
        .init(
            label: "--password with a GCM cipher (encrypt)",
            arguments: ["encrypt", "--cipher", "aes-256-gcm", "--password", "env:P", "--in", "plain.txt"],
            status: 64,
            mentions: "GCM"
        ),
        .init(
            label: "--password with a GCM cipher (decrypt)",
            arguments: ["decrypt", "--cipher", "aes-128-gcm", "--password", "env:P", "--in", "plain.txt"],
            status: 64,
            mentions: "GCM"
        ),
        .init(
            label: "--password and --key",
            arguments: ["encrypt", "--password", "env:P", "--key", "env:K32", "--iv", iv12, "--in", "plain.txt"],
            status: 64,
            mentions: "--password and --key"
        ),
        .init(
            label: "--password with --iv",
            arguments: ["decrypt", "--password", "env:P", "--iv", iv16, "--in", "plain.txt"],
            status: 64,
            mentions: "--iv"
        ),
        .init(
            label: "--key without --iv",
            arguments: ["encrypt", "--key", "env:K32", "--in", "plain.txt"],
            status: 64,
            mentions: "--iv"
        ),
        .init(
            label: "neither --password nor --key",
            arguments: ["decrypt", "--in", "plain.txt"],
            status: 64,
            mentions: "--password"
        ),
        .init(
            label: "-A without -a",
            arguments: ["encrypt", "-A", "--password", "env:P", "--in", "plain.txt"],
            status: 64,
            mentions: "-A"
        ),
        .init(
            label: "--iter 0",
            arguments: ["encrypt", "--iter", "0", "--password", "env:P", "--in", "plain.txt"],
            status: 64,
            mentions: "--iter"
        ),
        .init(
            label: "--md md5",
            arguments: ["encrypt", "--md", "md5", "--password", "env:P", "--in", "plain.txt"],
            status: 64,
            mentions: "md5"
        ),
        // The secret and the data cannot both be standard input.
        .init(
            label: "--password stdin, data on stdin",
            arguments: ["decrypt", "--password", "stdin"],
            stdin: Array("\(secret)\nSalted__01234567".utf8),
            status: 64,
            mentions: "standard input",
            secret: secret
        ),
        .init(
            label: "--key fd:0, --in -",
            arguments: ["encrypt", "--key", "fd:0", "--iv", iv12, "--in", "-"],
            stdin: Array("\(secret)\nthe data".utf8),
            status: 64,
            mentions: "standard input",
            secret: secret
        ),
        // Literal secrets are refused and not echoed.
        .init(
            label: "encrypt --password LITERAL",
            arguments: ["encrypt", "--password", secret, "--in", "plain.txt"],
            status: 64,
            mentions: "not accepted on the command line",
            secret: secret
        ),
        .init(
            label: "decrypt --password=LITERAL",
            arguments: ["decrypt", "--password=\(secret)", "--in", "plain.txt"],
            status: 64,
            mentions: "not accepted on the command line",
            secret: secret
        ),
        .init(
            label: "encrypt --password pass:LITERAL",
            arguments: ["encrypt", "--password", "pass:\(secret)", "--in", "plain.txt"],
            status: 64,
            mentions: "pass:",
            secret: secret
        ),
        .init(
            label: "decrypt --key LITERAL",
            arguments: ["decrypt", "--key", secret, "--iv", iv12, "--in", "plain.txt"],
            status: 64,
            mentions: "not accepted on the command line",
            secret: secret
        ),
    ]

    @Test("bad options and data: one line, the documented exit code, no output file, no secret", arguments: badCalls)
    func badCall(_ call: BadCall) throws {
        try withScratch { dir in
            try dir.write("plain.txt", fixedText(100))
            let result = try Tools.seccli(
                call.arguments + ["--out", "out.enc"],
                stdin: call.stdin,
                environment: Self.badEnvironment,
                in: dir
            )
            #expect(result.stdout.isEmpty, "stdout: \(result.stdoutText)")
            expectOneLine(result.stderr)
            #expect(result.status == call.status, "exit code; stderr: \(result.stderr)")
            #expect(result.stderr.contains(call.mentions), "stderr: \(result.stderr)")
            if let secret = call.secret {
                #expect(
                    !result.stderr.contains(secret) && !result.stdoutText.contains(secret),
                    "the secret is echoed: \(result.stderr)"
                )
            }
            #expect(try directoryEntries(dir) == ["plain.txt"], "no output (or temporary) file")
        }
    }
}

/// Bytes from hex (test constants only).
private func hexBytes(_ hex: String) -> [UInt8] {
    let digits = Array(hex.utf8)
    return stride(from: 0, to: digits.count, by: 2).map {
        UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)!
    }
}
