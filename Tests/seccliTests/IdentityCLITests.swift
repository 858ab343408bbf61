import Foundation
import TestSupport
import Testing

/// `seccli identity import/list/delete` with identities the openssl CLI made (TestSupport's
/// `TestPKI`), on the private Secret Service, and `seccli pin --identity NAME` logging in with a
/// stored identity to `openssl s_server -Verify 1`. Each test uses names no other test uses, as
/// every identity shares the `seckit-identity` service.
@Suite(
    "seccli identity",
    .enabled(if: SecretServiceSupport.hasPrivateSecretService, SecretServiceSupport.privateSessionOnly)
)
struct IdentityCLITests {
    static let pki = TestPKI.shared

    /// The PKI's folder, where seccli runs (`client.p12` and the other files by their names).
    static let folder = Scratch(path: pki.directory)

    /// Imports `client.p12` as `name` (passphrase from fd:3).
    static func importPKCS12(_ name: String) throws -> ProcessResult {
        try Tools.seccli(
            ["identity", "import", "--name", name, "--p12", "client.p12", "--p12-password", "fd:3"],
            extraInput: .init(descriptor: 3, bytes: Array("\(TestPKI.p12Passphrase)\n".utf8)),
            in: Self.folder
        )
    }

    /// The `identity list --json` entries named `name`.
    static func listed(_ name: String) throws -> [[String: Any]] {
        let result = try Tools.seccli(["identity", "list", "--json"], in: Self.folder, expecting: .success)
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [[String: Any]])
        return entries.filter { $0["name"] as? String == name }
    }

    /// No private key material, no passphrase.
    static func expectNoSecret(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let keyLine = String(try pki.openssl(["pkey", "-in", "client.key"]).split(separator: "\n")[1])
        for secret in ["PRIVATE KEY", keyLine, TestPKI.p12Passphrase, TestPKI.keyPassphrase] {
            #expect(!text.contains(secret), "a secret was printed: \(secret)", sourceLocation: sourceLocation)
        }
    }

    @Test("import from PKCS#12 and from a PEM pair (encrypted key); list shows both in text and JSON, never a secret")
    func importAndList() throws {
        let p12Name = Keychain.uniqueName("p12")
        let pemName = Keychain.uniqueName("pem")
        let imported = try Self.importPKCS12(p12Name)
        #expect(imported.status == 0 && imported.stderr.isEmpty, "\(imported.stderr)")
        let pem = try Tools.seccli(
            [
                "identity", "import", "--name", pemName, "--cert", "client-chain.pem", "--key",
                "client-encrypted.key", "--key-password", "env:SECCLI_TEST_KEY_PASS",
            ],
            environment: ["SECCLI_TEST_KEY_PASS": TestPKI.keyPassphrase],
            in: Self.folder
        )
        #expect(pem.status == 0 && pem.stderr.isEmpty, "\(pem.stderr)")
        try Self.expectNoSecret(imported.stdoutText + pem.stdoutText)

        let pin = try Self.pki.opensslPublicKeyPin("client.pem")
        let notAfter = try opensslNotAfter("client.pem")
        let text = try Tools.seccli(["identity", "list"], in: Self.folder, expecting: .success)
        try Self.expectNoSecret(text.stdoutText)
        // TestPKI's client certificate is valid for 10 days: flagged.
        let expected =
            ": subject \"CN=SecKit Test Client\", issuer \"CN=SecKit Test Intermediate,O=SecKit Test,C=DE\", "
            + "notAfter \(notAfter) (expires soon), pin \(pin)"
        #expect(text.stdoutLines.contains(p12Name + expected), "\(text.stdoutText)")
        #expect(text.stdoutLines.contains(pemName + expected), "\(text.stdoutText)")
        #expect(imported.stdoutLines == [p12Name + expected])

        let entry = try #require(try Self.listed(p12Name).first)
        #expect(entry["subject"] as? String == "CN=SecKit Test Client")
        #expect(entry["issuer"] as? String == "CN=SecKit Test Intermediate,O=SecKit Test,C=DE")
        #expect(entry["notAfter"] as? String == notAfter)
        #expect(entry["pin"] as? String == pin)
        #expect(entry["expiresSoon"] as? Bool == true && entry["expired"] as? Bool == false)
        try Self.expectNoSecret(try Tools.seccli(["identity", "list", "--json"], in: Self.folder).stdoutText)
    }

    @Test("a certificate valid for more than 30 days is not flagged; one that has expired is")
    func expiryFlags() throws {
        try withScratch { scratch in
            _ = try ProcessRunner.run(
                "openssl",
                [
                    "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
                    "long.key", "-out", "long.pem", "-days", "400", "-subj", "/CN=Long Lived",
                ],
                currentDirectory: scratch.path
            ).requiringSuccess(of: "openssl req")
            let long = Keychain.uniqueName("long")
            let expired = Keychain.uniqueName("expired")
            _ = try Tools.seccli(
                [
                    "identity", "import", "--name", long, "--cert", scratch.path("long.pem"), "--key",
                    scratch.path("long.key"),
                ],
                in: Self.folder,
                expecting: .success
            )
            _ = try Tools.seccli(
                [
                    "identity", "import", "--name", expired, "--cert", "expired.pem", "--key", "expired.key",
                ],
                in: Self.folder,
                expecting: .success
            )
            let longEntry = try #require(try Self.listed(long).first)
            #expect(longEntry["expiresSoon"] as? Bool == false && longEntry["expired"] as? Bool == false)
            let expiredEntry = try #require(try Self.listed(expired).first)
            #expect(expiredEntry["expiresSoon"] as? Bool == true && expiredEntry["expired"] as? Bool == true)
            let lines = try Tools.seccli(["identity", "list"], in: Self.folder).stdoutLines
            let longLine = try #require(lines.first { $0.hasPrefix(long + ":") })
            #expect(!longLine.contains("(expires soon)") && !longLine.contains("EXPIRED"), "\(longLine)")
            #expect(
                lines.first { $0.hasPrefix(expired + ":") }?.contains("notAfter 2020-02-01T00:00:00Z (EXPIRED)") == true
            )
        }
    }

    @Test("the item's attributes (secret-tool search --all) hold no key; its secret holds the key and the chain")
    func storedItem() throws {
        let name = Keychain.uniqueName("item")
        _ = try Self.importPKCS12(name).requiringSuccess(of: "import")
        let found = try SecretServiceSupport.secretTool([
            "search", "--all", "service", "seckit-identity", "account", name,
        ])
        // secret-tool prints label and secret on standard output, the attributes on standard error.
        let attributes = found.stderr + (found.stdoutLines.first { $0.hasPrefix("label = ") } ?? "")
        #expect(found.stderr.contains("attribute.account = \(name)"), "\(found.stderr)")
        try Self.expectNoSecret(attributes)
        let keyLine = String(try Self.pki.openssl(["pkey", "-in", "client.key"]).split(separator: "\n")[1])
        #expect(found.stdoutText.contains("-----BEGIN PRIVATE KEY-----") && found.stdoutText.contains(keyLine))
        #expect(
            found.stdoutText.components(separatedBy: "-----BEGIN CERTIFICATE-----").count == 3,
            "client + intermediate"
        )
    }

    @Test(
        "pin --identity NAME logs in to openssl s_server -Verify 1; without it, or after delete, it fails",
        arguments: ["-tls1_3", "-tls1_2"]
    )
    func mutualTLS(version: String) throws {
        let name = Keychain.uniqueName("mtls")
        _ = try Self.importPKCS12(name).requiringSuccess(of: "import")
        let server = try Self.pki.server(["-Verify", "1", "-verify_return_error", "-CAfile", "ca.pem", version])
        defer { server.stop() }
        let target = ["pin", "localhost:\(server.port)", "--ca", "ca.pem"]

        let accepted = try Tools.seccli(target + ["--identity", name], in: Self.folder)
        #expect(accepted.status == 0 && accepted.stderr.isEmpty, "\(accepted.stderr)")
        #expect(accepted.stdoutLines.first?.hasSuffix("client certificate requested") == true, "\(accepted.stdoutText)")
        try Self.expectNoSecret(accepted.stdoutText + accepted.stderr)

        let without = try Tools.seccli(target, in: Self.folder)
        expectOneLineError(without, status: 5)
        #expect(without.stderr.contains("requires a client certificate"), "\(without.stderr)")

        _ = try Tools.seccli(["identity", "delete", "--name", name], in: Self.folder, expecting: .success)
        #expect(try Self.listed(name).isEmpty)
        let deleted = try Tools.seccli(target + ["--identity", name], in: Self.folder)
        expectOneLineError(deleted, status: 10)
        expectOneLineError(try Tools.seccli(["identity", "delete", "--name", name], in: Self.folder), status: 10)
    }

    @Test(
        "a secret-tool look-alike hides no identity: the others listed, it reported in one escaped line, exit 1"
    )
    func lookAlikeItem() throws {
        // In a nested private session: the look-alike would fail every other test's `identity list`.
        try withScratch { out in
            let script = """
                export P12_PASS='\(TestPKI.p12Passphrase)' OUT='\(out.path)'
                cd '\(Self.pki.directory)'
                "$SECCLI" identity import --name good --p12 client.p12 --p12-password env:P12_PASS >/dev/null
                printf 'garbage' | secret-tool store --label look-alike service seckit-identity \\
                  account "$(printf 'bad\\033[31m')"
                run() { status=0; "$SECCLI" "$@" >"$OUT/$name.out" 2>"$OUT/$name.err" || status=$?; echo $status >"$OUT/$name.status"; }
                name=text run identity list
                name=json run identity list --json
                name=cred run cred list --service seckit-identity
                """
            let session = try Keychain.inNestedSession(script)
            try #require(session.status == 0, "nested session: \(session.stderr)")
            func result(_ name: String) throws -> (status: String, out: String, err: String) {
                (
                    String(decoding: try out.read("\(name).status"), as: UTF8.self),
                    String(decoding: try out.read("\(name).out"), as: UTF8.self),
                    String(decoding: try out.read("\(name).err"), as: UTF8.self)
                )
            }
            let reported =
                "seccli: identity \"bad\\u{1b}[31m\" not listed: client identity: the item has no readable "
                + "certificate summary (another tool wrote it, or it was altered)\n"
            let text = try result("text")
            #expect(text.status == "1\n")
            #expect(text.err == reported)
            let lines = text.out.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix("good: subject \"CN=SecKit Test Client\""), "\(text.out)")

            let json = try result("json")
            #expect(json.status == "1\n")
            #expect(json.err == reported)
            let entries = try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [[String: Any]]
            #expect(entries?.map { $0["name"] as? String } == ["good"], "\(json.out)")

            let cred = try result("cred")
            #expect(cred.status == "0\n" && cred.err.isEmpty, "\(cred.err)")
            #expect(cred.out.contains("account bad\\u{1b}[31m: label \"look-alike\"\n"), "\(cred.out)")
            #expect(cred.out.contains("account good: label \"Client identity good (CN=SecKit Test Client)\", expires "))
        }
    }

    @Test("bad input: one line, the documented code, nothing stored")
    func badInput() throws {
        let name = Keychain.uniqueName("bad")
        let wrong = try Tools.seccli(
            ["identity", "import", "--name", name, "--p12", "client.p12", "--p12-password", "env:SECCLI_TEST_WRONG"],
            environment: ["SECCLI_TEST_WRONG": "wrong"],
            in: Self.folder
        )
        expectOneLineError(wrong, status: 2)
        let mismatch = try Tools.seccli(
            [
                "identity", "import", "--name", name, "--cert", "client.pem", "--key", "leaf-rsa.key",
            ],
            in: Self.folder
        )
        expectOneLineError(mismatch, status: 2)
        #expect(try Self.listed(name).isEmpty, "nothing stored")
        for arguments in [
            ["identity", "import", "--name", name],
            ["identity", "import", "--name", "", "--cert", "client.pem", "--key", "client.key"],
            ["identity", "import", "--name", name, "--p12", "client.p12", "--cert", "client.pem"],
            ["pin", "localhost:1", "--identity", name, "--p12", "client.p12"],
            ["pin", "--file", "client.pem", "--identity", name],
        ] {
            expectOneLineError(try Tools.seccli(arguments, in: Self.folder), status: 64)
        }
    }
}

/// notAfter of a TestPKI certificate in ISO 8601, from `openssl x509 -dateopt iso_8601` (which
/// prints `2026-12-31 00:00:00Z`).
func opensslNotAfter(_ certificate: String) throws -> String {
    let line = try TestPKI.shared.openssl(["x509", "-in", certificate, "-noout", "-enddate", "-dateopt", "iso_8601"])
    return line.trimmingCharacters(in: .newlines).replacingOccurrences(of: "notAfter=", with: "")
        .replacingOccurrences(of: " ", with: "T")
}
