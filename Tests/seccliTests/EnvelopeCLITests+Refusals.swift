import Foundation
import TestSupport
import Testing

/// The sealed formats' refusals: wrong keys, passwords and altered tokens, bad options and bad
/// data; the documented exit code, one `seccli: ` line, nothing on standard output, `--out` untouched.
extension EnvelopeCLITests {
    /// A token sealed with the right secrets, and the options to open it with the right or a wrong one.
    enum Sealed: String, CaseIterable, Sendable {
        case jweDirect = "jwe dir (hex key)"
        case jweKeyWrap = "jwe A256KW (JWK file)"
        case jwePassword = "jwe PBES2 (password)"
        case fernet
        case legacyKey = "legacy-json (wrong key)"
        case legacyMACKey = "legacy-json (wrong MAC key)"

        static let environment: [String: String] = [
            "K": hexString(randomBytes(32)), "WRONG_K": hexString(randomBytes(32)),
            "P": "correct horse battery staple", "WRONG_P": "correct horse battery staple!",
            "FK": fernetKey(), "WRONG_FK": fernetKey(),
            "LK": randomPrintable(32), "WRONG_LK": randomPrintable(32), "MK": randomPrintable(16),
            "WRONG_MK": randomPrintable(16),
        ]

        /// Writes the key files the options name into `dir`.
        func prepare(_ dir: Scratch) throws {
            guard self == .jweKeyWrap else { return }
            _ = try EnvelopeCLITests.keygenJWK("right.jwk", in: dir)
            _ = try EnvelopeCLITests.keygenJWK("wrong.jwk", in: dir)
        }

        func options(wrong: Bool = false) -> [String] {
            let w = wrong ? "WRONG_" : ""
            return switch self {
            case .jweDirect: ["--format", "jwe", "--key", "env:\(w)K", "--key-format", "hex"]
            case .jweKeyWrap:
                ["--format", "jwe", "--alg", "A256KW", "--key", wrong ? "file:wrong.jwk" : "file:right.jwk"]
            case .jwePassword: ["--format", "jwe", "--password", "env:\(w)P"]
            case .fernet: ["--format", "fernet", "--key", "env:\(w)FK"]
            case .legacyKey: ["--format", "legacy-json", "--key", "env:\(w)LK", "--mac-key", "env:MK"]
            case .legacyMACKey: ["--format", "legacy-json", "--key", "env:LK", "--mac-key", "env:\(w)MK"]
            }
        }

