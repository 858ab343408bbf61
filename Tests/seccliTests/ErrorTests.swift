import Foundation
import TestSupport
import Testing

/// Refused secrets, unreadable keys and inputs, usage errors: one `seccli: ` line, the documented
/// exit code (1 input/check, 2 bad data, 64 usage), and never the secret itself.
@Suite("seccli errors")
struct ErrorTests {
    struct ErrorCase: Sendable, CustomTestStringConvertible {
        var label: String
        var arguments: [String]
        var stdin: [UInt8]? = nil
        var environment: [String: String] = [:]
        var status: Int32
        /// Text the message must contain.
        var mentions: String
        /// A secret that must appear nowhere in the output.
        var secret: String? = nil

        var testDescription: String { label }
    }

    static let secret = "hunter2"
    static let unsetVariable = unsetVariableName()

    static let cases: [ErrorCase] = [
        // Secrets are never taken from argv, and the refusal does not echo them.
        .init(
            label: "--key LITERAL",
            arguments: ["hmac", "--key", secret, "/dev/null"],
            status: 64,
            mentions: "not accepted on the command line",
            secret: secret
        ),
        .init(
            label: "--key=LITERAL",
            arguments: ["hmac", "--key=\(secret)", "/dev/null"],
            status: 64,
            mentions: "not accepted on the command line",
            secret: secret
        ),
        .init(
            label: "--key pass:LITERAL",
            arguments: ["hmac", "--key", "pass:\(secret)", "/dev/null"],
            status: 64,
            mentions: "pass:",
            secret: secret
        ),
        .init(
            label: "--key LITERAL before another error",
            arguments: ["hmac", "--key", secret, "--bogus", "/dev/null"],
            status: 64,
            mentions: "not accepted",
            secret: secret
        ),
        // The key and the data cannot both be standard input.
        .init(
            label: "--key stdin, data on stdin (no FILE)",
            arguments: ["hmac", "--key", "stdin"],
            stdin: Array("\(secret)\nthe data\n".utf8),
            status: 64,
            mentions: "standard input",
            secret: secret
        ),
        .init(
            label: "--key stdin, data on stdin (-)",
            arguments: ["hmac", "--key", "stdin", "-"],
            stdin: Array("\(secret)\nthe data\n".utf8),
            status: 64,
            mentions: "standard input",
            secret: secret
        ),
        .init(
            label: "--key fd:0, data on stdin",
            arguments: ["hmac", "--key", "fd:0"],
            stdin: Array("\(secret)\nthe data\n".utf8),
            status: 64,
            mentions: "standard input",
            secret: secret
        ),
        // Key sources that cannot be read.
        .init(
            label: "unset environment variable",
            arguments: ["hmac", "--key", "env:\(unsetVariable)", "/dev/null"],
            status: 2,
            mentions: "environment variable \(unsetVariable) is not set"
        ),
        .init(
            label: "env: without a name",
            arguments: ["hmac", "--key", "env:", "/dev/null"],
            status: 64,
            mentions: "env:"
        ),
        .init(
            label: "missing key file",
            arguments: ["hmac", "--key", "file:/nonexistent-seccli-test/key", "/dev/null"],
            status: 2,
            mentions: "cannot read secret from file:/nonexistent-seccli-test/key: No such file or directory"
        ),
        .init(
            label: "key file is a directory",
            arguments: ["hmac", "--key", "file:/", "/dev/null"],
            status: 2,
            mentions: "cannot read secret from file:/: Is a directory"
        ),
        .init(
            label: "descriptor not open",
            arguments: ["hmac", "--key", "fd:37", "/dev/null"],
            status: 2,
            mentions: "cannot read secret from fd:37: Bad file descriptor"
        ),
        .init(
            label: "fd: without a number",
            arguments: ["hmac", "--key", "fd:three", "/dev/null"],
            status: 64,
            mentions: "fd:"
        ),
        // Keys that do not decode: the message names the problem, not the key.
        .init(
            label: "bad hex key",
            arguments: ["hmac", "--key", "env:K", "--key-format", "hex", "/dev/null"],
            environment: ["K": "00\(secret)"],
            status: 2,
            mentions: "hex",
            secret: secret
        ),
        .init(
            label: "odd-length hex key",
            arguments: ["hmac", "--key", "env:K", "--key-format", "hex", "/dev/null"],
            environment: ["K": "abcde"],
            status: 2,
            mentions: "hex",
            secret: "abcde"
        ),
        .init(
            label: "bad base64 key",
            arguments: ["hmac", "--key", "env:K", "--key-format", "base64", "/dev/null"],
            environment: ["K": "\(secret)!!"],
            status: 2,
            mentions: "base64",
            secret: secret
        ),
        // Usage errors.
        .init(label: "no --key", arguments: ["hmac", "/dev/null"], status: 64, mentions: "--key"),
        .init(
            label: "unknown --key-format",
            arguments: ["hmac", "--key", "env:K", "--key-format", "pem", "/dev/null"],
            environment: ["K": "k"],
            status: 64,
            mentions: "--key-format"
        ),
        .init(
            label: "--verify not a MAC",
            arguments: ["hmac", "--key", "env:K", "--verify", "xyz", "/dev/null"],
            environment: ["K": "k"],
            status: 64,
            mentions: "--verify"
        ),
        .init(
            label: "--verify with the wrong length",
            arguments: ["hmac", "--key", "env:K", "--verify", "00ff", "/dev/null"],
            environment: ["K": "k"],
            status: 64,
            mentions: "--verify"
        ),
        .init(
            label: "--verify with two inputs",
            arguments: [
                "hmac", "--key", "env:K", "--verify", String(repeating: "0", count: 64), "/dev/null", "/dev/null",
            ],
            environment: ["K": "k"],
            status: 64,
            mentions: "--verify"
        ),
        .init(
            label: "--quiet without --check",
            arguments: ["hash", "--quiet", "/dev/null"],
            status: 64,
            mentions: "--quiet"
        ),
        .init(
            label: "--check with FILE arguments",
            arguments: ["hash", "--check", "/dev/null", "/dev/null"],
            status: 64,
            mentions: "--check"
        ),
        .init(
            label: "--check with --json",
            arguments: ["hash", "--json", "--check", "/dev/null"],
            status: 64,
            mentions: "--check"
        ),
        .init(label: "unknown option", arguments: ["hash", "--bogus"], status: 64, mentions: "--bogus"),
        // ArgumentParser lists the valid values on several lines; seccli joins them into one.
        .init(
            label: "unknown algorithm",
            arguments: ["hash", "-a", "sha3", "/dev/null"],
            status: 64,
            mentions: "sha512"
        ),
    ]

