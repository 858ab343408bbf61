import Foundation
import TestSupport
import Testing

/// Wrong secrets, altered and truncated files, bad options: the documented exit code (1 failed
/// check, 2 bad data, 64 usage), exactly one `seccli: ` line, nothing on standard output, and no
/// output file. Fixture files are made the same way on every run (fixed secrets and salt, text
/// plaintext), so whether a CBC padding check passes never depends on luck. The tests are in
/// DecryptFailureTests+FailedChecks, +OutputAfterVerification and +BadCalls; here are the suite, its
/// fixtures and its checks.
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
}

/// Bytes from hex (test constants only).
private func hexBytes(_ hex: String) -> [UInt8] {
    let digits = Array(hex.utf8)
    return stride(from: 0, to: digits.count, by: 2).map {
        UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)!
    }
}
