import Foundation
import SecCrypto
import SecKeychain
import TestSupport
import Testing

/// The Secret Service backend against the tools people already use on the same keyring:
/// `secret-tool` (libsecret's CLI) and Python's `keyring`, both ways.
@Suite(.enabled(if: SecretServiceSupport.hasPrivateSecretService, SecretServiceSupport.privateSessionOnly))
struct SecretServiceInteropTests {
    let store = SecretServiceStore()

    /// `expires` written by other tools: ISO 8601 with fractional seconds and an offset (Python's
    /// `isoformat()`) or `Z` is read; a value SecKit cannot read makes the item expired at the Unix epoch
    /// (fail closed), for `cred get` and for an SSO token alike.
    @Test(arguments: [
        ("2026-12-31T23:59:59.123456+00:00", Date(timeIntervalSince1970: 1_798_761_599.123456)),
        ("2026-12-31T23:59:59.5Z", Date(timeIntervalSince1970: 1_798_761_599.5)),
        ("2027-01-01T01:59:59+02:00", Date(timeIntervalSince1970: 1_798_761_599)),
        ("2026-12-31", Date(timeIntervalSince1970: 1_798_675_200)),
        ("next tuesday", Date(timeIntervalSince1970: 0)),
        ("1798761599", Date(timeIntervalSince1970: 0)),
    ])
    func expiresWrittenByOtherTools(_ text: String, _ expected: Date) throws {
        let group = KeychainFixture.uniqueService("expires")
        try SecretServiceSupport.secretTool(
            [
                "store", "--label=sso", "service", "seckit-sso", "account", "token", "access-group", group, "expires",
                text,
            ],
            stdin: KeychainFixture.bytes("tok")
        )
        let item = try store.item(
            for: .genericPassword(service: "seckit-sso", account: "token", accessGroup: group),
            includeSecret: false,
            timeout: .seconds(5)
        )
        let expiresAt = try #require(item.expiresAt)
        #expect(abs(expiresAt.timeIntervalSince(expected)) < 0.001, "\(expiresAt) for \(text)")
        let now = Date(timeIntervalSince1970: 1_798_761_000)  // 2026-12-31T23:50:00Z
        #expect(item.isExpired(at: now) == (expected <= now))
        let state = try SingleSignOn(group: group, store: store).tokenState(now: now)
        switch state {
        case .expired(let at): #expect(expected <= now && at == expiresAt)
        case .valid(let token, let at):
            #expect(expected > now && at == expiresAt && token.bytes == KeychainFixture.bytes("tok"))
        case .absent: Issue.record("the token stored by secret-tool was not found")
        }
    }

    /// What SecKit writes in `expires`, as secret-tool shows it, and read back to the second: whole
    /// seconds, the proleptic Gregorian calendar before 1582 too (tools/fuzz attributes found
    /// `1013-12-31` written as another day), and years past 9999 as the last storable second.
    @Test(arguments: [
        ("2026-12-31T23:59:59.75Z", "2026-12-31T23:59:59Z"),
        ("1013-12-31", "1013-12-31T00:00:00Z"),
        ("0001-01-01T00:00:00Z", "0001-01-01T00:00:00Z"),
        ("9999-12-31T23:59:00-05:00", "9999-12-31T23:59:59Z"),
    ])
    func expiresAsWritten(_ given: String, _ written: String) throws {
        let service = KeychainFixture.uniqueService("expires-written")
        let identity = CredentialIdentity.genericPassword(service: service, account: "a")
        let expiresAt = try #require(CredentialAttributes.expiryDate(parsing: given))
        try store.upsert(identity, secret: KeychainFixture.bytes("s"), attributes: .init(expiresAt: expiresAt))
        let shown = try SecretServiceSupport.secretTool(["search", "service", service])
        // secret-tool prints the attributes on standard error.
        #expect(shown.stderr.contains("attribute.expires = \(written)\n"), "\(shown.stderr)")
        let item = try store.item(for: identity, includeSecret: false, timeout: .seconds(5))
        #expect(item.expiresAt == CredentialAttributes.expiryDate(parsing: written))
    }

    @Test func secretToolAndPythonKeyringFindWhatSecKitStored() throws {
        let service = KeychainFixture.uniqueService("to-tools")
        try store.upsert(.genericPassword(service: service, account: "alice"), string: "pä55 word")
        let looked = try SecretServiceSupport.secretTool(["lookup", "service", service, "account", "alice"])
        #expect(looked.stdoutText == "pä55 word")
        let python = try SecretServiceSupport.pythonKeyring(
            "print(keyring.get_password(sys.argv[1], sys.argv[2]), end='')",
            [service, "alice"]
        )
        #expect(python.stdoutText == "pä55 word")
    }

