import Foundation
import TestSupport
import Testing

/// An empty secret — an empty variable, file or line — is refused wherever seccli reads one (exit 2,
/// one line naming the source, no output written), as openssl refuses an empty password; only
/// `--p12-password` takes an empty one, which PKCS#12 files made with `-passout pass:` need.
@Suite("seccli: empty secrets are refused")
struct EmptySecretTests {
    /// A command that reads a secret from the variable EMPTY (set to ""), and the output it must not write.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let arguments: [String]
        var environment: [String: String] = [:]

        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "encrypt --password",
            arguments: ["encrypt", "--password", "env:EMPTY", "--in", "IN", "--out", "OUT"]
        ),
        Case(
            name: "decrypt --password",
            arguments: ["decrypt", "--password", "env:EMPTY", "--in", "IN", "--out", "OUT"]
        ),
        Case(
            name: "encrypt --key (raw cipher key)",
            arguments: [
                "encrypt", "--cipher", "aes-256-cbc", "--key", "env:EMPTY", "--key-format", "hex", "--iv",
                "00112233445566778899aabbccddeeff", "--in", "IN", "--out", "OUT",
            ]
        ),
        Case(
            name: "encrypt --format jwe --password",
            arguments: ["encrypt", "--format", "jwe", "--password", "env:EMPTY", "--in", "IN", "--out", "OUT"]
        ),
        Case(
            name: "encrypt --format fernet --key",
            arguments: ["encrypt", "--format", "fernet", "--key", "env:EMPTY", "--in", "IN", "--out", "OUT"]
        ),
        Case(name: "hmac --key", arguments: ["hmac", "--key", "env:EMPTY", "IN"]),
        Case(name: "kdf --password", arguments: ["kdf", "--password", "env:EMPTY", "--salt", "00", "--iter", "1000"]),
        Case(
            name: "cred set --secret",
            arguments: ["cred", "set", "--service", "empty-secret", "--account", "a", "--secret", "env:EMPTY"],
            environment: ["SECCLI_BACKEND": "file", "SECCLI_STORE_FILE": "STORE", "SECCLI_STORE_PASSWORD": "p"]
        ),
        Case(
            name: "--store-password",
            arguments: ["cred", "get", "--service", "s", "--account", "a", "--store-password", "env:EMPTY"],
            environment: ["SECCLI_BACKEND": "file", "SECCLI_STORE_FILE": "STORE"]
        ),
    ]

    @Test(arguments: cases)
    func refused(_ test: Case) throws {
        try withScratch { dir in
            try dir.write("in", Array("a message".utf8))
            let arguments = test.arguments.map {
                $0 == "IN" ? dir.path("in") : $0 == "OUT" ? dir.path("out") : $0
            }
            var environment = test.environment.mapValues { $0 == "STORE" ? dir.path("store") : $0 }
            environment["EMPTY"] = ""
            let result = try Tools.seccli(arguments, environment: environment)
            expectOneLineError(result, status: 2)
            #expect(result.stderr.contains("env:EMPTY is empty"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir.path("out")), "an output was written")
            #expect(!FileManager.default.fileExists(atPath: dir.path("store")), "a store was written")
        }
    }

    /// The same from an empty file and an empty line on standard input.
    @Test func emptyFileAndEmptyLine() throws {
        try withScratch { dir in
            try dir.write("empty", [])
            try dir.write("in", Array("a message".utf8))
            let fromFile = try Tools.seccli(["hmac", "--key", "file:\(dir.path("empty"))", dir.path("in")])
            expectOneLineError(fromFile, status: 2)
            #expect(fromFile.stderr.contains("is empty"))
            let fromLine = try Tools.seccli(
                ["encrypt", "--password", "stdin", "--in", dir.path("in"), "--out", dir.path("out")],
                stdin: Array("\n".utf8)
            )
            expectOneLineError(fromLine, status: 2)
            #expect(fromLine.stderr.contains("stdin is empty"))
            #expect(!FileManager.default.fileExists(atPath: dir.path("out")))
        }
    }
}
