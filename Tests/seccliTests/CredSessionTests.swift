import Foundation
import TestSupport
import Testing

/// `seccli cred set --session`: the item lives in the Secret Service's session collection (as
/// Python's secretstorage sees the item paths), not in the login keyring; every lookup finds it.
@Suite("seccli cred set --session")
struct CredSessionTests {
    static let sessionCollection = "/org/freedesktop/secrets/collection/session/"
    static let loginCollection = "/org/freedesktop/secrets/collection/login/"

    @Test(
        "a session item is in the session collection, replaces the login keyring's copy, and is found by get, list, secret-tool",
        .enabled(if: SecretServiceSupport.hasPrivateSecretService, SecretServiceSupport.privateSessionOnly)
    )
    func sessionCollection() throws {
        let service = Keychain.uniqueName("session")
        let item = ["--service", service, "--account", "alice"]
        try Tools.seccli(["cred", "set"] + item, stdin: Array("lasting".utf8), expecting: .success)
        let login = try SecretServiceSupport.itemPaths(service: service)
        #expect(login.count == 1 && login[0].hasPrefix(Self.loginCollection) && login[0].hasSuffix(" lasting"))

        try Tools.seccli(["cred", "set", "--session"] + item, stdin: Array("for now".utf8), expecting: .success)
        let moved = try SecretServiceSupport.itemPaths(service: service)
        #expect(moved.count == 1, "\(moved)")
        #expect(moved.first?.hasPrefix(Self.sessionCollection) == true, "\(moved)")
        #expect(moved.first?.hasSuffix(" for now") == true)

        // Updated in place in the session collection, never a second copy.
        try Tools.seccli(["cred", "set", "--session"] + item, stdin: Array("later".utf8), expecting: .success)
        let updated = try SecretServiceSupport.itemPaths(service: service)
        #expect(updated.count == 1 && updated.first?.hasPrefix(moved[0].prefix { $0 != " " } + " ") == true)

        #expect(try Tools.seccli(["cred", "get"] + item, expecting: .success).stdoutText == "later")
        #expect(try Tools.seccli(["cred", "list", "--service", service], expecting: .success).stdoutLines.count == 1)
        #expect(try Keychain.secretToolCount(["service", service]) == 1)
        #expect(
            try SecretServiceSupport.secretTool(["lookup", "service", service, "account", "alice"]).stdoutText
                == "later"
        )
        try Tools.seccli(["cred", "delete"] + item, expecting: .success)
        #expect(try SecretServiceSupport.itemPaths(service: service).isEmpty)
    }

    @Test(
        "a new session item is created in the session collection",
        .enabled(if: SecretServiceSupport.hasPrivateSecretService, SecretServiceSupport.privateSessionOnly)
    )
    func newSessionItem() throws {
        let service = Keychain.uniqueName("session")
        try Tools.seccli(
            ["cred", "set", "--session", "--service", service, "--account", "bob", "--group", "tools"],
            stdin: Array("token".utf8),
            expecting: .success
        )
        let paths = try SecretServiceSupport.itemPaths(service: service)
        #expect(paths.count == 1 && paths[0].hasPrefix(Self.sessionCollection), "\(paths)")
    }

    @Test("--session with the file backend is refused (64) and stores nothing")
    func fileBackendRefuses() throws {
        try KeychainBackend.file.withEnvironment { env in
            let item = ["--service", Keychain.uniqueName("session"), "--account", "a"]
            let result = try Tools.seccli(
                ["cred", "set", "--session"] + item,
                stdin: Array("x".utf8),
                environment: env
            )
            expectOneLineError(result, status: 64)
            #expect(result.stderr.contains("--session does not apply to the file backend"))
            expectOneLineError(try Tools.seccli(["cred", "get"] + item, environment: env), status: 10)
        }
    }
}
