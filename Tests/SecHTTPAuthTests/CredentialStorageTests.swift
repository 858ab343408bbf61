import Foundation
import SecCrypto
import SecHTTPAuth
import SecHTTPAuthKeychain
import SecKeychain
import TestSupport
import Testing

/// A keychain for one test of `KeychainCredentialProvider`, and the environment with which
/// `Tools.seccli` reaches the same one.
struct ProviderKeychain {
    let store: any CredentialStore
    /// The environment that points `seccli cred` at `store`.
    let seccliEnvironment: [String: String]

    static let filePassword = "correct horse battery staple"

    init(_ backend: KeychainBackend) throws {
        switch backend {
        case .secretService:
            try #require(SecretServiceSupport.hasPrivateSecretService, SecretServiceSupport.privateSessionOnly)
            store = SecretServiceStore()
            seccliEnvironment = ["SECCLI_BACKEND": "secret-service"]
        case .file:
            let path = try Scratch.untilExit("httpauth-store").path("credentials.store")
            store = try EncryptedFileStore(path: path, password: SecureBytes(Array(Self.filePassword.utf8)))
            seccliEnvironment = [
                "SECCLI_BACKEND": "file", "SECCLI_STORE_FILE": path, "SECCLI_STORE_PASSWORD": Self.filePassword,
            ]
        }
    }

    /// A provider over this keychain, with a session memory of its own (as a new process has).
    func newProvider() -> KeychainCredentialProvider { KeychainCredentialProvider(store: store) }
}

func uniqueHost(_ purpose: String) -> String {
    "\(purpose)-\(UUID().uuidString.prefix(8).lowercased()).example.com"
}

func password(_ text: String) -> SecureBytes { SecureBytes(Array(text.utf8)) }

func space(_ host: String, realm: String?, port: Int = 443, method: AuthenticationMethod = .basic) -> ProtectionSpace {
    ProtectionSpace(scheme: "https", host: host, port: port, realm: realm, method: method)
}

extension HTTPCredentialProvider {
    /// Saves `user` with the password `secret` for `space`.
    func keep(
        _ user: String,
        _ secret: String,
        for space: ProtectionSpace,
        _ persistence: CredentialPersistence
    )
        async throws
    {
        try await save(HTTPCredential(user: user, password: password(secret)), for: space, persistence: persistence)
    }
}

extension HTTPCredential {
    var passwordText: String { password.withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }
}

/// `KeychainCredentialProvider` against what `seccli cred` stores and reads, on both backends.
struct KeychainCredentialProviderTests {
    @Test(
        "an item of seccli cred set --realm answers its realm's space; two realms, two credentials",
        arguments: KeychainBackend.available
    )
    func itemsOfSeccli(_ backend: KeychainBackend) async throws {
        let keychain = try ProviderKeychain(backend)
        let host = uniqueHost("seccli")
        for (realm, user, secret) in [("Admin Area", "alice", "admin pw"), ("Wiki", "bob", "wiki pw")] {
            try Tools.seccli(
                ["cred", "set", "--server", host, "--protocol", "https", "--account", user, "--realm", realm],
                stdin: Array(secret.utf8),
                environment: keychain.seccliEnvironment,
                expecting: .success
            )
        }
        let provider = keychain.newProvider()
        let admin = try #require(try await provider.credential(for: space(host, realm: "Admin Area")))
        #expect(admin.user == "alice" && admin.passwordText == "admin pw")
        let wiki = try #require(try await provider.credential(for: space(host, realm: "Wiki")))
        #expect(wiki.user == "bob" && wiki.passwordText == "wiki pw")
        #expect(try await provider.credential(for: space(host, realm: "wiki")) == nil, "realms are case-sensitive")
        #expect(try await provider.credential(for: space(host, realm: "Wiki", port: 8443)) == nil)
        #expect(try await provider.credential(for: space(host, realm: nil)) == nil)
    }

