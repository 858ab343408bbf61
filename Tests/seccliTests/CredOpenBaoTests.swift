import Foundation
import SecCrypto
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `seccli cred … --backend openbao` against a real `bao server -dev -dev-tls`, with the `bao` CLI
/// as the other client: settings from the bao CLI's variables and seccli's own, pins checked before
/// any request (the server's audit log sees none), each refusal's exit code, git's helper protocol,
/// and libcurl loaded only by the OpenBao backend.
@Suite struct CredOpenBaoTests {
    static let server = Result { try OpenBaoDevServer.start() }

    let server: OpenBaoDevServer
    let prefix = "cli-" + UUID().uuidString.prefix(8).lowercased()

    init() throws { server = try Self.server.get() }

    /// The variables of a shell that uses the server: `bao`'s, and seccli's backend and prefix.
    var environment: [String: String] {
        server.environment.merging(["SECCLI_BACKEND": "openbao", "SECCLI_OPENBAO_PATH_PREFIX": prefix]) { $1 }
    }

    func seccli(
        _ arguments: [String],
        stdin: [UInt8]? = nil,
        environment extra: [String: String] = [:],
        expecting outcome: Tools.Outcome? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ProcessResult {
        try Tools.seccli(
            arguments,
            stdin: stdin,
            environment: environment.merging(extra) { $1 },
            unsetting: OpenBaoDevServer.inheritedVariables.subtracting(environment.keys).subtracting(extra.keys),
            expecting: outcome,
            sourceLocation: sourceLocation
        )
    }

    /// The pin of the server's certificate, as `seccli pin` prints it.
    func serverPin() throws -> String {
        let report = try Tools.seccli(["pin", "--file", server.certificateFile], expecting: .success).stdoutLines
        return try #require(report.first { $0.hasPrefix("pin: ") }).dropFirst(5).description
    }

    /// The requests the server has logged for this test's items (its audit log has a request and a
    /// response line for each; the other tests of the suite share the server).
    func auditedRequests() throws -> Int {
        let log = (try? String(contentsOfFile: server.auditLog, encoding: .utf8)) ?? ""
        return log.split(separator: "\n").filter { $0.contains("\"type\":\"request\"") && $0.contains(prefix) }.count
    }

    @Test func setGetListDeleteAndBaoReadsTheSameItem() throws {
        try seccli(
            ["cred", "set", "--service", "db", "--account", "app", "--group", "ops", "--label", "DB"],
            stdin: Array("s3cret".utf8),
            expecting: .success
        )
        let path = "\(prefix)/groups/ops/generic/db/app"
        #expect(try server.baoSucceeding(["kv", "get", "-mount=secret", "-field=secret", path]) == "s3cret")
        try server.baoSucceeding(["kv", "put", "-mount=secret", "\(prefix)/generic/db/other", "secret=from bao"])

        #expect(
            try seccli(["cred", "get", "--service", "db", "--account", "app", "--group", "ops"]).stdoutText == "s3cret"
        )
        #expect(try seccli(["cred", "get", "--service", "db", "--account", "other"]).stdoutText == "from bao")
        let listed = try seccli(["cred", "list", "--service", "db"], expecting: .success).stdoutText
        #expect(listed.contains("account app") && listed.contains("account other") && !listed.contains("s3cret"))
        try seccli(["cred", "delete", "--service", "db", "--account", "app", "--group", "ops"], expecting: .success)
        try seccli(["cred", "get", "--service", "db", "--account", "app", "--group", "ops"], expecting: .status(10))
    }