    @Test("one line on stderr, the documented exit code, no secret", arguments: cases)
    func error(_ errorCase: ErrorCase) throws {
        let result = try Tools.seccli(errorCase.arguments, stdin: errorCase.stdin, environment: errorCase.environment)
        expectOneLineError(result, status: errorCase.status)
        #expect(result.stderr.contains(errorCase.mentions), "stderr: \(result.stderr)")
        if let secret = errorCase.secret {
            #expect(!result.stderr.contains(secret), "the secret is echoed: \(result.stderr)")
            #expect(!result.stdoutText.contains(secret))
        }
    }

    enum Command: String, CaseIterable, Sendable {
        case hash, hmac
    }

    enum BadInput: String, CaseIterable, Sendable {
        case missingFile, directory
        var name: String { self == .missingFile ? "missing.txt" : "subdir" }
        var reason: String { self == .missingFile ? "No such file or directory" : "Is a directory" }
    }

    @Test(
        "an unreadable input among several: the others are still done, one message, exit 1",
        arguments: Command.allCases,
        BadInput.allCases
    )
    func unreadableInputAmongOthers(_ command: Command, bad: BadInput) throws {
        try withScratch { dir in
            try dir.write("first.txt", randomBytes(100))
            try dir.write("last.txt", randomBytes(100_000))
            if bad == .directory {
                try FileManager.default.createDirectory(atPath: dir.path(bad.name), withIntermediateDirectories: false)
            }
            let inputs = ["first.txt", bad.name, "last.txt"]

            let ours: ProcessResult
            let expectedStdout: String
            switch command {
            case .hash:
                ours = try Tools.seccli(["hash"] + inputs, in: dir)
                let reference = try Tools.referenceAllowingFailure("sha256sum", inputs, in: dir)
                #expect(reference.status == 1)
                #expect(ours.stderr == asSeccliMessages(reference.stderr, from: "sha256sum"))
                expectedStdout = reference.stdoutText
            case .hmac:
                ours = try Tools.seccli(["hmac", "--key", "env:K"] + inputs, environment: ["K": "key"], in: dir)
                expectedStdout = try ["first.txt", "last.txt"].map {
                    "\(try Tools.opensslHex(["-sha256", "-hmac", "key", $0], in: dir))  \($0)\n"
                }.joined()
            }
            #expect(ours.status == 1)
            #expect(ours.stdoutText == expectedStdout)
            #expect(ours.stdoutLines.count == 2)
            #expect(ours.stderr == "seccli: \(bad.name): \(bad.reason)\n")
        }
    }
}