    @Test(
        "save .permanent: seccli cred get --realm reads it; a second provider finds it; authtype and port stored",
        arguments: KeychainBackend.available
    )
    func permanentIsTheKeychain(_ backend: KeychainBackend) async throws {
        let keychain = try ProviderKeychain(backend)
        let host = uniqueHost("permanent")
        let digest = space(host, realm: "ops", port: 8443, method: .digest)
        try await keychain.newProvider().keep("carol", "worked", for: digest, .permanent)
        let got = try Tools.seccli(
            [
                "cred", "get", "--server", host, "--protocol", "https", "--port", "8443", "--auth-type", "digest",
                "--account", "carol", "--realm", "ops",
            ],
            environment: keychain.seccliEnvironment,
            expecting: .success
        )
        #expect(got.stdoutText == "worked")
        let again = try await keychain.newProvider().credential(for: digest)
        #expect(again?.user == "carol" && again?.passwordText == "worked")
        #expect(
            try await keychain.newProvider().credential(
                for: space(host, realm: "ops", port: 8443)
            ) == nil,
            "a Digest item does not answer Basic"
        )
    }

    @Test(
        "save .none keeps nothing; .forSession only in the provider, never in the keychain",
        arguments: KeychainBackend.available
    )
    func noneAndSession(_ backend: KeychainBackend) async throws {
        let keychain = try ProviderKeychain(backend)
        let host = uniqueHost("session")
        let provider = keychain.newProvider()
        let area = space(host, realm: "R")
        try await provider.keep("u", "once", for: area, .none)
        #expect(try await provider.credential(for: area) == nil)
        try await provider.keep("u", "session", for: area, .forSession)
        #expect(try await provider.credential(for: area)?.passwordText == "session")
        #expect(try await keychain.newProvider().credential(for: area) == nil)
        let listed = try Tools.seccli(
            ["cred", "list", "--server", host],
            environment: keychain.seccliEnvironment,
            expecting: .success
        )
        #expect(listed.stdoutText.isEmpty, "nothing written: \(listed.stdoutText)")

        try await provider.keep("u", "kept", for: area, .permanent)
        #expect(
            try await provider.credential(for: area)?.passwordText == "kept",
            "the newer permanent one is not shadowed"
        )
    }

    @Test(
        "remove(space:) forgets one realm; removeAll(host:) every item of the host, none of another",
        arguments: KeychainBackend.available
    )
    func removals(_ backend: KeychainBackend) async throws {
        let keychain = try ProviderKeychain(backend)
        let (host, other) = (uniqueHost("remove"), uniqueHost("keep"))
        let provider = keychain.newProvider()
        for (realm, secret) in [("A", "a"), ("B", "b")] {
            try await provider.keep("u", secret, for: space(host, realm: realm), .permanent)
        }
        try await provider.keep("s", "s", for: space(host, realm: "A"), .forSession)
        try await provider.keep("u", "o", for: space(other, realm: "A"), .permanent)
        try Tools.seccli(
            ["cred", "set", "--server", host, "--account", "git", "--protocol", "https", "--path", "/repo"],
            stdin: Array("g".utf8),
            environment: keychain.seccliEnvironment,
            expecting: .success
        )

        #expect(try await provider.remove(space: space(host, realm: "A")) == 2, "the session's and the keychain's")
        #expect(try await provider.credential(for: space(host, realm: "A")) == nil)
        #expect(try await provider.credential(for: space(host, realm: "B"))?.passwordText == "b")

        #expect(try await provider.removeAll(host: host.uppercased() + ".") == 2, "realm B and the item with a path")
        #expect(
            try Tools.seccli(
                ["cred", "list", "--server", host],
                environment: keychain.seccliEnvironment,
                expecting: .success
            ).stdoutText.isEmpty
        )
        #expect(try await provider.credential(for: space(other, realm: "A"))?.passwordText == "o")
    }
}

/// Items other tools stored on the Secret Service, as the provider finds them.
@Suite(.enabled(if: SecretServiceSupport.hasPrivateSecretService, SecretServiceSupport.privateSessionOnly))
struct KeychainCredentialProviderInteropTests {
    let provider = KeychainCredentialProvider(store: SecretServiceStore())

