import Foundation
import TestSupport
import Testing

/// Items written by seccli are found by `secret-tool` and Python `keyring`, and the other way round.
@Suite(
    "seccli cred interop: secret-tool and Python keyring",
    .enabled(if: SecretServiceSupport.hasPrivateSecretService, SecretServiceSupport.privateSessionOnly)
)
struct CredInteropTests {
    @Test("seccli cred set, then secret-tool lookup and keyring.get_password")
    func seccliToOthers() throws {
        let service = Keychain.uniqueName("interop")
        let secret = randomPrintable(48)
        try Tools.seccli(
            ["cred", "set", "--service", service, "--account", "alice"],
            stdin: Array(secret.utf8),
            expecting: .success
        )
        #expect(
            try SecretServiceSupport.secretTool(["lookup", "service", service, "account", "alice"]).stdoutText == secret
        )
        let python = try SecretServiceSupport.pythonKeyring(
            "sys.stdout.write(keyring.get_password(sys.argv[1], sys.argv[2]))",
            [service, "alice"]
        )
        #expect(python.stdoutText == secret)
    }

    @Test("secret-tool store, then seccli cred get (binary, byte for byte)")
    func secretToolToSeccli() throws {
        let service = Keychain.uniqueName("interop")
        let secret = randomBytes(300) + [0, 10]
        try SecretServiceSupport.secretTool(
            ["store", "--label", "from secret-tool", "service", service, "account", "bob"],
            stdin: secret
        )
        #expect(
            try Tools.seccli(["cred", "get", "--service", service, "--account", "bob"], expecting: .success).stdout
                == secret
        )
    }

    @Test("without --account, cred get finds what secret-tool lookup finds, and exits 15 when two items match")
    func lookupWithoutAccount() throws {
        let service = Keychain.uniqueName("interop")
        let secret = randomBytes(40)
        try SecretServiceSupport.secretTool(
            ["store", "--label", "one", "service", service, "account", "a"],
            stdin: secret
        )
        let found = try Tools.seccli(["cred", "get", "--service", service], expecting: .success)
        #expect(found.stdout == secret)
        #expect(try SecretServiceSupport.secretTool(["lookup", "service", service]).stdout == found.stdout)

        try SecretServiceSupport.secretTool(
            ["store", "--label", "two", "service", service, "account", "b"],
            stdin: [1]
        )
        let ambiguous = try Tools.seccli(["cred", "get", "--service", service])
        #expect(ambiguous.status == 15)
        #expect(ambiguous.stdout.isEmpty)
        #expect(
            ambiguous.stderr
                == "seccli: 2 different items match: name the item more precisely (account, access group, server)\n"
        )
        #expect(
            try Tools.seccli(["cred", "get", "--service", service, "--account", "b"], expecting: .success).stdout == [1]
        )
        let none = try Tools.seccli(["cred", "get", "--service", Keychain.uniqueName("absent")])
        #expect(none.status == 10)
    }

    @Test("keyring.set_password, then seccli cred get; seccli cred delete removes it for keyring too")
    func pythonToSeccli() throws {
        let service = Keychain.uniqueName("interop")
        let secret = randomPrintable(32)
        try SecretServiceSupport.pythonKeyring(
            "keyring.set_password(sys.argv[1], sys.argv[2], sys.argv[3])",
            [service, "carol", secret]
        )
        #expect(
            try Tools.seccli(["cred", "get", "--service", service, "--account", "carol"], expecting: .success)
                .stdoutText
                == secret
        )
        try Tools.seccli(["cred", "delete", "--service", service, "--account", "carol"], expecting: .success)
        let after = try SecretServiceSupport.pythonKeyring(
            "print(keyring.get_password(sys.argv[1], sys.argv[2]))",
            [service, "carol"]
        )
        #expect(after.stdoutText == "None\n")
    }

    @Test("seccli cred set replaces the item secret-tool stored: one item, the new secret")
    func upsertOverForeignItem() throws {
        let service = Keychain.uniqueName("interop")
        try SecretServiceSupport.secretTool(
            ["store", "--label", "old", "service", service, "account", "dave"],
            stdin: Array("old".utf8)
        )
        try Tools.seccli(
            ["cred", "set", "--service", service, "--account", "dave"],
            stdin: Array("new".utf8),
            expecting: .success
        )
        #expect(try Keychain.secretToolCount(["service", service, "account", "dave"]) == 1)
        #expect(
            try SecretServiceSupport.secretTool(["lookup", "service", service, "account", "dave"]).stdoutText == "new"
        )
    }
}
