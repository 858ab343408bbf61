import Foundation
import TestSupport
import Testing

/// `seccli encrypt/decrypt --format jwe|fernet|legacy-json` as a process, against the peers of
/// Tests/Peers run as processes too: joserfc (jose_peer.py), Python's cryptography.fernet
/// (fernet_peer.py) and the book's PHP server (legacy_server.php); then the failures: the
/// documented exit code, one `seccli: ` line, nothing on standard output, `--out` untouched.
@Suite("seccli encrypt/decrypt --format jwe|fernet|legacy-json")
struct EnvelopeCLITests {
    /// What every wrong key, password or altered token says, whatever the format.
    static let authenticationFailed = "seccli: authentication failed: wrong key, or the data was altered\n"

    // MARK: - JWE ⇄ joserfc

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

    // MARK: - Fernet ⇄ Python

    @Test("a keygen --format fernet key (env and file) works with Python both ways; so does Python's generate-key")
    func fernetKeys() throws {
        try withScratch { dir in
            let generated = try Tools.seccli(["keygen", "--format", "fernet", "--out", "key.txt"], in: dir)
            try #require(generated.status == 0, "\(generated.stderr)")
            let seccliKey = String(decoding: try dir.read("key.txt"), as: UTF8.self).trimmingCharacters(in: .newlines)
            let pythonKey = try InteropPeer.fernet.run(["generate-key"]).stdoutText.trimmingCharacters(
                in: .whitespacesAndNewlines
            )
            let keyings: [(what: String, key: String, option: String)] = [
                ("seccli keygen key, file:", seccliKey, "file:key.txt"),
                ("seccli keygen key, env:", seccliKey, "env:FK"),
                ("Python generate-key, env:", pythonKey, "env:FK"),
            ]
            for keying in keyings {
                let environment = ["FK": keying.key]
                let plaintext = randomBytes(777)
                let token = try Self.tokenLine(
                    try Tools.seccli(
                        ["encrypt", "--format", "fernet", "--key", keying.option],
                        stdin: plaintext,
                        environment: environment,
                        in: dir,
                        expecting: .success
                    )
                )
                #expect(
                    base64URLDecode(token)?.first == 0x80,
                    "\(keying.what): not a Fernet token (version 0x80): \(token)"
                )
                let opened = try InteropPeer.fernet.run(
                    ["decrypt"],
                    stdin: Array(token.utf8),
                    environment: ["FERNET_KEY": keying.key]
                )
                expectSameBytes(opened.stdout, plaintext, "\(keying.what): Python does not recover seccli's plaintext")

                let theirs = try InteropPeer.fernet.run(
                    ["encrypt"],
                    stdin: plaintext,
                    environment: ["FERNET_KEY": keying.key]
                )
                let decrypted = try Tools.seccli(
                    ["decrypt", "--format", "fernet", "--key", keying.option],
                    stdin: theirs.stdout,
                    environment: environment,
                    in: dir,
                    expecting: .success
                )
                expectSameBytes(
                    decrypted.stdout,
                    plaintext,
                    "\(keying.what): seccli does not recover Python's plaintext"
                )
            }
        }
    }

    @Test(
        "--ttl 60 refuses a Python token dated 120 s ago (exit 1, 'expired'); without --ttl, or with a longer one, it decrypts"
    )
    func fernetTimeToLive() throws {
        try withScratch { dir in
            let key = fernetKey()
            let environment = ["FK": key]
            let plaintext = Array("transfer 100 to account 12345".utf8)
            let now = Int(Date().timeIntervalSince1970)
            try dir.write(
                "old.token",
                try InteropPeer.fernet.run(
                    ["encrypt", "--time", "\(now - 120)"],
                    stdin: plaintext,
                    environment: ["FERNET_KEY": key]
                ).stdout
            )
            let decrypt = ["decrypt", "--format", "fernet", "--key", "env:FK", "--in", "old.token"]
            let message = try expectRefused(
                decrypt + ["--ttl", "60"],
                environment: environment,
                in: dir,
                status: 1,
                mentions: ["expired"],
                sameMessage: false
            )  // "created 120 s ago", then 121
            #expect(message != Self.authenticationFailed)
            for accepted in [[], ["--ttl", "600"]] {
                let decrypted = try Tools.seccli(
                    decrypt + accepted,
                    environment: environment,
                    in: dir,
                    expecting: .success
                )
                #expect(decrypted.stdout == plaintext, "\(accepted)")
            }
        }
    }

    @Test(
        "two --key (old and new, either order) decrypt a token of either; Python's rotate output needs only the new one"
    )
    func fernetRotation() throws {
        try withScratch { dir in
            let old = fernetKey()
            let new = fernetKey()
            let environment = ["OLD": old, "NEW": new]
            let plaintext = randomBytes(100)
            let tokens = try [old, new].map { key in
                try InteropPeer.fernet.run(["encrypt"], stdin: plaintext, environment: ["FERNET_KEY": key]).stdout
            }
            for (index, token) in tokens.enumerated() {
                for keys in [["--key", "env:OLD", "--key", "env:NEW"], ["--key", "env:NEW", "--key", "env:OLD"]] {
                    let decrypted = try Tools.seccli(
                        ["decrypt", "--format", "fernet"] + keys,
                        stdin: token,
                        environment: environment,
                        expecting: .success
                    )
                    expectSameBytes(
                        decrypted.stdout,
                        plaintext,
                        "\(index == 0 ? "old" : "new") key's token with \(keys)"
                    )
                }
            }
            // Only the new key: the old token fails as any wrong key does.
            try dir.write("old.token", tokens[0])
            let message = try expectRefused(
                ["decrypt", "--format", "fernet", "--key", "env:NEW", "--in", "old.token"],
                environment: environment,
                in: dir,
                status: 1
            )
            #expect(message == Self.authenticationFailed)
            let rotated = try InteropPeer.fernet.run(
                ["rotate"],
                stdin: tokens[0],
                environment: ["FERNET_KEYS": "\(new),\(old)"]
            )
            let decrypted = try Tools.seccli(
                ["decrypt", "--format", "fernet", "--key", "env:NEW"],
                stdin: rotated.stdout,
                environment: environment,
                expecting: .success
            )
            expectSameBytes(decrypted.stdout, plaintext, "Python's rotated token")
        }
    }

    // MARK: - legacy-json ⇄ the book's PHP server

    static let transferFields = "toAccount,fromAccount,amount,transferDate"

    @Test(
        "the book's flow: request seccli → PHP, response PHP → seccli, and the other way round (--mac-fields for requests only)"
    )
    func legacyBookFlow() throws {
        // The book's keys: 32-character strings, used as raw bytes (seccli's default --key-format for legacy-json).
        let environment = ["LEGACY_KEY": randomPrintable(32), "LEGACY_MAC_KEY": randomPrintable(24)]
        let seccli = ["--format", "legacy-json", "--key", "env:LEGACY_KEY", "--mac-key", "env:LEGACY_MAC_KEY"]
        let macFields = ["--mac-fields", Self.transferFields]
        let transfer = Array(
            #"{"toAccount":"00012345","fromAccount":"00067890","amount":"250.00","transferDate":"2024-05-01 12:30:00"}"#
                .utf8
        )
        let response = Array(#"{"status":"ok","message":"Transfer of 250.00 complete / réf #42"}"#.utf8)

        // The app (seccli) sends a transfer request; the server (PHP, listing 6-16) opens it.
        let request = try Self.tokenLine(
            try Tools.seccli(
                ["encrypt"] + seccli + macFields,
                stdin: transfer,
                environment: environment,
                expecting: .success
            )
        )
        let envelope = try #require(
            try JSONSerialization.jsonObject(with: Data(request.utf8)) as? [String: Any],
            "not JSON: \(request)"
        )
        #expect(Set(envelope.keys) == ["iv", "mac", "payload"], "envelope \(request)")
        #expect((envelope["iv"] as? String).flatMap { Data(base64Encoded: $0) }?.count == 16, "iv: \(request)")
        let mac = envelope["mac"] as? String ?? ""
        #expect(
            mac.count == 64 && mac.allSatisfy { "0123456789abcdef".contains($0) },
            "mac: lower-case hex HMAC-SHA256: \(request)"
        )
        let received = try InteropPeer.legacy.run(
            ["decrypt-request"],
            stdin: Array(request.utf8),
            environment: environment
        )
        expectSameBytes(received.stdout, transfer, "PHP decrypt-request of seccli's request")

        // The server answers (listing 6-19); the app opens the response, MACed over the plaintext.
        let answer = try InteropPeer.legacy.run(["encrypt-response"], stdin: response, environment: environment)
        let opened = try Tools.seccli(
            ["decrypt"] + seccli,
            stdin: answer.stdout,
            environment: environment,
            expecting: .success
        )
        expectSameBytes(opened.stdout, response, "seccli decrypt of PHP's response")

        // Roles swapped: PHP as the client, seccli as the server.
        let phpRequest = try InteropPeer.legacy.run(["encrypt-request"], stdin: transfer, environment: environment)
        let openedRequest = try Tools.seccli(
            ["decrypt"] + seccli + macFields,
            stdin: phpRequest.stdout,
            environment: environment,
            expecting: .success
        )
        expectSameBytes(openedRequest.stdout, transfer, "seccli decrypt --mac-fields of PHP's request")
        let ourResponse = try Self.tokenLine(
            try Tools.seccli(["encrypt"] + seccli, stdin: response, environment: environment, expecting: .success)
        )
        let phpOpened = try InteropPeer.legacy.run(
            ["decrypt-response"],
            stdin: Array(ourResponse.utf8),
            environment: environment
        )
        expectSameBytes(phpOpened.stdout, response, "PHP decrypt-response of seccli's response")

        // The MAC input must match: a request opened as a response (no --mac-fields) fails, and vice versa.
        try withScratch { dir in
            try dir.write("request.json", phpRequest.stdout)
            try dir.write("response.json", answer.stdout)
            for (file, options) in [("request.json", [String]()), ("response.json", macFields)] {
                let message = try expectRefused(
                    ["decrypt"] + seccli + options + ["--in", file],
                    environment: environment,
                    in: dir,
                    status: 1
                )
                #expect(message == Self.authenticationFailed, "\(file)")
            }
        }
    }

    // MARK: - Wrong keys and altered tokens

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