    @Test("secret-tool store … realm R (no port, no authtype) answers R; an item without realm answers other realms")
    func itemsOfSecretTool() async throws {
        let host = uniqueHost("secret-tool")
        try SecretServiceSupport.secretTool(
            ["store", "--label=r", "server", host, "protocol", "https", "user", "dave", "realm", "R"],
            stdin: Array("realm pw".utf8)
        )
        // As git's libsecret helper stores a login: for the whole origin.
        try SecretServiceSupport.secretTool(
            ["store", "--label=git", "server", host, "protocol", "https", "user", "erin"],
            stdin: Array("origin pw".utf8)
        )
        let realm = try #require(try await provider.credential(for: space(host, realm: "R")))
        #expect(realm.user == "dave" && realm.passwordText == "realm pw")
        let fallback = try await provider.credential(for: space(host, realm: "Elsewhere"))
        #expect(fallback?.user == "erin" && fallback?.passwordText == "origin pw")
        #expect(
            try await provider.credential(for: space(host, realm: "R", port: 8443)) == nil,
            "no port is the scheme's 443"
        )
        #expect(
            try await provider.credential(
                for: ProtectionSpace(scheme: "http", host: host, port: 80, realm: "R", method: .basic)
            ) == nil
        )
        #expect(try await provider.removeAll(host: host) == 2)
        let left = try ProcessRunner.run("secret-tool", ["search", "server", host])
        #expect(left.stdoutText.isEmpty)
    }

    @Test("save .permanent: secret-tool lookup by realm and Python secretstorage see the realm")
    func seenByOtherTools() async throws {
        let host = uniqueHost("to-tools")
        for (realm, secret) in [("R1", "one"), ("R2", "two")] {
            try await provider.keep("frank", secret, for: space(host, realm: realm), .permanent)
        }
        #expect(try SecretServiceSupport.secretTool(["lookup", "server", host, "realm", "R2"]).stdoutText == "two")
        let script = """
            import sys, secretstorage
            connection = secretstorage.dbus_init()
            for item in secretstorage.search_items(connection, {"server": sys.argv[1], "realm": sys.argv[2]}):
                a = item.get_attributes()
                print(a["user"], a["protocol"], a["port"], a["authtype"], a["realm"], item.get_secret().decode())
            """
        let python = try ProcessRunner.run("python3", ["-c", script, host, "R1"]).requiringSuccess(of: "secretstorage")
        #expect(python.stdoutLines == ["frank https 443 basic R1 one"])
    }

    @Test("a proxy's credential is not the server's")
    func proxyIsSeparate() async throws {
        let host = uniqueHost("proxy")
        let proxy = ProtectionSpace(
            scheme: "http",
            host: host,
            port: 3128,
            realm: "Squid",
            method: .basic,
            isProxy: true
        )
        try await provider.keep("p", "proxy pw", for: proxy, .permanent)
        #expect(try await provider.credential(for: proxy)?.passwordText == "proxy pw")
        let server = ProtectionSpace(scheme: "http", host: host, port: 3128, realm: "Squid", method: .basic)
        #expect(try await provider.credential(for: server) == nil)
        #expect(
            try SecretServiceSupport.secretTool(["lookup", "server", host, "protocol", "http-proxy"]).stdoutText
                == "proxy pw"
        )
    }
}

struct InMemoryCredentialProviderTests {
    @Test("realms apart, the realm-less space as fallback, .none not kept, the newest per user, removals")
    func inMemory() async throws {
        let provider = InMemoryCredentialProvider()
        let host = "Example.COM."
        try await provider.keep("a", "1", for: space(host, realm: "A"), .permanent)
        try await provider.keep("b", "2", for: space(host, realm: "B"), .forSession)
        try await provider.keep("c", "3", for: space(host, realm: "C"), .none)
        try await provider.keep("o", "4", for: space(host, realm: nil), .forSession)
        #expect(await provider.credential(for: space("example.com", realm: "A"))?.user == "a")
        #expect(await provider.credential(for: space("example.com", realm: "B"))?.user == "b")
        #expect(
            await provider.credential(for: space("example.com", realm: "C"))?.user == "o",
            "C was not kept: the origin's"
        )
        try await provider.keep("a", "5", for: space(host, realm: "A"), .permanent)
        #expect(await provider.credential(for: space(host, realm: "A"))?.passwordText == "5")
        #expect(await provider.remove(space: space(host, realm: "A")) == 1)
        #expect(await provider.removeAll(host: "EXAMPLE.com") == 2)
        #expect(await provider.credential(for: space(host, realm: "B")) == nil)
    }
}
