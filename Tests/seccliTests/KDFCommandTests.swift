import Foundation
import TestSupport
import Testing

/// `seccli kdf` against Python's `hashlib.pbkdf2_hmac`, `--calibrate`, and its usage errors.
@Suite("seccli kdf")
struct KDFCommandTests {
    /// `python3 -c pbkdf2Script PRF SALTHEX ITER LENGTH...` prints one hex key per length; the
    /// password is the environment variable P.
    static let pbkdf2Script = """
        import hashlib, os, sys
        prf, salt, iterations, *lengths = sys.argv[1:]
        password = os.environb[b"P"]
        for length in lengths:
            print(hashlib.pbkdf2_hmac(prf, password, bytes.fromhex(salt), int(iterations), int(length)).hex())
        """

    static func python(prf: PRF, password: String, salt: String, iterations: Int, lengths: [Int]) throws -> [String] {
        try Tools.python(
            pbkdf2Script,
            [prf.rawValue, salt, "\(iterations)"] + lengths.map(String.init),
            environment: ["P": password]
        ).stdoutLines
    }

    static let lengths = [1, 20, 32, 64, 100]

    @Test(
        "equals hashlib.pbkdf2_hmac for 1, 20, 32, 64 and 100 bytes; one warning line below the recommended count",
        arguments: PRF.allCases
    )
    func matchesPython(_ prf: PRF) throws {
        let password = randomPrintable(20)
        let salt = hexString(randomBytes(16))
        let iterations = 1000
        let expected = try Self.python(
            prf: prf,
            password: password,
            salt: salt,
            iterations: iterations,
            lengths: Self.lengths
        )
        try #require(expected.count == Self.lengths.count)
        for (length, expectedKey) in zip(Self.lengths, expected) {
            let result = try Tools.seccli(
                [
                    "kdf", "--password", "env:P", "--salt", salt, "--iter", "\(iterations)", "--prf", prf.rawValue,
                    "--length", "\(length)",
                ],
                environment: ["P": password]
            )
            #expect(result.status == 0, "length \(length): \(result.stderr)")
            #expect(result.stdoutLines == [expectedKey], "length \(length)")
            expectOneWarning(result.stderr)
        }
    }

    struct Threshold: Sendable, CustomTestStringConvertible {
        var prf: PRF
        var iterations: Int
        var testDescription: String { "\(prf.rawValue) --iter \(iterations)" }
    }

    @Test(
        "a warning just below the recommended count, none at it; the default PRF is sha256 and the default length 32",
        arguments: [
            Threshold(prf: .sha512, iterations: 209_999), Threshold(prf: .sha512, iterations: 210_000),
            Threshold(prf: .sha256, iterations: 600_000),
        ]
    )
    func warningThreshold(_ threshold: Threshold) throws {
        let password = randomPrintable(12)
        let salt = hexString(randomBytes(8))
        var arguments = ["kdf", "--password", "env:P", "--salt", salt, "--iter", "\(threshold.iterations)"]
        if threshold.prf != .sha256 { arguments += ["--prf", threshold.prf.rawValue] }
        let result = try Tools.seccli(arguments, environment: ["P": password])
        #expect(result.status == 0, "\(result.stderr)")
        let expected = try Self.python(
            prf: threshold.prf,
            password: password,
            salt: salt,
            iterations: threshold.iterations,
            lengths: [32]
        )
        #expect(result.stdoutLines == expected)
        if threshold.iterations < threshold.prf.recommendedMinimum {
            expectOneWarning(result.stderr)
            #expect(result.stderr.contains("\(threshold.iterations)"))
        } else {
            #expect(result.stderr.isEmpty)
        }
    }

    enum PasswordSource: String, CaseIterable, Sendable {
        case environment, file, descriptor3, standardInput
    }

    @Test(
        "the password is read from env:, file:, fd:3 and stdin (first line); an empty salt is allowed",
        arguments: PasswordSource.allCases
    )
    func passwordSources(_ source: PasswordSource) throws {
        try withScratch { dir in
            let password = randomPrintable(30)
            let firstLine = Array(password.utf8) + Array("\nnot the password\n".utf8)
            var sourceArgument = "env:P"
            var stdin: [UInt8]?
            var extraInput: ProcessRunner.ExtraInput?
            switch source {
            case .environment: break
            case .file: sourceArgument = "file:\(try dir.write("password.txt", firstLine))"
            case .descriptor3:
                sourceArgument = "fd:3"
                extraInput = .init(descriptor: 3, bytes: firstLine)
            case .standardInput:
                sourceArgument = "stdin"
                stdin = firstLine
            }
            for salt in ["", hexString(randomBytes(32))] {
                let result = try Tools.seccli(
                    ["kdf", "--password", sourceArgument, "--salt", salt, "--iter", "2", "--length", "40"],
                    stdin: stdin,
                    environment: ["P": password],
                    extraInput: extraInput
                )
                #expect(result.status == 0, "\(result.stderr)")
                let expected = try Self.python(
                    prf: .sha256,
                    password: password,
                    salt: salt,
                    iterations: 2,
                    lengths: [40]
                )
                #expect(result.stdoutLines == expected, "salt \(salt.debugDescription)")
            }
        }
    }

