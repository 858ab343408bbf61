import Foundation
import TestSupport
import Testing

/// `seccli cred delete --all`: every item of a group, service or server (or their combination) is
/// removed and counted on one line; items outside the scope, also other tools' items, stay.
@Suite("seccli cred delete --all")
struct CredDeleteAllTests {
    /// `cred set` of `item` with the secret "secret".
    static func set(_ item: [String], _ env: [String: String]) throws {
        try Tools.seccli(["cred", "set"] + item, stdin: Array("secret".utf8), environment: env, expecting: .success)
    }

    /// The exit status of `cred get` for `item` (0 while it exists, 10 once it is gone).
    static func getStatus(_ item: [String], _ env: [String: String]) throws -> Int32 {
        try Tools.seccli(["cred", "get"] + item, environment: env).status
    }

    @Test(.tags(.slow), arguments: KeychainBackend.available)
    func scopes(_ backend: KeychainBackend) throws {
        try backend.withEnvironment { env in
            let service = Keychain.uniqueName("all")
            let other = Keychain.uniqueName("other")
            let group = Keychain.uniqueName("group")
            let server = Keychain.uniqueName("host") + ".example.com"
            let items = [
                "a": ["--service", service, "--account", "a"],
                "b": ["--service", service, "--account", "b"],
                "c in group": ["--service", service, "--account", "c", "--group", group],
                "other in group": ["--service", other, "--account", "a", "--group", group],
                "other": ["--service", other, "--account", "x"],
                "web": ["--server", server, "--account", "u", "--protocol", "https"],
                "other web": ["--server", "other-" + server, "--account", "u", "--protocol", "https"],
            ]
            for item in items.values { try Self.set(item, env) }

            func deleteAll(_ scope: [String], removes expected: [String]) throws {
                let before = try items.filter { try Self.getStatus($0.value, env) == 0 }.map(\.key)
                let result = try Tools.seccli(
                    ["cred", "delete", "--all"] + scope,
                    environment: env,
                    expecting: .success
                )
                #expect(result.stdoutText == "removed \(expected.count) item\(expected.count == 1 ? "" : "s")\n")
                #expect(result.stderr.isEmpty)
                let after = try items.filter { try Self.getStatus($0.value, env) == 0 }.map(\.key)
                #expect(Set(before).subtracting(after) == Set(expected), "\(scope)")
            }
            try deleteAll(["--group", group, "--service", service], removes: ["c in group"])
            try deleteAll(["--service", service], removes: ["a", "b"])
            try deleteAll(["--group", group], removes: ["other in group"])
            try deleteAll(["--server", server], removes: ["web"])
            #expect(try Self.getStatus(items["other"]!, env) == 0)
            #expect(try Self.getStatus(items["other web"]!, env) == 0)

            let none = try Tools.seccli(["cred", "delete", "--all", "--service", service], environment: env)
            expectOneLineError(none, status: 10)
        }
    }

    @Test(
        "--all without --group, --service or --server is refused (64), and deletes nothing",
        arguments: [["--all"], ["--all", "--account", "a"]]
    )
    func refusedWithoutScope(_ arguments: [String]) throws {
        try KeychainBackend.file.withEnvironment { env in
            let item = ["--service", Keychain.uniqueName("kept"), "--account", "a"]
            try Self.set(item, env)
            let result = try Tools.seccli(["cred", "delete"] + arguments, environment: env)
            expectOneLineError(result, status: 64)
            #expect(result.stderr.contains("--all needs a scope"))
            #expect(try Self.getStatus(item, env) == 0)
        }
    }

    @Test(
        "secret-tool's and Python keyring's items in the service are removed; those of other services stay",
        .enabled(if: SecretServiceSupport.hasPrivateSecretService, SecretServiceSupport.privateSessionOnly)
    )
    func otherToolsItems() throws {
        let service = Keychain.uniqueName("all")
        let other = Keychain.uniqueName("other")
        for name in [service, other] {
            try SecretServiceSupport.secretTool(
                ["store", "--label", "from secret-tool", "service", name, "account", "tool"],
                stdin: Array("s".utf8)
            )
            try SecretServiceSupport.pythonKeyring(
                "keyring.set_password(sys.argv[1], 'python', 'p')",
                [name]
            )
        }
        try Self.set(["--service", service, "--account", "seccli", "--group", "tools"], [:])
        #expect(try Keychain.secretToolCount(["service", service]) == 3)

        let result = try Tools.seccli(["cred", "delete", "--service", service, "--all"], expecting: .success)
        #expect(result.stdoutText == "removed 3 items\n")
        #expect(try Keychain.secretToolCount(["service", service]) == 0)
        #expect(try Keychain.secretToolCount(["service", other]) == 2)
        let python = try SecretServiceSupport.pythonKeyring(
            "sys.stdout.write(keyring.get_password(sys.argv[1], 'python'))",
            [other]
        )
        #expect(python.stdoutText == "p")
    }
}