    @Test func secKitFindsWhatSecretToolStored() throws {
        let service = KeychainFixture.uniqueService("from-secret-tool")
        let secret: [UInt8] = [0x00, 0x01, 0xFF, 0x0A, 0x41, 0x00]
        try SecretServiceSupport.secretTool(
            ["store", "--label=from secret-tool", "service", service, "account", "bob"],
            stdin: secret
        )
        let item = try store.item(
            for: .genericPassword(service: service, account: "bob"),
            includeSecret: true,
            timeout: .seconds(5)
        )
        #expect(item.secret?.bytes == secret)
        #expect(item.label == "from secret-tool")
        // Updating it keeps one item, which secret-tool then reads.
        try store.upsert(.genericPassword(service: service, account: "bob"), string: "replaced")
        #expect(try store.search(CredentialQuery(service: service)).count == 1)
        #expect(
            try SecretServiceSupport.secretTool(["lookup", "service", service, "account", "bob"]).stdoutText
                == "replaced"
        )
    }

    /// A `secret-tool` item without a group and a SecKit item in a group share `service` and
    /// `account`: the search by those finds both, and each identity reads its own item.
    @Test func itemsOfOneServiceAndAccountInTwoGroupsAreToldApart() throws {
        let service = KeychainFixture.uniqueService("two-groups")
        try SecretServiceSupport.secretTool(
            ["store", "--label=tool", "service", service, "account", "ivy"],
            stdin: KeychainFixture.bytes("from secret-tool")
        )
        let ungrouped = CredentialIdentity.genericPassword(service: service, account: "ivy")
        let grouped = CredentialIdentity.genericPassword(service: service, account: "ivy", accessGroup: "team")
        try store.upsert(grouped, string: "from seckit")
        for (id, secret, label) in [
            (ungrouped, "from secret-tool", "tool"), (grouped, "from seckit", "Password for 'ivy' on '\(service)'"),
        ] {
            #expect(try store.string(for: id) == secret)
            let item = try store.item(for: id, includeSecret: true, timeout: .seconds(5))
            #expect(item.identity == id)
            #expect(item.secret?.bytes == KeychainFixture.bytes(secret))
            #expect(item.label == label)
        }
        let listed = try store.search(CredentialQuery(service: service, includeSecrets: true))
        #expect(Set(listed.map(\.identity)) == [ungrouped, grouped])
        #expect(
            Set(listed.compactMap { $0.secret.map { String(decoding: $0.bytes, as: UTF8.self) } }) == [
                "from secret-tool", "from seckit",
            ]
        )
        try store.delete(ungrouped)
        #expect(throws: KeychainError.notFound) { try store.item(for: ungrouped) }
        #expect(try store.string(for: grouped) == "from seckit")
    }

    @Test func secKitFindsAndReplacesWhatPythonKeyringStored() throws {
        let service = KeychainFixture.uniqueService("from-keyring")
        try SecretServiceSupport.pythonKeyring(
            "keyring.set_password(sys.argv[1], sys.argv[2], sys.argv[3])",
            [service, "carol", "from python"]
        )
        let id = CredentialIdentity.genericPassword(service: service, account: "carol")
        #expect(try store.string(for: id) == "from python")
        try store.upsert(id, string: "from seckit")
        #expect(try store.search(CredentialQuery(service: service)).count == 1)
        let python = try SecretServiceSupport.pythonKeyring(
            "print(keyring.get_password(sys.argv[1], sys.argv[2]), end='')",
            [service, "carol"]
        )
        #expect(python.stdoutText == "from seckit")
        // keyring's own attribute survives the update, so keyring still recognises its item.
        #expect(
            try KeychainFixture.secretToolSearch(["service", service]).contains(
                "attribute.application = Python keyring library\n"
            )
        )
        try SecretServiceSupport.pythonKeyring("keyring.delete_password(sys.argv[1], sys.argv[2])", [service, "carol"])
        #expect(throws: KeychainError.notFound) { try store.secret(for: id) }
    }

    /// `secret-tool store` replaces a SecKit item in place: its attributes are a subset of SecKit's.
    @Test func secretToolStoreReplacesASecKitItem() throws {
        let service = KeychainFixture.uniqueService("secret-tool-replaces")
        let id = CredentialIdentity.genericPassword(service: service, account: "hank")
        try store.upsert(id, string: "from seckit")
        try SecretServiceSupport.secretTool(
            ["store", "--label=x", "service", service, "account", "hank"],
            stdin: KeychainFixture.bytes("from secret-tool")
        )
        #expect(try store.search(CredentialQuery(service: service)).count == 1)
        #expect(try store.string(for: id) == "from secret-tool")
    }

    /// Python keyring's `set_password` does not replace a SecKit item (gnome-keyring replaces only
    /// items that have all of keyring's attributes, `application` included): it adds a copy. SecKit
    /// keeps reading its own item; its next upsert leaves one item, which keyring then reads.
    @Test func copyAddedByPythonKeyringIsFoldedByTheNextUpsert() throws {
        let service = KeychainFixture.uniqueService("copy")
        let id = CredentialIdentity.genericPassword(service: service, account: "gina")
        try store.upsert(id, string: "first")
        try SecretServiceSupport.pythonKeyring(
            "keyring.set_password(sys.argv[1], sys.argv[2], sys.argv[3])",
            [service, "gina", "second"]
        )
        #expect(try store.search(CredentialQuery(service: service)).count == 2)
        #expect(try store.string(for: id) == "first")
        try store.upsert(id, string: "third")
        #expect(try store.search(CredentialQuery(service: service)).count == 1)
        let python = try SecretServiceSupport.pythonKeyring(
            "print(keyring.get_password(sys.argv[1], sys.argv[2]), end='')",
            [service, "gina"]
        )
        #expect(python.stdoutText == "third")
    }

    @Test func attributesAreTheDocumentedOnes() throws {
        let service = KeychainFixture.uniqueService("attributes")
        let expiry = Date(timeIntervalSince1970: 1_900_000_000)
        try store.upsert(
            .genericPassword(service: service, account: "dave", accessGroup: "tools"),
            string: "x",
            attributes: CredentialAttributes(comment: "note", expiresAt: expiry)
        )
        try store.upsert(
            .internetPassword(
                server: "git.\(service)",
                account: "erin",
                protocol: "https",
                port: 8443,
                path: "/api",
                authenticationType: "basic"
            ),
            string: "y"
        )
        let generic = try KeychainFixture.secretToolSearch(["service", service])
        for line in [
            "label = Password for 'dave' on '\(service)'", "schema = org.freedesktop.Secret.Generic",
            "attribute.service = \(service)", "attribute.account = dave",
            "attribute.username = dave", "attribute.access-group = tools", "attribute.expires = 2030-03-17T17:46:40Z",
            "attribute.comment = note",
            "attribute.seckit-id = \(Self.seckitID(["generic", service, "dave", "", "", "", "", "tools"]))",
        ] {
            #expect(generic.contains(line + "\n"), "\(line)")
        }
        let internet = try KeychainFixture.secretToolSearch(["server", "git.\(service)"])
        for line in [
            "schema = org.gnome.keyring.NetworkPassword", "attribute.server = git.\(service)", "attribute.user = erin",
            "attribute.account = erin",
            "attribute.protocol = https",
            "attribute.port = 8443", "attribute.object = /api", "attribute.authtype = basic",
            "attribute.seckit-id = \(Self.seckitID(["internet", "git.\(service)", "erin", "https", "8443", "/api", "basic", ""]))",
        ] {
            #expect(internet.contains(line + "\n"), "\(line)")
        }
        #expect(
            try SecretServiceSupport.secretTool(["lookup", "server", "git.\(service)", "user", "erin"]).stdoutText
                == "y"
        )
    }

    /// The documented `seckit-id`: the first 16 bytes of SHA-256 (OpenSSL's, through SecCrypto) over
    /// the item class and the identity's parts joined by NUL, in hex. Items written by earlier
    /// versions carry it, so it must not change.
    static func seckitID(_ parts: [String]) -> String {
        Hex.encode(SHA256.hash(string: parts.joined(separator: "\u{0}")).bytes.prefix(16))
    }

    /// Items in a locked collection are reported as `locked`, not as missing. The test locks a
    /// collection of its own: the login collection stays unlocked for the tests running alongside.
    @Test func lockedCollectionIsLockedNotNotFound() throws {
        let service = KeychainFixture.uniqueService("locked")
        let path = try KeychainFixture.lockedCollection(["create", service, "frank"]).stdoutText.trimmingCharacters(
            in: .whitespacesAndNewlines
        )
        defer { _ = try? KeychainFixture.lockedCollection(["remove", path]) }
        let id = CredentialIdentity.genericPassword(service: service, account: "frank")
        #expect(throws: KeychainError.locked) { try store.secret(for: id) }
        #expect(throws: KeychainError.locked) { try store.item(for: id) }
        #expect(throws: KeychainError.locked) { try store.search(CredentialQuery(service: service)) }
        #expect(throws: KeychainError.locked) { try store.upsert(id, string: "new") }
        #expect(throws: KeychainError.locked) { try store.delete(id) }
        // secret-tool cannot tell: it reports nothing found.
        #expect(
            try ProcessRunner.run("secret-tool", ["lookup", "service", service, "account", "frank"]).stdout.isEmpty
        )
    }
}