    @Test("--calibrate 100ms prints one positive integer", arguments: [PRF.sha256, .sha512])
    func calibrate(_ prf: PRF) throws {
        let result = try Tools.seccli(["kdf", "--calibrate", "100ms", "--prf", prf.rawValue])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let lines = result.stdoutLines
        #expect(lines.count == 1, "stdout: \(result.stdoutText.debugDescription)")
        let count = try #require(
            lines.first.flatMap { Int($0) },
            "not an integer: \(result.stdoutText.debugDescription)"
        )
        #expect(count > 0)
    }

    struct BadCall: Sendable, CustomTestStringConvertible {
        var label: String
        var arguments: [String]
        var mentions: String
        var testDescription: String { label }
    }

    static let badCalls: [BadCall] = [
        .init(
            label: "--salt not hex",
            arguments: ["--password", "env:P", "--salt", "zz", "--iter", "1"],
            mentions: "--salt"
        ),
        .init(
            label: "--salt odd length",
            arguments: ["--password", "env:P", "--salt", "abc", "--iter", "1"],
            mentions: "--salt"
        ),
        .init(
            label: "--prf md5",
            arguments: ["--password", "env:P", "--salt", "00", "--iter", "1", "--prf", "md5"],
            mentions: "md5"
        ),
        .init(
            label: "--prf unknown",
            arguments: ["--password", "env:P", "--salt", "00", "--iter", "1", "--prf", "sha3"],
            mentions: "sha3"
        ),
        .init(
            label: "--length 0",
            arguments: ["--password", "env:P", "--salt", "00", "--iter", "1", "--length", "0"],
            mentions: "--length"
        ),
        .init(
            label: "--length -1",
            arguments: ["--password", "env:P", "--salt", "00", "--iter", "1", "--length=-1"],
            mentions: "--length"
        ),
        .init(
            label: "--iter 0",
            arguments: ["--password", "env:P", "--salt", "00", "--iter", "0"],
            mentions: "--iter"
        ),
        .init(label: "no --salt", arguments: ["--password", "env:P", "--iter", "1"], mentions: "--salt"),
        .init(label: "no --iter", arguments: ["--password", "env:P", "--salt", "00"], mentions: "--iter"),
        .init(label: "no --password", arguments: ["--salt", "00", "--iter", "1"], mentions: "--password"),
        .init(label: "no options", arguments: [], mentions: "--calibrate"),
        .init(
            label: "--calibrate with --password",
            arguments: ["--calibrate", "100ms", "--password", "env:P"],
            mentions: "--calibrate"
        ),
        .init(label: "--calibrate 0ms", arguments: ["--calibrate", "0ms"], mentions: "--calibrate"),
        .init(label: "--calibrate soon", arguments: ["--calibrate", "soon"], mentions: "--calibrate"),
        .init(
            label: "--password LITERAL",
            arguments: ["--password", "hunter2", "--salt", "00", "--iter", "1"],
            mentions: "not accepted"
        ),
    ]

    @Test("usage errors: one line, exit 64", arguments: badCalls)
    func badCall(_ call: BadCall) throws {
        let result = try Tools.seccli(["kdf"] + call.arguments, environment: ["P": "pw"])
        expectOneLineError(result, status: 64)
        #expect(result.stderr.contains(call.mentions), "stderr: \(result.stderr)")
        #expect(!result.stderr.contains("hunter2"))
    }

    @Test(
        "an unset password variable: exit 2 and one line, with or without the low-count warning",
        arguments: [1, 600_000]
    )
    func unsetPassword(iterations: Int) throws {
        let result = try Tools.seccli([
            "kdf", "--password", "env:\(unsetVariableName())", "--salt", "00", "--iter", "\(iterations)",
        ])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasSuffix(" is not set\n"), "\(result.stderr)")
        expectOneLine(result.stderr)
    }
}
