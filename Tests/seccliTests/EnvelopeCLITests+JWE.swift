import Foundation
import TestSupport
import Testing

/// `--format jwe` against joserfc (Tests/Peers/jose_peer.py): keys both ways, PBES2 passwords and
/// their iteration counts, `kid` in the header, several keys and JWK Sets, `--alg`/`--enc` on decrypt.
extension EnvelopeCLITests {
    enum KeyForm: String, Sendable {
        /// A JWK file from `seccli keygen --format jwe-oct --out` (the default --key-format for jwe).
        case jwkFile
        /// Hex in an environment variable, with --key-format hex.
        case hex
    }

    struct JWEKeyCase: Sendable, CustomTestStringConvertible {
        var alg: String
        var enc: String
        /// The key size: the content key for dir, the wrapping key for AxxxKW.
        var keyBits: Int
        var form: KeyForm
        /// The plaintext size.
        var size: Int
        var testDescription: String { "\(alg)+\(enc), key as \(form.rawValue), \(size) bytes" }
        /// seccli's defaults are dir and A256GCM: options only for the others.
        var seccliOptions: [String] {
            (alg == "dir" ? [] : ["--alg", alg]) + (enc == "A256GCM" ? [] : ["--enc", enc])
        }

        /// The key in hex (for joserfc), and the seccli options and environment that give it.
        func makeKey(in dir: Scratch) throws -> (hex: String, options: [String], environment: [String: String]) {
            switch form {
            case .jwkFile:
                return (
                    try EnvelopeCLITests.keygenJWK("key.jwk", bits: keyBits, in: dir).hex, ["--key", "file:key.jwk"],
                    [:]
                )
            case .hex:
                let hex = hexString(randomBytes(keyBits / 8))
                return (hex, ["--key", "env:K", "--key-format", "hex"], ["K": hex])
            }
        }
    }

    static let jweKeyCases: [JWEKeyCase] = [
        .init(alg: "dir", enc: "A256GCM", keyBits: 256, form: .jwkFile, size: 1027),
        .init(alg: "dir", enc: "A256GCM", keyBits: 256, form: .hex, size: 0),
        .init(alg: "A128KW", enc: "A128CBC-HS256", keyBits: 128, form: .jwkFile, size: 16),
        .init(alg: "A256KW", enc: "A256CBC-HS512", keyBits: 256, form: .jwkFile, size: 100_000),
    ]

    @Test(
        "key: seccli encrypt → joserfc decrypt, joserfc encrypt → seccli decrypt; the header names alg and enc",
        arguments: jweKeyCases
    )
    func jweWithKey(_ keyCase: JWEKeyCase) throws {
        // A static function, not in the closure: written inside withScratch's closure,
        // this body crashes Swift 6.3.1's SendNonSendable pass (map::at).
        try withScratch { dir in try Self.jweRoundTrips(keyCase, in: dir) }
    }

    static func jweRoundTrips(_ keyCase: JWEKeyCase, in dir: Scratch) throws {
        let key = try keyCase.makeKey(in: dir)
        let keyHex = key.hex
        let keyOptions = key.options
        let environment = key.environment
        let size = keyCase.size
        let plaintext = randomBytes(keyCase.size)
        try dir.write("plain.bin", plaintext)

        let token = try Self.tokenLine(
            try Tools.seccli(
                ["encrypt", "--format", "jwe"] + keyOptions + keyCase.seccliOptions + ["--in", "plain.bin"],
                environment: environment,
                in: dir,
                expecting: .success
            )
        )
        #expect(
            token.split(separator: ".", omittingEmptySubsequences: false).count == 5,
            "\(size) bytes: not a compact JWE: \(token)"
        )
        let header = try Self.header(token)
        #expect(header.alg == keyCase.alg, "\(size) bytes: header \(header)")
        #expect(header.enc == keyCase.enc, "\(size) bytes: header \(header)")
        #expect(header.kid == nil, "\(size) bytes: a kid without --kid or a JWK kid: \(header)")
        let opened = try InteropPeer.jose.run(
            ["decrypt"],
            stdin: Array(token.utf8),
            environment: ["JOSE_KEY_HEX": keyHex]
        )
        expectSameBytes(opened.stdout, plaintext, "\(size) bytes: joserfc does not recover seccli's plaintext")