// MARK: - Running seccli and the peers

extension EnvelopeCLITests {
    /// The one line of text that `seccli encrypt` of a sealed format wrote (without its line feed).
    static func tokenLine(_ result: ProcessResult, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        let text = result.stdoutText
        #expect(
            text.hasSuffix("\n") && text.filter { $0 == "\n" }.count == 1,
            "not one line: \(text.debugDescription)",
            sourceLocation: sourceLocation
        )
        return text.trimmingCharacters(in: .newlines)
    }

    /// The members of a JWE protected header that the tests look at.
    struct JWEHeader: Sendable, CustomStringConvertible {
        var alg: String?, enc: String?, kid: String?, p2s: String?, p2c: Int?
        /// The whole header, for messages.
        var description: String
    }

    /// The protected header of a compact JWE, as joserfc reads it.
    static func joseHeader(_ token: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> JWEHeader {
        let result = try InteropPeer.jose.run(["header"], stdin: Array(token.utf8))
        return try header(json: result.stdout, sourceLocation: sourceLocation)
    }

    /// The protected header of a compact JWE, decoded here (cheaper than starting joserfc).
    static func header(_ token: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> JWEHeader {
        let encoded = String(token.prefix { $0 != "." })
        let json = try #require(
            base64URLDecode(encoded),
            "header is not base64url: \(token)",
            sourceLocation: sourceLocation
        )
        return try header(json: json, sourceLocation: sourceLocation)
    }

    private static func header(json: [UInt8], sourceLocation: SourceLocation) throws -> JWEHeader {
        let text = String(decoding: json, as: UTF8.self)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any],
            "header is not a JSON object: \(text)",
            sourceLocation: sourceLocation
        )
        return JWEHeader(
            alg: object["alg"] as? String,
            enc: object["enc"] as? String,
            kid: object["kid"] as? String,
            p2s: object["p2s"] as? String,
            p2c: object["p2c"] as? Int,
            description: text
        )
    }

    /// A key made by `seccli keygen --format jwe-oct --out`.
    struct GeneratedJWK {
        /// The file's one line.
        var json: String
        var keyID: String?
        var bytes: [UInt8]
        var hex: String { hexString(bytes) }
    }

    static func keygenJWK(
        _ name: String,
        bits: Int = 256,
        kid: String? = nil,
        in dir: Scratch,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> GeneratedJWK {
        let result = try Tools.seccli(
            ["keygen", "--format", "jwe-oct", "--bits", "\(bits)", "--out", name] + (kid.map { ["--kid", $0] } ?? []),
            in: dir,
            sourceLocation: sourceLocation
        )
        try #require(result.status == 0, "seccli keygen failed: \(result.stderr)", sourceLocation: sourceLocation)
        let json = String(decoding: try dir.read(name), as: UTF8.self).trimmingCharacters(in: .newlines)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
            "not a JWK: \(json)",
            sourceLocation: sourceLocation
        )
        let bytes = try #require(
            (object["k"] as? String).flatMap(base64URLDecode),
            "no base64url k: \(json)",
            sourceLocation: sourceLocation
        )
        return GeneratedJWK(json: json, keyID: object["kid"] as? String, bytes: bytes)
    }
}

