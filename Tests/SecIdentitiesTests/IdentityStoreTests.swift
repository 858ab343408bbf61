import Foundation
import SecCrypto
import SecIdentities
import SecKeychain
import SecTLS
import TestSupport
import Testing

/// `IdentityStore` on both backends with identities the openssl CLI made (TestSupport's `TestPKI`):
/// what is saved loads back as the same certificate, chain and key; the summary agrees with
/// `openssl x509`; on the Secret Service the key is in the secret and in no attribute.
@Suite("IdentityStore")
struct IdentityStoreTests {
    static let pki = TestPKI.shared

    static func makeStore(_ backend: KeychainBackend) throws -> IdentityStore {
        let store: any CredentialStore =
            switch backend {
            case .secretService: SecretServiceStore()
            case .file:
                try EncryptedFileStore(
                    path: try Scratch.untilExit("identities").path("identities.store"),
                    password: SecureBytes(Array("correct horse battery staple".utf8))
                )
            }
        return IdentityStore(store: store, service: "seckit-identity-test-\(UUID().uuidString.prefix(8))")
    }

    static func pkcs12Identity() throws -> ClientIdentity {
        try ClientIdentity(
            pkcs12: pki.bytes("client.p12"),
            passphrase: SecureBytes(Array(TestPKI.p12Passphrase.utf8))
        )
    }

    @Test(
        "a PKCS#12 identity and a PEM pair load back with the same certificate, chain and key",
        arguments: KeychainBackend.available
    )
    func roundTrip(backend: KeychainBackend) throws {
        let identities = try Self.makeStore(backend)
        let fromPKCS12 = try Self.pkcs12Identity()
        let fromPEM = try ClientIdentity(
            certificateFile: Self.pki.path("client-ec.pem"),
            keyFile: Self.pki.path("client-ec.key")
        )
        try identities.save(fromPKCS12, as: "p12")
        try identities.save(fromPEM, as: "pem")
        for (name, saved) in [("p12", fromPKCS12), ("pem", fromPEM)] {
            let loaded = try identities.identity(named: name)
            #expect(loaded.certificate == saved.certificate)
            #expect(loaded.chain == saved.chain)
            // Equal PKCS#8 encodings: the same private key (and the loader checked it against the certificate).
            #expect(try loaded.combinedPEM() == saved.combinedPEM())
        }
        #expect(
            try identities.identity(named: "p12").chain.map(\.subject) == [
                "CN=SecKit Test Intermediate,O=SecKit Test,C=DE"
            ]
        )
    }

    @Test(
        "list() gives subject, issuer, notAfter and key pin as openssl x509 prints them",
        arguments: KeychainBackend.available
    )
    func summary(backend: KeychainBackend) throws {
        let identities = try Self.makeStore(backend)
        try identities.save(try Self.pkcs12Identity(), as: "work")
        let list = try identities.list()
        #expect(list.unreadable.isEmpty)
        let listed = list.identities
        let summary = try #require(listed.first)
        #expect(listed.count == 1)
        #expect(summary.name == "work")
        func openssl(_ field: String) throws -> String {
            try Self.pki.openssl(["x509", "-in", "client.pem", "-noout", "-\(field)", "-nameopt", "RFC2253"])
                .trimmingCharacters(in: .newlines)
        }
        let subject = try openssl("subject")
        let issuer = try openssl("issuer")
        let pin = try Self.pki.opensslPublicKeyPin("client.pem")
        #expect("subject=" + summary.subject == subject)
        #expect("issuer=" + summary.issuer == issuer)
        #expect(summary.publicKeyPin.description == pin)
        let certificate = try X509Certificate.load(pem: Self.pki.pem("client"))[0]
        #expect(summary.notAfter == certificate.notAfter)
        // TestPKI's client certificates are valid for 10 days.
        #expect(summary.expiresSoon() && !summary.isExpired())
        #expect(!summary.expiresSoon(at: certificate.notAfter.addingTimeInterval(-31 * 24 * 3600)))
    }

    @Test(
        "delete removes the identity: loading and deleting it again are notFound",
        arguments: KeychainBackend.available
    )
    func delete(backend: KeychainBackend) throws {
        let identities = try Self.makeStore(backend)
        try identities.save(try Self.pkcs12Identity(), as: "gone")
        try identities.delete(named: "gone")
        #expect(try identities.list() == IdentityList())
        #expect(throws: KeychainError.notFound) { try identities.identity(named: "gone") }
        #expect(throws: KeychainError.notFound) { try identities.delete(named: "gone") }
        #expect(throws: KeychainError.self) { try identities.save(try Self.pkcs12Identity(), as: "") }
    }

    @Test(
        "on the Secret Service the private key is in the item's secret and in none of its attributes (secret-tool)",
        .enabled(if: SecretServiceSupport.hasPrivateSecretService, SecretServiceSupport.privateSessionOnly)
    )
    func keyOnlyInSecret() throws {
        let identities = try Self.makeStore(.secretService)
        try identities.save(try Self.pkcs12Identity(), as: "work")
        // secret-tool prints label and secret on standard output, the attributes on standard error.
        let found = try SecretServiceSupport.secretTool(["search", "--all", "service", identities.service])
        let keyBody = try Self.pki.openssl(["pkey", "-in", "client.key"]).split(separator: "\n")[1]
        #expect(found.stdoutText.contains("-----BEGIN PRIVATE KEY-----\n"))
        #expect(found.stdoutText.contains(keyBody))
        #expect(found.stderr.contains("attribute.account = work"), "\(found.stderr)")
        #expect(!found.stderr.contains("PRIVATE KEY") && !found.stderr.contains(keyBody), "\(found.stderr)")
        let label = found.stdoutLines.first { $0.hasPrefix("label = ") } ?? ""
        #expect(!label.contains("PRIVATE KEY") && !label.contains(keyBody))
    }

    @Test(
        "an item with no identity (from secret-tool) is a TLSError; list() names it apart and hides no other",
        .enabled(if: SecretServiceSupport.hasPrivateSecretService, SecretServiceSupport.privateSessionOnly)
    )
    func foreignItem() throws {
        let identities = try Self.makeStore(.secretService)
        try identities.save(try Self.pkcs12Identity(), as: "work")
        try SecretServiceSupport.secretTool(
            ["store", "--label", "not an identity", "service", identities.service, "account", "foreign"],
            stdin: Array("-----BEGIN CERTIFICATE-----\nnot base64\n".utf8)
        )
        // A look-alike with a summary that is not SecKit's JSON, and one with an expiry but no comment.
        try SecretServiceSupport.secretTool(
            [
                "store", "--label", "x", "service", identities.service, "account", "altered", "comment",
                "{\"subject\": 1",
            ],
            stdin: Array("garbage".utf8)
        )
        try SecretServiceSupport.secretTool(
            [
                "store", "--label", "x", "service", identities.service, "account", "bare", "expires",
                "2030-01-01T00:00:00Z",
            ],
            stdin: Array("garbage".utf8)
        )
        #expect(throws: TLSError.self) { try identities.identity(named: "foreign") }
        let list = try identities.list()
        #expect(list.identities.map(\.name) == ["work"])
        #expect(list.identities.first?.subject == "CN=SecKit Test Client")
        let reason = TLSError.invalidClientIdentity(
            "the item has no readable certificate summary (another tool wrote it, or it was altered)"
        )
        #expect(
            list.unreadable == ["altered", "bare", "foreign"].map { UnreadableIdentity(name: $0, error: reason) }
        )
    }
}