        /// Seals `plaintext` into `name` with seccli, and checks that it opens with the right secret.
        func seal(
            _ plaintext: [UInt8],
            to name: String,
            in dir: Scratch,
            sourceLocation: SourceLocation = #_sourceLocation
        ) throws -> String {
            try prepare(dir)
            let token = try EnvelopeCLITests.tokenLine(
                try Tools.seccli(
                    ["encrypt"] + options(),
                    stdin: plaintext,
                    environment: Self.environment,
                    in: dir,
                    expecting: .success,
                    sourceLocation: sourceLocation
                ),
                sourceLocation: sourceLocation
            )
            try dir.write(name, token + "\n")
            let opened = try Tools.seccli(
                ["decrypt"] + options() + ["--in", name],
                environment: Self.environment,
                in: dir,
                expecting: .success,
                sourceLocation: sourceLocation
            )
            try #require(
                opened.stdout == plaintext,
                "the fixture itself does not decrypt",
                sourceLocation: sourceLocation
            )
            return token
        }
    }

    @Test(
        "a wrong key, password or MAC key: exit 1, the same one-line message for every format, no output, --out untouched",
        arguments: Sealed.allCases
    )
    func wrongSecret(_ sealed: Sealed) throws {
        try withScratch { dir in
            _ = try sealed.seal(fixedText(500), to: "token", in: dir)
            let message = try expectRefused(
                ["decrypt"] + sealed.options(wrong: true) + ["--in", "token"],
                environment: Sealed.environment,
                in: dir,
                status: 1
            )
            #expect(message == Self.authenticationFailed)
        }
    }

    @Test(
        "one character flipped in the middle of the token (of the payload for legacy-json): exit 1, the same message, no output",
        arguments: [Sealed.jweKeyWrap, .fernet, .legacyKey]
    )
    func tamperedToken(_ sealed: Sealed) throws {
        try withScratch { dir in
            let token = try sealed.seal(fixedText(500), to: "token", in: dir)
            let tampered: String
            if sealed == .legacyKey {
                var envelope = try #require(try JSONSerialization.jsonObject(with: Data(token.utf8)) as? [String: Any])
                envelope["payload"] = flipMiddleCharacter(try #require(envelope["payload"] as? String))
                tampered = String(decoding: try JSONSerialization.data(withJSONObject: envelope), as: UTF8.self)
            } else {
                tampered = flipMiddleCharacter(token)
            }
            try dir.write("tampered", tampered)
            let message = try expectRefused(
                ["decrypt"] + sealed.options() + ["--in", "tampered"],
                environment: Sealed.environment,
                in: dir,
                status: 1
            )
            #expect(message == Self.authenticationFailed)
        }
    }

    // MARK: - Bad options and data

    struct BadCall: Sendable, CustomTestStringConvertible {
        var label: String
        var arguments: [String]
        var input = "plain.txt"
        var status: Int32
        /// Text the message must contain.
        var mentions: [String]
        var testDescription: String { label }
    }

    static let badEnvironment: [String: String] = [
        "K": hexString(randomBytes(32)), "P": "pw", "FK": fernetKey(), "FK2": fernetKey(),
        "SHORT_FK": base64URLEncode(randomBytes(16)), "LK": randomPrintable(32), "MK": randomPrintable(16),
    ]
    static let jweHex = ["--format", "jwe", "--key", "env:K", "--key-format", "hex"]

    static let badCalls: [BadCall] = [
        // Usage: 64.
        .init(
            label: "--iv with --format jwe",
            arguments: ["encrypt"] + jweHex + ["--iv", "00112233445566778899aabb"],
            status: 64,
            mentions: ["--iv"]
        ),
        .init(
            label: "--cipher with --format jwe",
            arguments: ["decrypt"] + jweHex + ["--cipher", "aes-256-gcm"],
            status: 64,
            mentions: ["--cipher"]
        ),
        .init(label: "-a with --format jwe", arguments: ["encrypt"] + jweHex + ["-a"], status: 64, mentions: ["-a"]),
        .init(
            label: "--ttl with encrypt",
            arguments: ["encrypt", "--format", "fernet", "--key", "env:FK", "--ttl", "60"],
            status: 64,
            mentions: ["--ttl"]
        ),
        .init(
            label: "--kid with decrypt",
            arguments: ["decrypt"] + jweHex + ["--kid", "k1"],
            status: 64,
            mentions: ["--kid"]
        ),
        .init(
            label: "--format legacy-json without --mac-key",
            arguments: ["encrypt", "--format", "legacy-json", "--key", "env:LK"],
            status: 64,
            mentions: ["--mac-key"]
        ),
        .init(
            label: "--format fernet with --password",
            arguments: ["encrypt", "--format", "fernet", "--password", "env:P"],
            status: 64,
            mentions: ["--password"]
        ),
        .init(
            label: "--key-format jwk with --format fernet",
            arguments: ["decrypt", "--format", "fernet", "--key", "env:FK", "--key-format", "jwk"],
            status: 64,
            mentions: ["jwk"]
        ),
        .init(
            label: "two --key to encrypt",
            arguments: ["encrypt", "--format", "fernet", "--key", "env:FK", "--key", "env:FK2"],
            status: 64,
            mentions: ["--key"]
        ),
        .init(
            label: "--mac-key with --format jwe",
            arguments: ["encrypt"] + jweHex + ["--mac-key", "env:LK"],
            status: 64,
            mentions: ["--mac-key"]
        ),
        .init(
            label: "--alg A256KW with --password",
            arguments: ["encrypt", "--format", "jwe", "--password", "env:P", "--alg", "A256KW"],
            status: 64,
            mentions: ["A256KW"]
        ),
        // Bad data: 2.
        .init(
            label: "a file that is not a JWK with --format jwe",
            arguments: ["encrypt", "--format", "jwe", "--key", "file:not-a-jwk.txt"],
            status: 2,
            mentions: ["--key"]
        ),
        .init(
            label: "a 16-byte Fernet key",
            arguments: ["encrypt", "--format", "fernet", "--key", "env:SHORT_FK"],
            status: 2,
            mentions: ["--key", "32 bytes"]
        ),
        // Input that cannot be decrypted: 1.
        .init(
            label: "a JWE with alg none",
            arguments: ["decrypt"] + jweHex,
            input: "none.jwe",
            status: 1,
            mentions: ["none"]
        ),
    ]

    @Test(
        "bad options or data: the documented exit code, one line, no output, --out untouched, no temporary file",
        arguments: badCalls
    )
    func badCall(_ call: BadCall) throws {
        try withScratch { dir in
            try dir.write("plain.txt", fixedText(100))
            try dir.write("not-a-jwk.txt", hexString(randomBytes(32)) + "\n")
            // Hand-made: header {"alg":"none","enc":"A256GCM"}, then four empty parts.
            try dir.write(
                "none.jwe",
                base64URLEncode(Array(#"{"alg":"none","enc":"A256GCM"}"#.utf8), padded: false) + "....\n"
            )
            try expectRefused(
                call.arguments + ["--in", call.input],
                environment: Self.badEnvironment,
                in: dir,
                status: call.status,
                mentions: call.mentions
            )
        }
    }

    @Test(
        "input over 64 MiB with --format jwe: refused at once (exit 1, one line naming the limit), no output, --out untouched"
    )
    func oversizedInput() throws {
        try withScratch { dir in
            // Sparse: no disk space, and reading it costs little.
            try dir.write("huge.bin", [])
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: dir.path("huge.bin")))
            try handle.truncate(atOffset: UInt64(64 << 20) + 1)
            try handle.close()
            let started = ContinuousClock.now
            try expectRefused(
                ["encrypt"] + Self.jweHex + ["--in", "huge.bin"],
                environment: Self.badEnvironment,
                in: dir,
                status: 1,
                mentions: ["huge.bin", "64 MiB"]
            )
            let elapsed = ContinuousClock.now - started
            #expect(elapsed < .seconds(10), "refusing 64 MiB took \(elapsed)")
        }
    }
}