    @Test func mountAndPrefixFromOptionsOrVariables() throws {
        try server.baoSucceeding(["secrets", "enable", "-path=kv-\(prefix)", "kv-v2"])
        try seccli(
            ["cred", "set", "--service", "s", "--account", "a", "--mount", "kv-\(prefix)", "--path-prefix", "team/x"],
            stdin: Array("in team".utf8),
            expecting: .success
        )
        #expect(
            try server.baoSucceeding(["kv", "get", "-mount=kv-\(prefix)", "-field=secret", "team/x/generic/s/a"])
                == "in team"
        )
        let got = try seccli(
            ["cred", "get", "--service", "s", "--account", "a"],
            environment: ["SECCLI_OPENBAO_MOUNT": "kv-\(prefix)", "SECCLI_OPENBAO_PATH_PREFIX": "team/x"],
            expecting: .success
        )
        #expect(got.stdoutText == "in team")
        // The OpenBao options are refused with another backend, as the file backend's are.
        try seccli(
            ["cred", "get", "--service", "s", "--account", "a", "--backend", "file", "--mount", "m"],
            expecting: .status(64)
        )
    }

    @Test func aWrongPinSendsNoRequestAndExitsAsSeccliPinDoes() throws {
        try seccli(
            ["cred", "set", "--service", "pinned", "--account", "a"],
            stdin: Array("x".utf8),
            expecting: .success
        )
        let before = try auditedRequests()
        let wrong = try seccli(
            [
                "cred", "get", "--service", "pinned", "--account", "a", "--pin",
                "sha256/" + Base64.encode(randomBytes(32)),
            ]
        )
        #expect(wrong.status == 3, "stderr: \(wrong.stderr)")
        #expect(wrong.stdout.isEmpty && wrong.stderr.contains("pin"))
        #expect(try auditedRequests() == before, "a request reached the server past a wrong pin")

        // The server's own pin (from `seccli pin`) lets the same call through, and the server sees it.
        let pin = try serverPin()
        let right = try seccli(
            ["cred", "get", "--service", "pinned", "--account", "a", "--pin", pin],
            environment: ["SECCLI_OPENBAO_PIN": "sha256/" + Base64.encode(randomBytes(32))]
        )
        #expect(right.status == 0 && right.stdoutText == "x", "pin \(pin): \(right.stderr)")
        #expect(try auditedRequests() > before)
        // The variable alone: a wrong pin again.
        try seccli(
            ["cred", "get", "--service", "pinned", "--account", "a"],
            environment: ["SECCLI_OPENBAO_PIN": "sha256/" + Base64.encode(randomBytes(32))],
            expecting: .status(3)
        )
    }

    @Test func refusalsExitWithTheirDocumentedCodes() throws {
        let noPolicy = try server.token(
            policy: "none-\(prefix)",
            rules: #"path "sys/none" { capabilities = ["read"] }"#
        )
        try seccli(
            ["cred", "get", "--service", "x", "--account", "y"],
            environment: ["BAO_TOKEN": noPolicy],
            expecting: .status(16)
        )
        try seccli(["cred", "get", "--service", "x", "--account", "y", "--mount", "nowhere"], expecting: .status(19))
        let closed = "https://127.0.0.1:\(try TLSTestServer.freePort())"
        try seccli(
            ["cred", "get", "--service", "x", "--account", "y", "--timeout", "2"],
            environment: ["BAO_ADDR": closed],
            expecting: .status(6)
        )
        try seccli(
            ["cred", "get", "--service", "x", "--account", "y", "--ca", "/etc/ssl/certs/ca-certificates.crt"],
            expecting: .status(4)
        )
        let noAddress = try Tools.seccli(
            ["cred", "get", "--service", "x", "--account", "y"],
            environment: ["SECCLI_BACKEND": "openbao"],
            unsetting: OpenBaoDevServer.inheritedVariables.subtracting(["SECCLI_BACKEND"])
        )
        #expect(noAddress.status == 64 && noAddress.stderr.contains("BAO_ADDR"), "\(noAddress.stderr)")
        // The token never appears in what seccli says.
        let denied = try seccli(
            ["cred", "get", "--service", "x", "--account", "y"],
            environment: ["BAO_TOKEN": noPolicy]
        )
        #expect(!denied.stderr.contains(noPolicy))
    }

    @Test func gitsHelperProtocolOnTheBackend() throws {
        let host = "\(prefix).example.com"
        try seccli(
            ["cred", "git-helper", "store"],
            stdin: Array("protocol=https\nhost=\(host)\nusername=alice\npassword=p4ss\n\n".utf8),
            expecting: .success
        )
        let got = try seccli(["cred", "git-helper", "get"], stdin: Array("protocol=https\nhost=\(host)\n\n".utf8))
        #expect(got.stdoutText == "username=alice\npassword=p4ss\n", "\(got.stderr)")
        #expect(
            try server.baoSucceeding([
                "kv", "get", "-mount=secret", "-field=secret", "\(prefix)/internet/\(host)/alice/protocol=https",
            ])
                == "p4ss"
        )
        try seccli(
            ["cred", "git-helper", "erase"],
            stdin: Array("protocol=https\nhost=\(host)\nusername=alice\npassword=p4ss\n\n".utf8),
            expecting: .success
        )
        #expect(
            try seccli(["cred", "git-helper", "get"], stdin: Array("protocol=https\nhost=\(host)\n\n".utf8)).stdout
                .isEmpty
        )
    }

    @Test func appRoleLoginFromSourcesAndVariables() throws {
        try writePolicy()
        // The default mount (approle/), as seccli's --login uses it: this is the one test that enables it.
        try server.baoSucceeding(["auth", "enable", "approle"])
        try server.baoSucceeding(["write", "auth/approle/role/\(prefix)", "token_policies=\(prefix)"])
        let roleID = try server.baoSucceeding(["read", "-field=role_id", "auth/approle/role/\(prefix)/role-id"])
        let secretID = try server.baoSucceeding([
            "write", "-f", "-field=secret_id", "auth/approle/role/\(prefix)/secret-id",
        ])
        let noToken = ["BAO_TOKEN": "", "HOME": "/nonexistent"]
        try withScratch { scratch in
            let roleFile = try scratch.write("role-id", roleID)
            try seccli(
                [
                    "cred", "set", "--service", "ci", "--account", "deploy", "--login", "approle", "--role-id",
                    "file:\(roleFile)",
                    "--secret-id", "env:SECRET_ID",
                ],
                stdin: Array("by approle".utf8),
                environment: noToken.merging(["SECRET_ID": secretID]) { $1 },
                expecting: .success
            )
            let got = try seccli(
                ["cred", "get", "--service", "ci", "--account", "deploy"],
                environment: noToken.merging([
                    "SECCLI_OPENBAO_LOGIN": "approle", "SECCLI_OPENBAO_ROLE_ID": "file:\(roleFile)",
                    "SECCLI_OPENBAO_SECRET_ID": "env:SECRET_ID", "SECRET_ID": secretID,
                ]) { $1 },
                expecting: .success
            )
            #expect(got.stdoutText == "by approle")
            let refused = try seccli(
                [
                    "cred", "get", "--service", "ci", "--account", "deploy", "--login", "approle", "--role-id",
                    "file:\(roleFile)",
                    "--secret-id", "env:SECRET_ID",
                ],
                environment: noToken.merging(["SECRET_ID": "wrong-secret-id"]) { $1 }
            )
            #expect(refused.status == 16 && !refused.stderr.contains("wrong-secret-id"), "\(refused.stderr)")
        }
    }

    /// `--login cert` with each kind of identity `seccli pin` takes: PEM (an encrypted key with its
    /// passphrase from a source), PKCS#12, and an identity stored in the Secret Service; by options
    /// and by variables; and in the `identity` commands, by the `--login-` spelling.
    @Test func certificateLoginWithPEMPKCS12AndAStoredIdentity() throws {
        let pki = TestPKI.shared
        try writePolicy()
        // The default mount (cert/), as seccli's --login uses it: this is the one test that enables it.
        try server.baoSucceeding(["auth", "enable", "cert"])
        try server.baoSucceeding([
            "write", "auth/cert/certs/\(prefix)", "policies=\(prefix)", "certificate=@\(pki.path("ca-chain.pem"))",
        ])
        try seccli(
            ["cred", "set", "--service", "ci", "--account", "cert"],
            stdin: Array("by certificate".utf8),
            expecting: .success
        )
        let get = ["cred", "get", "--service", "ci", "--account", "cert", "--login", "cert"]
        let noToken = [
            "BAO_TOKEN": "", "HOME": "/nonexistent", "KEY_PASS": TestPKI.keyPassphrase,
            "P12_PASS": TestPKI.p12Passphrase,
        ]
        func expectSecret(_ arguments: [String], _ environment: [String: String] = [:], _ line: Int = #line) throws {
            let result = try seccli(arguments, environment: noToken.merging(environment) { $1 })
            #expect(result.status == 0 && result.stdoutText == "by certificate", "line \(line): \(result.stderr)")
        }
        // PEM by options: the chain, and the encrypted key with its passphrase from a source.
        try expectSecret(
            get + [
                "--cert", pki.path("client-chain.pem"), "--key", pki.path("client-encrypted.key"), "--key-password",
                "env:KEY_PASS",
            ]
        )
        // PEM by the bao CLI's variables, the passphrase by seccli's.
        try expectSecret(
            get,
            [
                "BAO_CLIENT_CERT": pki.path("client-chain.pem"), "BAO_CLIENT_KEY": pki.path("client-encrypted.key"),
                "SECCLI_OPENBAO_KEY_PASSWORD": "env:KEY_PASS",
            ]
        )
        // PKCS#12 by options and by variables (which win over the bao CLI's client certificate).
        try expectSecret(get + ["--p12", pki.path("client.p12"), "--p12-password", "env:P12_PASS"])
        try expectSecret(
            ["cred", "get", "--service", "ci", "--account", "cert"],
            [
                "SECCLI_OPENBAO_LOGIN": "cert", "SECCLI_OPENBAO_P12": pki.path("client.p12"),
                "SECCLI_OPENBAO_P12_PASSWORD": "env:P12_PASS", "BAO_CLIENT_CERT": pki.path("rogue-client.pem"),
            ]
        )

        // A stored identity, kept in the Secret Service (not in the store it logs in to).
        let stored = "login-\(prefix)"
        try Tools.seccli(
            [
                "identity", "import", "--backend", "secret-service", "--name", stored, "--p12", pki.path("client.p12"),
                "--p12-password", "env:P12_PASS",
            ],
            environment: ["P12_PASS": TestPKI.p12Passphrase],
            expecting: .success
        )
        defer { _ = try? Tools.seccli(["identity", "delete", "--backend", "secret-service", "--name", stored]) }
        try expectSecret(get + ["--identity", stored])
        try expectSecret(get, ["SECCLI_OPENBAO_IDENTITY": stored])

        // The identity commands spell the login's options with login-: --cert is the identity imported.
        let fleet = "fleet-\(prefix)"
        try seccli(
            [
                "identity", "import", "--name", fleet, "--cert", pki.path("client-ec-chain.pem"), "--key",
                pki.path("client-ec.key"), "--login", "cert", "--login-identity", stored,
            ],
            environment: noToken,
            expecting: .success
        )
        let listed = try seccli(
            [
                "identity", "list", "--login", "cert", "--login-p12", pki.path("client.p12"), "--login-p12-password",
                "env:P12_PASS",
            ],
            environment: noToken,
            expecting: .success
        )
        #expect(listed.stdoutText.contains(fleet) && listed.stdoutText.contains("SecKit Test EC Client"))
        #expect(
            try server.baoSucceeding(["kv", "list", "-mount=secret", "\(prefix)/generic/seckit-identity"]).contains(
                fleet
            )
        )
        try seccli(
            ["identity", "delete", "--name", fleet, "--login", "cert"],
            environment: noToken.merging(["SECCLI_OPENBAO_IDENTITY": stored]) { $1 },
            expecting: .success
        )

        // Refusals: a client the cert auth does not trust (16), a wrong passphrase (2, not echoed),
        // a login option without --login cert or with another backend (64), no identity at all (64).
        let rogue = try seccli(
            get + ["--cert", pki.path("rogue-client.pem"), "--key", pki.path("rogue-client.key")],
            environment: noToken
        )
        #expect(rogue.status == 16, "\(rogue.stderr)")
        let wrongPassphrase = try seccli(
            get + ["--p12", pki.path("client.p12"), "--p12-password", "env:WRONG"],
            environment: noToken.merging(["WRONG": "not-the-passphrase"]) { $1 }
        )
        #expect(
            wrongPassphrase.status == 2 && !wrongPassphrase.stderr.contains("not-the-passphrase"),
            "\(wrongPassphrase.stderr)"
        )
        let withoutCertLogin = try seccli(["cred", "get", "--service", "ci", "--account", "cert", "--p12", "x.p12"])
        #expect(withoutCertLogin.status == 64 && withoutCertLogin.stderr.contains("--p12 goes with --login cert"))
        let importSpelling = try seccli(["identity", "list", "--login", "token", "--login-identity", stored])
        #expect(
            importSpelling.status == 64 && importSpelling.stderr.contains("--login-identity goes with --login cert")
        )
        let otherBackend = try seccli(
            ["cred", "get", "--service", "ci", "--account", "cert", "--backend", "file", "--identity", stored]
        )
        #expect(
            otherBackend.status == 64 && otherBackend.stderr.contains("--identity does not apply to the file backend")
        )
        let noIdentity = try seccli(get, environment: noToken)
        #expect(
            noIdentity.status == 64 && noIdentity.stderr.contains("--login cert needs the client identity"),
            "\(noIdentity.stderr)"
        )
    }

    /// The policy named as the test's prefix: every right on the test's items.
    func writePolicy() throws {
        try server.baoSucceeding(
            ["policy", "write", prefix, "-"],
            stdin: Array(
                """
                path "secret/data/\(prefix)/*" { capabilities = ["create", "read", "update", "delete", "list"] }
                path "secret/metadata/\(prefix)/*" { capabilities = ["create", "read", "update", "delete", "list"] }
                """.utf8
            )
        )
    }

    /// `BAO_NAMESPACE`, as the bao CLI reads it: seccli and `bao kv` read each other's items in a
    /// namespace (OpenBao 2.7 has them), and the root namespace holds none of them.
    @Test func aNamespaceFromBaoNamespace() throws {
        try server.baoSucceeding(["namespace", "create", prefix])
        try server.baoSucceeding(["secrets", "enable", "-ns=\(prefix)", "-path=secret", "kv-v2"])
        let inNamespace = ["BAO_NAMESPACE": prefix]
        try seccli(
            ["cred", "set", "--service", "ns", "--account", "seccli"],
            stdin: Array("in a namespace".utf8),
            environment: inNamespace,
            expecting: .success
        )
        let path = "\(prefix)/generic/ns"
        let read = try server.bao(
            ["kv", "get", "-mount=secret", "-field=secret", "\(path)/seccli"],
            environment: inNamespace
        )
        #expect(read.status == 0 && read.stdoutText == "in a namespace", "\(read.stderr)")
        try server.bao(
            ["kv", "put", "-mount=secret", "\(path)/bao", "secret=bao in a namespace"],
            environment: inNamespace
        )
        let got = try seccli(["cred", "get", "--service", "ns", "--account", "bao"], environment: inNamespace)
        #expect(got.status == 0 && got.stdoutText == "bao in a namespace", "\(got.stderr)")
        // Outside the namespace there is no such item (10).
        #expect(try seccli(["cred", "get", "--service", "ns", "--account", "seccli"]).status == 10)
    }

    @Test(.tags(.slow)) func gitsOwnHelperTestPassesOnTheBackend() throws {
        let tests = try GitTests.directory()
        try withScratch { scratch in
            // The helper must be one word for t0303 (its clean-up passes it unquoted).
            let helper = try scratch.write(
                "git-credential-seccli",
                "#!/bin/sh\nexec '\(try Tools.seccliExecutable())' cred git-helper \"$@\"\n"
            )
            #expect(chmod(helper, 0o755) == 0)
            // A prefix of its own: t0303 expects no login for example.com, sso.tld, … at its start.
            var environment = environment
            environment["GIT_TEST_CREDENTIAL_HELPER"] = helper
            environment["TEST_OUTPUT_DIRECTORY"] = scratch.path
            let result = try ProcessRunner.run(
                "sh",
                [
                    "-c",
                    "cd '\(tests)/t' && GIT_TEST_INSTALLED=\"$(dirname \"$(command -v git)\")\" sh t0303-credential-external.sh -v",
                ],
                environment: environment,
                unsetting: OpenBaoDevServer.inheritedVariables.subtracting(environment.keys),
                timeout: .seconds(300)
            )
            #expect(result.status == 0, "\(result.stdoutText)\n\(result.stderr)")
            #expect(result.stdoutLines.contains("# passed all 12 test(s)"), "\(result.stdoutText)")
        }
    }

    @Test func keyringSourcesReadTheBackend() throws {
        try withScratch { dir in
            let key = "key-" + UUID().uuidString
            try seccli(
                ["cred", "set", "--service", "keys", "--account", "mac"],
                stdin: Array(key.utf8),
                expecting: .success
            )
            try dir.write("data.bin", randomBytes(2000))
            let fromBackend = try Tools.seccli(
                ["hmac", "--key", "keyring:keys/mac", "data.bin"],
                environment: environment,
                unsetting: OpenBaoDevServer.inheritedVariables.subtracting(environment.keys),
                in: dir
            )
            #expect(fromBackend.status == 0, "\(fromBackend.stderr)")
            let fromFile = try Tools.seccli(
                ["hmac", "--key", "file:\(try dir.write("key", key))", "data.bin"],
                in: dir
            )
            #expect(fromBackend.stdoutText == fromFile.stdoutText && !fromFile.stdout.isEmpty)
        }
    }

    @Test func identitiesAreSharedThroughTheBackend() throws {
        let pki = TestPKI.shared
        let name = "fleet-\(prefix)"
        try seccli(
            [
                "identity", "import", "--name", name, "--cert", pki.path("client-chain.pem"), "--key",
                pki.path("client.key"),
            ],
            expecting: .success
        )
        let listed = try seccli(["identity", "list"], expecting: .success).stdoutText
        #expect(listed.contains(name), "\(listed)")
        // Another machine of the fleet (another process, the same variables) finds it for `pin --identity`.
        let summary = try seccli(["identity", "list", "--json"], expecting: .success).stdoutText
        #expect(summary.contains("\"name\" : \"\(name)\"") || summary.contains("\"name\":\"\(name)\""), "\(summary)")
        try seccli(["identity", "delete", "--name", name], expecting: .success)
        #expect(try !seccli(["identity", "list"], expecting: .success).stdoutText.contains(name))
    }

    @Test func ssoKeepsItsTokenOnTheBackend() throws {
        try seccli(
            ["sso", "login", "--group", prefix, "--user", "alice"],
            stdin: Array("sso-token".utf8),
            expecting: .success
        )
        #expect(try seccli(["sso", "token", "--group", prefix], expecting: .success).stdoutText == "sso-token")
        #expect(try seccli(["sso", "user", "--group", prefix], expecting: .success).stdoutText.contains("alice"))
    }

    @Test func libcurlIsLoadedOnlyByTheOpenBaoBackend() throws {
        let traced = ["LD_DEBUG": "libs"]
        try seccli(["cred", "set", "--service", "curl", "--account", "a"], stdin: Array("x".utf8), expecting: .success)
        let openBao = try seccli(["cred", "get", "--service", "curl", "--account", "a"], environment: traced)
        #expect(openBao.status == 0)
        #expect(openBao.stderr.contains("calling init: ") && openBao.stderr.contains("libcurl.so"))
        try withScratch { scratch in
            let file = try seccli(
                [
                    "cred", "get", "--backend", "file", "--store-file", scratch.path("none.store"), "--service", "c",
                    "--account", "a",
                ],
                environment: traced.merging(["SECCLI_STORE_PASSWORD": "pw"]) { $1 }
            )
            #expect(file.status == 10)
            #expect(file.stderr.contains("calling init: ") && !file.stderr.contains("libcurl"))
        }
    }

    /// The OpenBao backend never maps GIO, GObject or GLib (loaded by the Secret Service only), writes
    /// included: their `seckit-id` is OpenSSL's SHA-256 there. The debug build links GLib, so this is
    /// the release binary's (LinkageTests has `--version` and the file backend).
    @Test(
        .enabled(
            if: ProcessInfo.processInfo.environment["SECCLI"] != nil,
            "needs SECCLI: the binary of tools/build-release (the debug build links GLib)"
        )
    )
    func glibIsNotLoadedByTheOpenBaoBackend() throws {
        let traced = ["LD_DEBUG": "libs"]
        let set = try seccli(
            ["cred", "set", "--service", "glib", "--account", "a"],
            stdin: Array("x".utf8),
            environment: traced
        )
        #expect(set.status == 0, "\(set.stderr.suffix(300))")
        #expect(LinkageTests.glibLibraries(in: set.stderr) == [], "cred set")
        let get = try seccli(
            ["cred", "get", "--service", "glib", "--account", "a", "--pin", try serverPin()],
            environment: traced
        )
        #expect(get.status == 0 && get.stdoutText == "x")
        #expect(get.stderr.contains("calling init: ") && get.stderr.contains("libcurl.so"))
        #expect(LinkageTests.glibLibraries(in: get.stderr) == [], "cred get")
        // The seckit-id the Secret Service's writes give the same identity (docs/SecKeychain.md), by
        // OpenSSL here: Python's hashlib computes the documented value.
        let expected = try ProcessRunner.run(
            "python3",
            [
                "-c",
                "import hashlib, sys; print(hashlib.sha256('\\0'.join(sys.argv[1:]).encode()).hexdigest()[:32], end='')",
                "generic", "glib", "a", "", "", "", "", "",
            ]
        ).requiringSuccess(of: "python3 hashlib").stdoutText
        let metadata = try server.baoSucceeding(
            ["kv", "metadata", "get", "-mount=secret", "-format=json", "\(prefix)/generic/glib/a"]
        )
        #expect(metadata.contains("\"seckit-id\": \"\(expected)\""), "\(metadata)")
    }
}