        let theirs = try InteropPeer.jose.run(
            ["encrypt", "--alg", keyCase.alg, "--enc", keyCase.enc],
            stdin: plaintext,
            environment: ["JOSE_KEY_HEX": keyHex]
        )
        let decrypted = try Tools.seccli(
            ["decrypt", "--format", "jwe"] + keyOptions,
            stdin: theirs.stdout,
            environment: environment,
            in: dir,
            expecting: .success
        )
        expectSameBytes(decrypted.stdout, plaintext, "\(size) bytes: seccli does not recover joserfc's plaintext")
    }

    @Test("--password: PBES2-HS512+A256KW with p2c 210000 by default, no warning; joserfc both ways")
    func jwePasswordDefaults() throws {
        let environment = ["P": randomPrintable(20)]
        let plaintext = randomBytes(300)
        let token = try Self.tokenLine(
            try Tools.seccli(
                ["encrypt", "--format", "jwe", "--password", "env:P"],
                stdin: plaintext,
                environment: environment,
                expecting: .success
            )
        )
        let header = try Self.joseHeader(token)
        #expect(header.alg == "PBES2-HS512+A256KW", "header \(header)")
        #expect(header.enc == "A256GCM", "header \(header)")
        #expect(header.p2c == 210_000, "header \(header)")
        #expect(header.p2s.flatMap(base64URLDecode)?.count ?? 0 >= 8, "p2s salt: header \(header)")
        let opened = try InteropPeer.jose.run(
            ["decrypt"],
            stdin: Array(token.utf8),
            environment: ["JOSE_PASSWORD": environment["P"]!]
        )
        expectSameBytes(opened.stdout, plaintext, "joserfc does not recover seccli's plaintext")

        let theirs = try InteropPeer.jose.run(
            ["encrypt", "--alg", "PBES2-HS512+A256KW", "--enc", "A256GCM"],
            stdin: plaintext,
            environment: ["JOSE_PASSWORD": environment["P"]!]
        )
        let decrypted = try Tools.seccli(
            ["decrypt", "--format", "jwe", "--password", "env:P"],
            stdin: theirs.stdout,
            environment: environment,
            expecting: .success
        )
        expectSameBytes(decrypted.stdout, plaintext, "seccli does not recover joserfc's plaintext")
    }

    @Test("--alg PBES2-HS256+A128KW --iter 1000: one warning line, exit 0, p2c 1000 in the header; joserfc both ways")
    func jwePasswordFewIterations() throws {
        let password = randomPrintable(12)
        let environment = ["P": password]
        let plaintext = randomBytes(100)
        let options = ["--format", "jwe", "--password", "env:P"]
        let encrypted = try Tools.seccli(
            ["encrypt"] + options + ["--alg", "PBES2-HS256+A128KW", "--iter", "1000", "--enc", "A128CBC-HS256"],
            stdin: plaintext,
            environment: environment
        )
        try #require(encrypted.status == 0, "\(encrypted.stderr)")
        expectOneWarning(encrypted.stderr)
        #expect(encrypted.stderr.contains("1000") && encrypted.stderr.contains("below"), "\(encrypted.stderr)")
        let token = encrypted.stdoutText.trimmingCharacters(in: .newlines)
        let header = try Self.joseHeader(token)
        #expect(header.alg == "PBES2-HS256+A128KW", "header \(header)")
        #expect(header.enc == "A128CBC-HS256", "header \(header)")
        #expect(header.p2c == 1000, "header \(header)")
        let opened = try InteropPeer.jose.run(
            ["decrypt"],
            stdin: Array(token.utf8),
            environment: ["JOSE_PASSWORD": password]
        )
        expectSameBytes(opened.stdout, plaintext, "joserfc does not recover seccli's plaintext")

        let theirs = try InteropPeer.jose.run(
            ["encrypt", "--alg", "PBES2-HS256+A128KW", "--enc", "A128CBC-HS256", "--p2c", "1000"],
            stdin: plaintext,
            environment: ["JOSE_PASSWORD": password]
        )
        let decrypted = try Tools.seccli(
            ["decrypt"] + options,
            stdin: theirs.stdout,
            environment: environment,
            expecting: .success
        )
        expectSameBytes(decrypted.stdout, plaintext, "seccli does not recover joserfc's plaintext")
    }

    @Test("--kid lands in the header; a JWK's kid by default, --kid overrides it")
    func jweKeyID() throws {
        try withScratch { dir in
            let jwk = try Self.keygenJWK("key.jwk", kid: "from-file", in: dir)
            let hexKey = hexString(randomBytes(32))
            let environment = ["K": hexKey]
            let runs: [(options: [String], kid: String, keyHex: String)] = [
                (["--key", "file:key.jwk"], "from-file", jwk.hex),
                (["--key", "file:key.jwk", "--kid", "override"], "override", jwk.hex),
                (["--key", "env:K", "--key-format", "hex", "--kid", "2024-06"], "2024-06", hexKey),
            ]
            for run in runs {
                let token = try Self.tokenLine(
                    try Tools.seccli(
                        ["encrypt", "--format", "jwe", "--alg", "A256KW"] + run.options,
                        stdin: Array("kid".utf8),
                        environment: environment,
                        in: dir,
                        expecting: .success
                    )
                )
                let header = try Self.header(token)
                #expect(header.kid == run.kid, "\(run.options): header \(header)")
                let opened = try InteropPeer.jose.run(
                    ["decrypt"],
                    stdin: Array(token.utf8),
                    environment: ["JOSE_KEY_HEX": run.keyHex]
                )
                #expect(opened.stdoutText == "kid")
            }
        }
    }

    @Test(
        "two --key JWK files: the token's kid picks the key (an unknown kid, or a kid naming the wrong key, fails); joserfc reads seccli's kid"
    )
    func jweKeyRotationByKeyID() throws {
        try withScratch { dir in
            let old = try Self.keygenJWK("old.jwk", kid: "2023", in: dir)
            let new = try Self.keygenJWK("new.jwk", kid: "2024", in: dir)
            let keys = ["--key", "file:old.jwk", "--key", "file:new.jwk"]
            let plaintext = randomBytes(64)
            func joseToken(kid: String, key: GeneratedJWK) throws -> [UInt8] {
                try InteropPeer.jose.run(
                    ["encrypt", "--alg", "A256KW", "--enc", "A256GCM", "--kid", kid],
                    stdin: plaintext,
                    environment: ["JOSE_KEY_HEX": key.hex]
                ).stdout
            }
            for key in [old, new] {
                for order in [keys, Array(keys[2...] + keys[..<2])] {
                    let decrypted = try Tools.seccli(
                        ["decrypt", "--format", "jwe"] + order,
                        stdin: try joseToken(kid: key.keyID!, key: key),
                        in: dir,
                        expecting: .success
                    )
                    expectSameBytes(decrypted.stdout, plaintext, "kid \(key.keyID!), keys \(order)")
                }
            }
            // The kid decides: the other key is not tried.
            try dir.write("misnamed.jwe", try joseToken(kid: "2023", key: new))
            let misnamed = try expectRefused(
                ["decrypt", "--format", "jwe"] + keys + ["--in", "misnamed.jwe"],
                in: dir,
                status: 1
            )
            #expect(misnamed == Self.authenticationFailed)
            try dir.write("unknown.jwe", try joseToken(kid: "2025", key: new))
            try expectRefused(
                ["decrypt", "--format", "jwe"] + keys + ["--in", "unknown.jwe"],
                in: dir,
                status: 1,
                mentions: ["2025"]
            )

            // seccli writes the JWK's kid; joserfc picks the key from a set by it.
            let token = try Self.tokenLine(
                try Tools.seccli(
                    ["encrypt", "--format", "jwe", "--alg", "A256KW", "--key", "file:new.jwk"],
                    stdin: plaintext,
                    in: dir,
                    expecting: .success
                )
            )
            let opened = try InteropPeer.jose.run(
                ["decrypt"],
                stdin: Array(token.utf8),
                environment: ["JOSE_KEYSET_JSON": #"{"keys":[\#(old.json),\#(new.json)]}"#]
            )
            expectSameBytes(opened.stdout, plaintext, "joserfc with a key set does not recover seccli's plaintext")
        }
    }

    @Test(
        "a JWK Set file: the kid picks the key, a token without kid tries each; encrypt refuses a set of two (exit 2)"
    )
    func jweKeySetFile() throws {
        try withScratch { dir in
            let first = try Self.keygenJWK("a.jwk", kid: "a", in: dir)
            let second = try Self.keygenJWK("b.jwk", kid: "b", in: dir)
            try dir.write("set.json", #"{"keys":[\#(first.json),\#(second.json)]}"# + "\n")
            let plaintext = randomBytes(200)
            let withKeyID = try InteropPeer.jose.run(
                ["encrypt", "--alg", "dir", "--enc", "A256GCM", "--kid", "b"],
                stdin: plaintext,
                environment: ["JOSE_KEY_HEX": second.hex]
            )
            let withoutKeyID = try InteropPeer.jose.run(
                ["encrypt", "--alg", "dir", "--enc", "A256GCM"],
                stdin: plaintext,
                environment: ["JOSE_KEY_HEX": second.hex]
            )
            for token in [withKeyID, withoutKeyID] {
                let decrypted = try Tools.seccli(
                    ["decrypt", "--format", "jwe", "--key", "file:set.json"],
                    stdin: token.stdout,
                    in: dir,
                    expecting: .success
                )
                expectSameBytes(decrypted.stdout, plaintext, "seccli with a JWK Set file")
            }
            try dir.write("plain.bin", plaintext)
            try expectRefused(
                ["encrypt", "--format", "jwe", "--key", "file:set.json", "--in", "plain.bin"],
                in: dir,
                status: 2,
                mentions: ["--key", "2 keys"]
            )
        }
    }

    @Test("a pretty-printed (several-line) JWK Set file works as --key")
    func jweMultiLineKeySetFile() throws {
        try withScratch { dir in
            let jwk = try Self.keygenJWK("a.jwk", kid: "a", in: dir)
            try dir.write("set.json", "{\n  \"keys\": [\n    \(jwk.json)\n  ]\n}\n")
            let token = try InteropPeer.jose.run(
                ["encrypt", "--alg", "dir", "--enc", "A256GCM", "--kid", "a"],
                stdin: Array("hi".utf8),
                environment: ["JOSE_KEY_HEX": jwk.hex]
            )
            let decrypted = try Tools.seccli(
                ["decrypt", "--format", "jwe", "--key", "file:set.json"],
                stdin: token.stdout,
                in: dir
            )
            #expect(decrypted.status == 0, "\(decrypted.stderr)")
            #expect(decrypted.stdoutText == "hi")
        }
    }

    @Test("--alg/--enc on decrypt are the only algorithms accepted: another is refused (exit 1, one line)")
    func jweDecryptRestriction() throws {
        try withScratch { dir in
            let environment = ["K": hexString(randomBytes(16))]
            let plaintext = randomBytes(50)
            try dir.write(
                "token.jwe",
                try InteropPeer.jose.run(
                    ["encrypt", "--alg", "A128KW", "--enc", "A128CBC-HS256"],
                    stdin: plaintext,
                    environment: ["JOSE_KEY_HEX": environment["K"]!]
                ).stdout
            )
            let decrypt = ["decrypt", "--format", "jwe", "--key", "env:K", "--key-format", "hex", "--in", "token.jwe"]
            let allowed = try Tools.seccli(
                decrypt + ["--alg", "A128KW", "--enc", "A128CBC-HS256"],
                environment: environment,
                in: dir,
                expecting: .success
            )
            expectSameBytes(allowed.stdout, plaintext, "--alg and --enc naming the token's algorithms")
            for restriction in [
                ["--alg", "A256KW"], ["--alg", "dir"], ["--alg", "A128KW", "--enc", "A128GCM"],
                ["--enc", "A256CBC-HS512"],
            ] {
                let refused = restriction.contains("--enc") ? "A128CBC-HS256" : "A128KW"
                try expectRefused(
                    decrypt + restriction,
                    environment: environment,
                    in: dir,
                    status: 1,
                    mentions: [refused, "not allowed"]
                )
            }
        }
    }
}
