import Foundation
import TestSupport
import Testing

/// `keyring:SERVICE/ACCOUNT` secret sources: items stored by `secret-tool` (and seccli) read for
/// every option that takes a source, checked against `openssl enc`, `openssl dgst -hmac` and
/// `openssl s_server -Verify 1`; a missing item exits 10 with one line and writes nothing.
@Suite(
    "keyring: secret sources",
    .enabled(if: SecretServiceSupport.hasPrivateSecretService, SecretServiceSupport.privateSessionOnly)
)
struct KeyringSourceTests {
    /// Stores `secret` with `secret-tool store … service SERVICE account ACCOUNT`.
    static func store(_ secret: String, service: String, account: String) throws {
        try SecretServiceSupport.secretTool(
            ["store", "--label", "keyring source test", "service", service, "account", account],
            stdin: Array(secret.utf8)
        )
    }

    @Test("encrypt --password keyring:…, then openssl enc -d with the same password; decrypt reads it too")
    func password() throws {
        try withScratch { dir in
            let service = Keychain.uniqueName("source")
            let password = randomPrintable(24)
            // A first line only, as for file: (secret-tool stores what it is given, newline included).
            try Self.store(password + "\n", service: service, account: "deploy")
            let plaintext = randomBytes(1000)
            try dir.write("plain.bin", plaintext)
            try Tools.seccli(
                ["encrypt", "--password", "keyring:\(service)/deploy", "--iter", "600000", "--in", "plain.bin"]
                    + ["--out", "sealed.enc"],
                in: dir,
                expecting: .success
            )
            let opened = try Tools.reference(
                "openssl",
                [
                    "enc", "-d", "-aes-256-cbc", "-pbkdf2", "-iter", "600000", "-md", "sha256", "-pass",
                    "pass:\(password)",
                ]
                    + ["-in", "sealed.enc"],
                in: dir
            )
            #expect(opened.stdout == plaintext)
            let decrypted = try Tools.seccli(
                ["decrypt", "--password", "keyring:\(service)/deploy", "--iter", "600000", "--in", "sealed.enc"],
                in: dir
            )
            #expect(decrypted.status == 0, "\(decrypted.stderr)")
            #expect(decrypted.stdout == plaintext)
        }
    }

    @Test("--key keyring:… splits at the last /, and gives the HMAC that file: and openssl dgst -hmac give")
    func keyWithSlashInService() throws {
        try withScratch { dir in
            let service = "https://example.com/api/\(Keychain.uniqueName("source"))"
            let key = randomPrintable(32)
            try Self.store(key, service: service, account: "ci")
            try dir.write("key.txt", Array(key.utf8))
            try dir.write("data.bin", randomBytes(5000))
            let fromKeyring = try Tools.seccli(["hmac", "--key", "keyring:\(service)/ci", "data.bin"], in: dir)
            #expect(fromKeyring.status == 0, "\(fromKeyring.stderr)")
            let fromFile = try Tools.seccli(["hmac", "--key", "file:key.txt", "data.bin"], in: dir)
            #expect(fromKeyring.stdoutText == fromFile.stdoutText)
            let openssl = try Tools.opensslHex(["-sha256", "-hmac", key, "data.bin"], in: dir)
            #expect(fromKeyring.stdoutText.hasPrefix(openssl + "  "))
        }
    }

    @Test("pin --p12-password and --key-password keyring:… against openssl s_server -Verify 1")
    func clientIdentityPassphrases() throws {
        let pki = TestPKI.shared
        let service = Keychain.uniqueName("source")
        try Self.store(TestPKI.p12Passphrase, service: service, account: "p12")
        try Self.store(TestPKI.keyPassphrase, service: service, account: "key")
        for identity in [
            ["--p12", "client.p12", "--p12-password", "keyring:\(service)/p12"],
            [
                "--cert", "client-chain.pem", "--key", "client-encrypted.key", "--key-password",
                "keyring:\(service)/key",
            ],
        ] {
            let server = try pki.server(["-Verify", "1", "-verify_return_error", "-CAfile", "ca.pem"])
            defer { server.stop() }
            let result = try Tools.seccli(
                ["pin", "localhost:\(server.port)", "--ca", "ca.pem"] + identity,
                in: Scratch(path: pki.directory)
            )
            #expect(result.status == 0 && result.stderr.isEmpty, "\(identity): \(result.status) \(result.stderr)")
            #expect(result.stdoutLines.first?.hasSuffix("client certificate requested") == true)
        }
        // Another item's secret is a wrong passphrase (exit 2, before connecting): the named item unlocked it.
        let wrong = try Tools.seccli(
            [
                "pin", "localhost:1", "--ca", "ca.pem", "--p12", "client.p12", "--p12-password",
                "keyring:\(service)/key",
            ],
            in: Scratch(path: pki.directory)
        )
        expectOneLineError(wrong, status: 2)
    }

    @Test("cred --backend file --store-password keyring:…: the file store's password comes from the Secret Service")
    func storePassword() throws {
        try withScratch { dir in
            let service = Keychain.uniqueName("source")
            let password = randomPrintable(20)
            try Self.store(password, service: service, account: "store")
            let file = ["--backend", "file", "--store-file", dir.path("credentials.store")]
            try Tools.seccli(
                ["cred", "set", "--service", "s", "--account", "a", "--store-password", "keyring:\(service)/store"]
                    + file,
                stdin: Array("in the file".utf8),
                expecting: .success
            )
            let read = try Tools.seccli(
                ["cred", "get", "--service", "s", "--account", "a", "--store-password", "env:P"] + file,
                environment: ["P": password]
            )
            #expect(read.status == 0, "\(read.stderr)")
            #expect(read.stdoutText == "in the file")
        }
    }

    @Test("a missing item: exit 10, one line naming the source, no output file; an empty one: exit 2")
    func missingAndEmpty() throws {
        try withScratch { dir in
            let service = Keychain.uniqueName("source")
            try dir.write("plain.bin", [1, 2, 3])
            let missing = try Tools.seccli(
                ["encrypt", "--password", "keyring:\(service)/nobody", "--in", "plain.bin", "--out", "out.enc"],
                in: dir
            )
            expectOneLineError(missing, status: 10)
            #expect(
                missing.stderr
                    == "seccli: cannot read secret from keyring:\(service)/nobody: no matching item in the keychain\n"
            )
            #expect(!FileManager.default.fileExists(atPath: dir.path("out.enc")))

            try Self.store("", service: service, account: "empty")
            let empty = try Tools.seccli(["hmac", "--key", "keyring:\(service)/empty", "plain.bin"], in: dir)
            expectOneLineError(empty, status: 2)
            #expect(empty.stderr == "seccli: the secret from keyring:\(service)/empty is empty\n")
        }
    }

    @Test(
        "keyring: without a service or an account is a usage error (64)",
        arguments: ["keyring:", "keyring:service", "keyring:/account", "keyring:service/"]
    )
    func malformed(_ source: String) throws {
        let result = try Tools.seccli(["kdf", "--password", source, "--salt", "00", "--iter", "1000"])
        expectOneLineError(result, status: 64)
        #expect(result.stderr.contains("keyring: needs a service and an account"))
    }
}
