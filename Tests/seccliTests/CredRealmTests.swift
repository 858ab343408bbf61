import Foundation
import TestSupport
import Testing

/// `--realm` of `cred set/get/list/delete`: the HTTP realm is part of an internet password's
/// identity, on both backends, and stored as the `realm` attribute that secret-tool searches.
struct CredRealmTests {
    @Test(
        "two realms on one server: two items, each with its own secret; no --realm is a third identity",
        arguments: KeychainBackend.available
    )
    func twoRealmsOnOneServer(_ backend: KeychainBackend) throws {
        try backend.withEnvironment { env in
            let server = Keychain.uniqueName("realms") + ".example.com"
            let base = ["--server", server, "--protocol", "https", "--account", "alice"]
            let admin = base + ["--realm", "Admin Area"]
            let wiki = base + ["--realm", "wiki"]
            try Tools.seccli(
                ["cred", "set"] + admin,
                stdin: Array("admin secret".utf8),
                environment: env,
                expecting: .success
            )
            try Tools.seccli(
                ["cred", "set"] + wiki,
                stdin: Array("wiki secret".utf8),
                environment: env,
                expecting: .success
            )
            #expect(
                try Tools.seccli(["cred", "get"] + admin, environment: env, expecting: .success).stdoutText
                    == "admin secret"
            )
            #expect(
                try Tools.seccli(["cred", "get"] + wiki, environment: env, expecting: .success).stdoutText
                    == "wiki secret"
            )
            expectOneLineError(try Tools.seccli(["cred", "get"] + base, environment: env), status: 10)

            let text = try Tools.seccli(["cred", "list", "--server", server], environment: env, expecting: .success)
            // The label is quoted with its quotes escaped (`UntrustedText.quoted`).
            #expect(
                text.stdoutLines.sorted() == [
                    #"https://\#(server) realm "Admin Area", account alice: label "Password for 'alice' on 'https://\#(server) realm \"Admin Area\"'""#,
                    #"https://\#(server) realm "wiki", account alice: label "Password for 'alice' on 'https://\#(server) realm \"wiki\"'""#,
                ]
            )
            let listing = try Tools.seccli(
                ["cred", "list", "--server", server, "--realm", "wiki", "--json"],
                environment: env,
                expecting: .success
            )
            let entries = try #require(try JSONSerialization.jsonObject(with: Data(listing.stdout)) as? [[String: Any]])
            #expect(entries.count == 1)
            #expect(entries.first?["realm"] as? String == "wiki")
            #expect(entries.first?["server"] as? String == server)

            // Without --realm: a third identity, beside the two.
            try Tools.seccli(
                ["cred", "set"] + base,
                stdin: Array("no realm".utf8),
                environment: env,
                expecting: .success
            )
            for (identity, secret) in [(base, "no realm"), (admin, "admin secret"), (wiki, "wiki secret")] {
                let got = try Tools.seccli(["cred", "get"] + identity, environment: env, expecting: .success)
                #expect(got.stdoutText == secret)
            }

            try Tools.seccli(["cred", "delete"] + admin, environment: env, expecting: .success)
            expectOneLineError(try Tools.seccli(["cred", "get"] + admin, environment: env), status: 10)
            #expect(
                try Tools.seccli(["cred", "get"] + wiki, environment: env, expecting: .success).stdoutText
                    == "wiki secret"
            )
        }
    }
}

/// The realm attribute as secret-tool and Python's secretstorage (under `keyring`) see it.
@Suite(
    "seccli cred --realm interop: secret-tool and Python",
    .enabled(if: SecretServiceSupport.hasPrivateSecretService, SecretServiceSupport.privateSessionOnly)
)
struct CredRealmInteropTests {
    @Test("cred set --realm: secret-tool lookup by realm and Python secretstorage see the realm attribute")
    func seccliToOthers() throws {
        let server = Keychain.uniqueName("realm-out") + ".example.com"
        for (realm, secret) in [("R1", "first"), ("R2", "second")] {
            try Tools.seccli(
                ["cred", "set", "--server", server, "--protocol", "https", "--account", "alice", "--realm", realm],
                stdin: Array(secret.utf8),
                expecting: .success
            )
        }
        #expect(
            try SecretServiceSupport.secretTool(["lookup", "server", server, "realm", "R2"]).stdoutText == "second"
        )
        #expect(try SecretServiceSupport.secretTool(["lookup", "server", server, "realm", "R1"]).stdoutText == "first")
        let script = """
            import sys, secretstorage
            connection = secretstorage.dbus_init()
            for item in secretstorage.search_items(connection, {"server": sys.argv[1]}):
                attributes = item.get_attributes()
                print(attributes["realm"], attributes["user"], attributes["protocol"], item.get_secret().decode())
            """
        let python = try ProcessRunner.run("python3", ["-c", script, server]).requiringSuccess(of: "secretstorage")
        #expect(python.stdoutLines.sorted() == ["R1 alice https first", "R2 alice https second"])
    }

    @Test("secret-tool store … realm R: cred get --realm R reads it, cred get without --realm does not")
    func secretToolToSeccli() throws {
        let server = Keychain.uniqueName("realm-in") + ".example.com"
        try SecretServiceSupport.secretTool(
            [
                "store", "--label", "from secret-tool", "server", server, "protocol", "https", "user", "bob", "realm",
                "Intranet",
            ],
            stdin: Array("from the tool".utf8)
        )
        let item = ["--server", server, "--protocol", "https", "--account", "bob"]
        #expect(
            try Tools.seccli(["cred", "get"] + item + ["--realm", "Intranet"], expecting: .success).stdoutText
                == "from the tool"
        )
        expectOneLineError(try Tools.seccli(["cred", "get"] + item), status: 10)
        expectOneLineError(try Tools.seccli(["cred", "get"] + item + ["--realm", "intranet"]), status: 10)
        let listing = try Tools.seccli(["cred", "list", "--server", server, "--json"], expecting: .success)
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(listing.stdout)) as? [[String: Any]])
        #expect(entries.map { $0["realm"] as? String } == ["Intranet"])
    }
}
