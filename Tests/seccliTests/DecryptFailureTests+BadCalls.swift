import Foundation
import TestSupport
import Testing

/// Bad options and bad data: one line, the documented exit code, no output file, no secret.
extension DecryptFailureTests {
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
