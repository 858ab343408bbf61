import Foundation
import TestSupport
import Testing

@testable import seccli

/// Options given where they do not apply (a format, a direction, a backend, a mode) are refused
/// with exit 64 and one line naming the option and the use, never silently ignored; each row of
/// every command's `OptionApplicability` table has a case here.
@Suite("options that do not apply: exit 64, one line naming the option")
struct OptionApplicabilityTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        /// The option the message must name first.
        var option: String
        /// The use the message must name.
        var use: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let iv12 = "00112233445566778899aabb"
    static let rawKey = ["--key", "env:K", "--iv", iv12]
    static let jweKey = ["--format", "jwe", "--key", "env:K", "--key-format", "hex"]
    static let fernetKey = ["--format", "fernet", "--key", "env:FK"]
    static let legacy = ["--format", "legacy-json", "--key", "env:LK", "--mac-key", "env:MK"]

    static let cases: [Case] = [
        // encrypt / decrypt
        .init(arguments: ["encrypt"] + fernetKey + ["--cipher", "aes-256-gcm"], option: "--cipher", use: "fernet"),
        .init(arguments: ["decrypt", "--password", "env:P", "--iv", iv12], option: "--iv", use: "openssl"),
        .init(arguments: ["encrypt"] + jweKey + ["--iv", iv12], option: "--iv", use: "jwe"),
        .init(arguments: ["encrypt"] + legacy + ["-a"], option: "-a", use: "legacy-json"),
        .init(arguments: ["encrypt", "--password", "env:P", "-A"], option: "-A", use: "openssl"),
        .init(arguments: ["encrypt"] + fernetKey + ["--md", "sha512"], option: "--md", use: "fernet"),
        .init(arguments: ["decrypt"] + rawKey + ["--md", "sha1"], option: "--md", use: "raw"),
        .init(
            arguments: ["encrypt", "--format", "jwe", "--password", "env:P", "--md", "sha1"],
            option: "--md",
            use: "jwe"
        ),
        .init(arguments: ["encrypt"] + rawKey + ["--iter", "5"], option: "--iter", use: "raw"),
        .init(
            arguments: ["decrypt", "--format", "jwe", "--password", "env:P", "--iter", "5"],
            option: "--iter",
            use: "decrypt"
        ),
        .init(arguments: ["encrypt"] + jweKey + ["--iter", "5"], option: "--iter", use: "--key"),
        .init(arguments: ["encrypt"] + fernetKey + ["--iter", "5"], option: "--iter", use: "fernet"),
        .init(
            arguments: ["encrypt", "--password", "env:P", "--key-format", "hex"],
            option: "--key-format",
            use: "--password"
        ),
        .init(arguments: ["decrypt"] + fernetKey + ["--key-format", "jwk"], option: "--key-format jwk", use: "fernet"),
        .init(arguments: ["encrypt"] + fernetKey + ["--key", "env:FK"], option: "a second --key", use: "encrypt"),
        .init(arguments: ["decrypt"] + rawKey + ["--key", "env:K"], option: "a second --key", use: "raw"),
        .init(arguments: ["encrypt"] + fernetKey + ["--alg", "dir"], option: "--alg", use: "fernet"),
        .init(arguments: ["encrypt"] + rawKey + ["--enc", "A256GCM"], option: "--enc", use: "raw"),
        .init(arguments: ["decrypt"] + jweKey + ["--kid", "k1"], option: "--kid", use: "decrypt"),
        .init(arguments: ["encrypt"] + fernetKey + ["--ttl", "60"], option: "--ttl", use: "encrypt"),
        .init(arguments: ["decrypt"] + jweKey + ["--ttl", "60"], option: "--ttl", use: "jwe"),
        .init(arguments: ["encrypt"] + jweKey + ["--mac-key", "env:MK"], option: "--mac-key", use: "jwe"),
        .init(arguments: ["decrypt"] + fernetKey + ["--mac-fields", "a,b"], option: "--mac-fields", use: "fernet"),
        // keygen, kdf, hash, hmac
        .init(arguments: ["keygen", "--format", "fernet", "--bits", "256"], option: "--bits", use: "fernet"),
        .init(arguments: ["keygen", "--format", "hex", "--kid", "k1"], option: "--kid", use: "hex"),
        .init(
            arguments: ["kdf", "--calibrate", "10ms", "--password", "env:P"],
            option: "--password",
            use: "--calibrate"
        ),
        .init(arguments: ["kdf", "--calibrate", "10ms", "--salt", "00"], option: "--salt", use: "--calibrate"),
        .init(arguments: ["kdf", "--calibrate", "10ms", "--iter", "1000"], option: "--iter", use: "--calibrate"),
        .init(arguments: ["hash", "--json", "--base64", "IN"], option: "--base64", use: "--json"),
        .init(arguments: ["hmac", "--key", "env:K", "--json", "--base64", "IN"], option: "--base64", use: "--json"),
        .init(
            arguments: ["hmac", "--key", "env:K", "--verify", String(repeating: "0", count: 64), "--base64", "IN"],
            option: "--base64",
            use: "--verify"
        ),
        .init(
            arguments: ["hmac", "--key", "env:K", "--verify", String(repeating: "0", count: 64), "--json", "IN"],
            option: "--json",
            use: "--verify"
        ),
        // pin --file
        .init(arguments: ["pin", "--file", "IN", "--ca", "IN"], option: "--ca", use: "--file"),
        .init(
            arguments: [
                "pin", "--file", "IN", "--pin-only", "--expect", "sha256/\(String(repeating: "A", count: 43))=",
            ],
            option: "--pin-only",
            use: "--file"
        ),
        .init(arguments: ["pin", "--file", "IN", "--timeout", "10"], option: "--timeout", use: "--file"),
        .init(arguments: ["pin", "--file", "IN", "--cert", "IN"], option: "--cert", use: "--file"),
        .init(arguments: ["pin", "--file", "IN", "--p12", "IN"], option: "--p12", use: "--file"),
        .init(arguments: ["pin", "--file", "IN", "--identity", "work"], option: "--identity", use: "--file"),
        .init(
            arguments: ["pin", "--file", "IN", "--report-uri", "http://127.0.0.1:1/r"],
            option: "--report-uri",
            use: "--file"
        ),
        .init(arguments: ["pin", "--file", "IN", "--report-ca", "ca.pem"], option: "--report-ca", use: "--file"),
        // cred: an internet password's options without --server
        .init(arguments: ["cred", "list", "--protocol", "https"], option: "--protocol", use: "without --server"),
        .init(
            arguments: ["cred", "get", "--service", "s", "--account", "a", "--port", "443"],
            option: "--port",
            use: "a generic password"
        ),
        .init(
            arguments: ["cred", "delete", "--all", "--group", "g", "--path", "/p"],
            option: "--path",
            use: "an item without --server"
        ),
        .init(
            arguments: ["cred", "list", "--service", "s", "--auth-type", "basic"],
            option: "--auth-type",
            use: "generic password"
        ),
        .init(
            arguments: ["cred", "set", "--service", "s", "--account", "a", "--realm", "R", "--secret", "env:P"],
            option: "--realm",
            use: "a generic password"
        ),
        .init(arguments: ["cred", "list", "--realm", "R"], option: "--realm", use: "an item without --server"),
        // cred and sso: the file backend's options with the Secret Service
        .init(
            arguments: [
                "cred", "get", "--service", "s", "--account", "a", "--backend", "secret-service", "--store-file", "IN",
            ],
            option: "--store-file",
            use: "secret-service"
        ),
        .init(
            arguments: ["sso", "token", "--group", "g", "--backend", "secret-service", "--store-password", "env:P"],
            option: "--store-password",
            use: "secret-service"
        ),
        // cred, sso and identity: the OpenBao backend's options with another backend
        .init(
            arguments: ["cred", "get", "--service", "s", "--account", "a", "--backend", "file", "--mount", "m"],
            option: "--mount",
            use: "file"
        ),
        .init(
            arguments: ["cred", "list", "--backend", "secret-service", "--path-prefix", "p"],
            option: "--path-prefix",
            use: "secret-service"
        ),
        .init(
            arguments: ["sso", "token", "--group", "g", "--backend", "secret-service", "--login", "approle"],
            option: "--login",
            use: "secret-service"
        ),
        .init(
            arguments: ["cred", "get", "--service", "s", "--account", "a", "--backend", "file", "--role-id", "env:P"],
            option: "--role-id",
            use: "file"
        ),
        .init(
            arguments: [
                "cred", "delete", "--service", "s", "--account", "a", "--backend", "file", "--secret-id", "env:P",
            ],
            option: "--secret-id",
            use: "file"
        ),
        .init(
            arguments: [
                "identity", "list", "--backend", "secret-service", "--pin",
                "sha256/\(String(repeating: "A", count: 43))=",
            ],
            option: "--pin",
            use: "secret-service"
        ),
        // OpenBao's certificate login: the identity's options, and their login- spelling in `identity`
        .init(
            arguments: ["cred", "get", "--service", "s", "--account", "a", "--backend", "file", "--cert", "c.pem"],
            option: "--cert",
            use: "file"
        ),
        .init(
            arguments: ["sso", "token", "--group", "g", "--backend", "secret-service", "--p12", "c.p12"],
            option: "--p12",
            use: "secret-service"
        ),
        .init(
            arguments: ["cred", "list", "--backend", "file", "--identity", "host"],
            option: "--identity",
            use: "file"
        ),
        .init(
            arguments: ["identity", "list", "--backend", "secret-service", "--login-identity", "host"],
            option: "--login-identity",
            use: "secret-service"
        ),
    ]

    static let environment: [String: String] = [
        "K": String(repeating: "ab", count: 32), "P": "pw", "FK": "\(String(repeating: "A", count: 43))=",
        "LK": String(repeating: "k", count: 32), "MK": "mac-key",
    ]

    @Test(
        "refused with exit 64, one line naming the option and the use, nothing written",
        .tags(.slow),
        arguments: cases
    )
    func refused(_ test: Case) throws {
        try withScratch { dir in
            let input = try dir.write("in", Array("a message".utf8))
            let arguments = test.arguments.map { $0 == "IN" ? input : $0 }
            let output = test.arguments[0] == "encrypt" || test.arguments[0] == "decrypt" ? ["--in", input] : []
            let result = try Tools.seccli(arguments + output, stdin: [], environment: Self.environment, in: dir)
            expectOneLineError(result, status: 64)
            #expect(result.stderr.hasPrefix("seccli: \(test.option) does not apply to "), "\(result.stderr)")
            #expect(result.stderr.contains(test.use), "\(result.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["in"])
        }
    }

    /// The options of every table, and those the cases refuse: a new row needs a case.
    @Test("every row of every table has a case")
    func everyRowTested() {
        let rows =
            CipherOptions.applicability.rules.map(\.option) + SecCLI.KeygenCommand.applicability.rules.map(\.option)
            + SecCLI.KDFCommand.applicability.rules.map(\.option)
            + DigestOutputOptions.applicability.rules.map(\.option)
            + SecCLI.HMACCommand.applicability.rules.map(\.option) + SecCLI.PinCommand.applicability.rules.map(\.option)
            + StoreOptions.applicability.rules.map(\.option) + CredentialOptions.applicability.rules.map(\.option)
        let tested = Set(Self.cases.map(\.option))
        let untested = Set(rows).subtracting(tested).subtracting(Self.refusedBeforeTheTable)
        #expect(untested.isEmpty, "rows without a case: \(untested.sorted())")
    }

    /// pin rows that need --cert or --p12 (refused without them before the table is read), so that
    /// the message names --cert or --p12 first: `pinIdentityWithFile` checks they are refused.
    static let refusedBeforeTheTable: Set<String> = ["--key", "--key-password", "--p12-password"]

    @Test(
        "--p12, --key-password, --p12-password with --file: refused too",
        arguments: [
            ["--p12", "IN"], ["--p12", "IN", "--p12-password", "env:P"], ["--cert", "IN", "--key-password", "env:P"],
        ]
    )
    func pinIdentityWithFile(_ options: [String]) throws {
        try withScratch { dir in
            let input = try dir.write("in", Array("x".utf8))
            let arguments = ["pin", "--file", input] + options.map { $0 == "IN" ? input : $0 }
            let result = try Tools.seccli(arguments, environment: Self.environment)
            expectOneLineError(result, status: 64)
            #expect(result.stderr.contains("does not apply to pin --file"), "\(result.stderr)")
        }
    }

    @Test("the options that do apply are still taken: --md and --iter with openssl, --iter with jwe PBES2")
    func applicableOptionsWork() throws {
        try withScratch { dir in
            let input = try dir.write("in", Array("a message".utf8))
            for arguments in [
                ["encrypt", "--password", "env:P", "--md", "sha512", "--iter", "1000", "--in", input],
                ["encrypt", "--format", "jwe", "--password", "env:P", "--iter", "1000", "--in", input],
                ["keygen", "--format", "jwe-oct", "--bits", "128", "--kid", "k1"],
            ] {
                let result = try Tools.seccli(arguments, environment: Self.environment)
                #expect(result.status == 0, "\(arguments): \(result.stderr)")
            }
        }
    }
}
