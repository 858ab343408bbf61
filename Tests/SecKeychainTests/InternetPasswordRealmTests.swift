import Foundation
import SecCrypto
import SecKeychain
import TestSupport
import Testing

/// The HTTP realm is part of an internet password's identity, on both backends; the Secret Service
/// keeps it as the `realm` attribute other tools search, and items without one are what they were.
struct InternetPasswordRealmTests {
    static func identity(_ server: String, realm: String?) -> CredentialIdentity {
        .internetPassword(server: server, account: "alice", protocol: "https", port: 443, realm: realm)
    }

    @Test(
        "two realms and none on one server: three items; queries and deleteAll by realm",
        arguments: KeychainBackend.available
    )
    func realmsAreSeparateItems(backend: KeychainBackend) throws {
        let store = try backend.makeStore()
        let server = KeychainFixture.uniqueService("realm") + ".example"
        let admin = Self.identity(server, realm: "Admin")
        let wiki = Self.identity(server, realm: "wiki")
        let origin = Self.identity(server, realm: nil)
        try store.upsert(admin, string: "a")
        try store.upsert(wiki, string: "w")
        try store.upsert(origin, string: "o")
        #expect(try store.string(for: admin) == "a")
        #expect(try store.string(for: wiki) == "w")
        #expect(try store.string(for: origin) == "o")
        #expect(try store.item(for: wiki).identity.internetLocation?.realm == "wiki")
        #expect(try store.search(CredentialQuery(server: server)).count == 3)
        #expect(try store.search(CredentialQuery(server: server, realm: "Admin")).map(\.identity) == [admin])

        try store.upsert(wiki, string: "w2")
        #expect(try store.search(CredentialQuery(server: server)).count == 3, "upsert keeps one item per realm")
        #expect(try store.deleteAll(matching: CredentialQuery(server: server, realm: "wiki")) == 1)
        #expect(throws: KeychainError.notFound) { try store.item(for: wiki) }
        #expect(try store.string(for: admin) == "a")
        #expect(try store.string(for: origin) == "o")
        if backend == .file {
            let reopened = try KeychainFixture.makeFileStore(path: (store as! EncryptedFileStore).path)
            #expect(try reopened.string(for: admin) == "a", "the realm survives the file")
        }
    }

    @Test func aNULInTheRealmIsRefused() throws {
        let store = try KeychainFixture.makeFileStore()
        #expect(throws: KeychainError.invalidAttribute("realm must not contain NUL characters")) {
            try store.upsert(Self.identity("h.example", realm: "a\u{0}b"), string: "x")
        }
    }
}

@Suite(.enabled(if: SecretServiceSupport.hasPrivateSecretService, SecretServiceSupport.privateSessionOnly))
struct InternetPasswordRealmInteropTests {
    let store = SecretServiceStore()

    @Test("secret-tool store … realm R is the identity with realm R; git's realm-less item still the one without")
    func itemsOfSecretTool() throws {
        let server = KeychainFixture.uniqueService("realm-tool") + ".example"
        // The realm-less one first: secret-tool stores with libsecret's replace flag, and gnome-keyring
        // replaces every item whose attributes include the new ones (the realm item, stored first).
        try SecretServiceSupport.secretTool(
            ["store", "--label=git", "server", server, "protocol", "https", "port", "443", "user", "alice"],
            stdin: KeychainFixture.bytes("git login")
        )
        try SecretServiceSupport.secretTool(
            [
                "store", "--label=r", "server", server, "protocol", "https", "port", "443", "user", "alice", "realm",
                "R",
            ],
            stdin: KeychainFixture.bytes("with realm")
        )
        let withRealm = InternetPasswordRealmTests.identity(server, realm: "R")
        let without = InternetPasswordRealmTests.identity(server, realm: nil)
        #expect(try store.string(for: withRealm) == "with realm")
        #expect(try store.string(for: without) == "git login")
        #expect(throws: KeychainError.notFound) {
            try store.item(for: InternetPasswordRealmTests.identity(server, realm: "r"))
        }
        try store.upsert(withRealm, string: "updated")
        #expect(
            try SecretServiceSupport.secretTool(["lookup", "server", server, "realm", "R"]).stdoutText == "updated"
        )
        #expect(
            try SecretServiceSupport.secretTool(["search", "--all", "server", server]).stdoutLines.filter {
                $0.hasPrefix("[/")
            }.count == 2
        )
    }

    /// `seckit-id` as SHA-256 (Python's hashlib) of the parts joined by NUL: without a realm the
    /// parts items had before realms existed, with one the realm added last.
    @Test("seckit-id: unchanged without a realm, the realm a last part with one", arguments: [nil, "R"] as [String?])
    func fingerprint(realm: String?) throws {
        let server = KeychainFixture.uniqueService("realm-id") + ".example"
        try store.upsert(InternetPasswordRealmTests.identity(server, realm: realm), string: "s")
        let parts = ["internet", server, "alice", "https", "443", "", "", ""] + (realm.map { [$0] } ?? [])
        let expected = try ProcessRunner.run(
            "python3",
            [
                "-c",
                "import hashlib, sys; print(hashlib.sha256('\\0'.join(sys.argv[1:]).encode()).hexdigest()[:32], end='')",
            ]
                + parts
        ).requiringSuccess(of: "python3 hashlib").stdoutText
        let shown = try SecretServiceSupport.secretTool(["search", "--all", "server", server])
        #expect(shown.stderr.contains("attribute.seckit-id = \(expected)\n"), "\(shown.stderr)")
        #expect(shown.stderr.contains("attribute.realm = ") == (realm != nil))
    }
}