// MARK: - Failures

/// Runs a seccli command that must fail, twice: to standard output, then with `--out` naming an
/// existing file. Both times the exit code is `status`, standard error exactly one `seccli: ` line
/// that mentions each of `mentions` (the same both times unless `sameMessage` is false, for messages
/// that tell the time), and standard output empty; the existing file is untouched and no other file
/// appears in `dir` (no `*.seckit-*` temporary file). Returns the message.
@discardableResult
func expectRefused(
    _ arguments: [String],
    environment: [String: String] = [:],
    stdin: [UInt8]? = nil,
    in dir: Scratch,
    status: Int32,
    mentions: [String] = [],
    sameMessage: Bool = true,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> String {
    let before = try directoryEntries(dir)
    let existing = "existing-output.txt"
    try #require(!before.contains(existing), sourceLocation: sourceLocation)
    let piped = try Tools.seccli(
        arguments,
        stdin: stdin,
        environment: environment,
        in: dir,
        sourceLocation: sourceLocation
    )
    let precious = Array("precious: a failed command must not touch this\n".utf8)
    try dir.write(existing, precious)
    let toFile = try Tools.seccli(
        arguments + ["--out", existing],
        stdin: stdin,
        environment: environment,
        in: dir,
        sourceLocation: sourceLocation
    )
    for result in [piped, toFile] {
        expectOneLineError(result, status: status, sourceLocation: sourceLocation)
        for text in mentions {
            #expect(
                result.stderr.contains(text),
                "the message should mention \(text.debugDescription): \(result.stderr)",
                sourceLocation: sourceLocation
            )
        }
    }
    #expect(!sameMessage || toFile.stderr == piped.stderr, "--out changed the message", sourceLocation: sourceLocation)
    #expect(try dir.read(existing) == precious, "--out \(existing) was changed", sourceLocation: sourceLocation)
    let after = try directoryEntries(dir)
    try FileManager.default.removeItem(atPath: dir.path(existing))
    let extra = after.subtracting(before.union([existing]))
    #expect(extra.isEmpty, "left behind: \(extra.sorted())", sourceLocation: sourceLocation)
    #expect(
        !after.contains { $0.contains(".seckit-") },
        "temporary file left: \(after.sorted())",
        sourceLocation: sourceLocation
    )
    return piped.stderr
}

// MARK: - Encodings

/// Base64url, with `=` padding as Fernet keys have it, or without as JOSE has it.
func base64URLEncode(_ bytes: [UInt8], padded: Bool = true) -> String {
    let base64 = Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(
        of: "/",
        with: "_"
    )
    return padded ? base64 : base64.replacingOccurrences(of: "=", with: "")
}

/// Decodes base64url with or without padding; nil when it is not base64url.
func base64URLDecode(_ text: String) -> [UInt8]? {
    guard !text.contains(where: { $0 == "+" || $0 == "/" }) else { return nil }
    var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
    return Data(base64Encoded: base64).map(Array.init)
}

/// A new Fernet key: base64url of 32 random bytes, as Python's `Fernet.generate_key()`.
func fernetKey() -> String { base64URLEncode(randomBytes(32)) }

/// `text` with its middle character (or, on a `.`, the next one) replaced by another base64url character.
func flipMiddleCharacter(_ text: String) -> String {
    var characters = Array(text)
    var index = characters.count / 2
    while characters[index] == "." { index += 1 }
    characters[index] = characters[index] == "A" ? "B" : "A"
    return String(characters)
}
