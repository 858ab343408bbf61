import Foundation
import SecCrypto
import SecKeychain
import SecTLS
import SecVault
import Synchronization
import TestSupport
import Testing

/// AppRole and certificate login against the real server, and the token's life: renewal before it
/// expires, a new login at its maximum TTL and after a refusal, with no failed call. What the store
/// did is read from the server's audit log.
@Suite struct VaultLoginTests {
    let server: OpenBaoDevServer
    let name = "l" + UUID().uuidString.prefix(8).lowercased()

    init() throws { server = try VaultStoreTests.server.get() }

    /// A policy that may use the items under the test's prefix.
    func writePolicy() throws {
        try server.baoSucceeding(
            ["policy", "write", name, "-"],
            stdin: Array(
                """
                path "secret/data/\(name)/*" { capabilities = ["create", "read", "update", "delete", "list"] }
                path "secret/metadata/\(name)/*" { capabilities = ["create", "read", "update", "delete", "list"] }
                """.utf8
            )
        )
    }

    func configuration(login: VaultLogin, identity: ClientIdentity? = nil) throws -> VaultConfiguration {
        var tls = TLSClientConfiguration()
        tls.trustRoots = .caFile(server.caFile)
        tls.clientIdentity = identity
        return VaultConfiguration(
            address: try VaultAddress(parsing: server.address),
            login: login,
            tls: tls,
            pathPrefix: name
        )
    }

    /// The audited requests to `path` so far.
    func requests(to path: String) -> Int {
        let log = (try? String(contentsOfFile: server.auditLog, encoding: .utf8)) ?? ""
        return log.split(separator: "\n").filter {
            $0.contains("\"type\":\"request\"") && $0.contains("\"path\":\"\(path)\"")
        }.count
    }

    /// An AppRole role of the test's policy with these token lifetimes; its role ID and a secret ID.
    func appRole(ttl: String, maxTTL: String) throws -> (roleID: SecureBytes, secretID: SecureBytes) {
        try writePolicy()
        try server.baoSucceeding(["auth", "enable", "-path=\(name)", "approle"])
        try server.baoSucceeding([
            "write", "auth/\(name)/role/app", "token_policies=\(name)", "token_ttl=\(ttl)", "token_max_ttl=\(maxTTL)",
        ])
        let roleID = try server.baoSucceeding(["read", "-field=role_id", "auth/\(name)/role/app/role-id"])
        let secretID = try server.baoSucceeding(["write", "-f", "-field=secret_id", "auth/\(name)/role/app/secret-id"])
        return (SecureBytes(Array(roleID.utf8)), SecureBytes(Array(secretID.utf8)))
    }

    @Test(.tags(.slow)) func appRoleTokensAreRenewedAndReplacedWithNoFailedCall() throws {
        let (roleID, secretID) = try appRole(ttl: "3s", maxTTL: "7s")
        var settings = try configuration(login: .appRole(roleID: roleID, secretID: secretID, mount: name))
        let events = Mutex<[VaultTokenEvent]>([])
        settings.tokenEvents = { event in events.withLock { $0.append(event) } }
        let store = try VaultStore(configuration: settings)
        let id = CredentialIdentity.genericPassword(service: "app", account: "a")
        try store.upsert(id, string: "v0")
        // 16 s of calls, one every 250 ms: past the 3-second TTL many times and the 7-second maximum twice.
        let end = ContinuousClock.now + .seconds(16)
        var round = 0
        while ContinuousClock.now < end {
            round += 1
            try store.upsert(id, string: "v\(round)")
            #expect(try store.string(for: id) == "v\(round)")
            try Task.checkCancellation()
            usleep(250_000)
        }
        #expect(requests(to: "auth/token/renew-self") >= 2, "renewed before the TTL ran out")
        #expect(requests(to: "auth/\(name)/login") >= 3, "logged in again at the maximum TTL")
        // Each of them reported to tokenEvents, as the server's audit log counts them.
        let reported = events.withLock { $0 }
        #expect(reported.filter { if case .renewed = $0 { true } else { false } }.count >= 2)
        #expect(
            reported.filter { if case .loggedIn(method: "approle", _) = $0 { true } else { false } }.count
                == requests(to: "auth/\(name)/login")
        )
    }

    @Test func aRevokedTokenIsReplacedByANewLogin() throws {
        let (roleID, secretID) = try appRole(ttl: "1h", maxTTL: "2h")
        let store = try VaultStore(
            configuration: configuration(login: .appRole(roleID: roleID, secretID: secretID, mount: name))
        )
        let id = CredentialIdentity.genericPassword(service: "app", account: "revoked")
        try store.upsert(id, string: "before")
        #expect(requests(to: "auth/\(name)/login") == 1)
        try server.baoSucceeding(["lease", "revoke", "-prefix", "auth/\(name)/login"])
        #expect(try store.string(for: id) == "before", "the refused call succeeded after one new login")
        #expect(requests(to: "auth/\(name)/login") == 2)

        // A wrong secret ID is a refused login, not a retry loop.
        let wrong = try VaultStore(
            configuration: configuration(
                login: .appRole(roleID: roleID, secretID: SecureBytes(Array("not-the-secret-id".utf8)), mount: name)
            )
        )
        do {
            _ = try wrong.secret(for: id)
            Issue.record("a wrong secret ID logged in")
        } catch {
            guard case .permissionDenied(let reason) = error else { throw error }
            #expect(!reason.contains("not-the-secret-id"))
        }
    }

    @Test func certificateLoginWithAClientIdentityWhoseKeyStaysInOpenSSL() throws {
        let pki = TestPKI.shared
        try writePolicy()
        try server.baoSucceeding(["auth", "enable", "-path=\(name)", "cert"])
        try server.baoSucceeding([
            "write", "auth/\(name)/certs/client", "display_name=client", "policies=\(name)",
            "certificate=@\(pki.path("ca-chain.pem"))", "ttl=1h",
        ])
        let identity = try ClientIdentity(
            certificateFile: pki.path("client-chain.pem"),
            keyFile: pki.path("client.key")
        )
        let store = try VaultStore(
            configuration: configuration(login: .certificate(role: "client", mount: name), identity: identity)
        )
        let id = CredentialIdentity.genericPassword(service: "cert", account: "a", accessGroup: "fleet")
        try store.upsert(id, string: "by certificate")
        #expect(try store.string(for: id) == "by certificate")
        #expect(requests(to: "auth/\(name)/login") == 1)

        // A certificate from a CA the role does not trust logs in nowhere.
        let rogue = try ClientIdentity(
            certificateFile: pki.path("rogue-client.pem"),
            keyFile: pki.path("rogue-client.key")
        )
        let refused = try VaultStore(configuration: configuration(login: .certificate(mount: name), identity: rogue))
        do {
            _ = try refused.secret(for: id)
            Issue.record("a certificate of an untrusted CA logged in")
        } catch {
            guard case .permissionDenied = error else { throw error }
        }
    }
}
