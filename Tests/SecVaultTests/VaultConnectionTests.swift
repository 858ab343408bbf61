import Foundation
import SecCrypto
import SecKeychain
import SecTLS
import SecVault
import TestSupport
import Testing

/// The connection rules against a fake server (`fake_vault_server.py`) and the real one: one
/// followed 307 with the same method and body, never to `http`; retries on 5xx and 412 within the
/// timeout; sealed and uninitialized typed; garbage (HTML, truncated JSON, 2 MB of headers, a
/// server that never answers) a typed error, never a crash or a hang.
@Suite struct VaultConnectionTests {
    let id = CredentialIdentity.genericPassword(service: "svc", account: "acct")

    /// A store of the fake `server` (TestPKI's CA) and the dev server's CA, with the dev server's token.
    func store(_ server: FakeVaultServer, prefix: String = "seckit") throws -> VaultStore {
        let real = try VaultStoreTests.server.get()
        let roots =
            try X509Certificate.load(pem: String(contentsOfFile: TestPKI.shared.path("ca.pem"), encoding: .utf8))
            + X509Certificate.load(pem: String(contentsOfFile: real.caFile, encoding: .utf8))
        var tls = TLSClientConfiguration()
        tls.trustRoots = .certificates(roots)
        return VaultStore(
            configuration: VaultConfiguration(
                address: try VaultAddress(parsing: server.address),
                login: .token(SecureBytes(Array(real.rootToken.utf8))),
                tls: tls,
                pathPrefix: prefix
            ),
            transport: try CurlTransport(tls: tls)
        )
    }

    /// What reading an item through `store` throws; nil when it answered.
    func failure(of store: VaultStore, timeout: Duration = .seconds(10)) -> KeychainError? {
        do {
            _ = try store.secret(for: id, timeout: timeout)
            return nil
        } catch {
            return error
        }
    }

    @Test func oneRedirectToTheActiveNodeWithTheSameMethodAndBody() throws {
        let real = try VaultStoreTests.server.get()
        let standby = try FakeVaultServer.start(.redirect, target: real.address)
        defer { standby.stop() }
        let prefix = "redirected-" + UUID().uuidString.prefix(8).lowercased()
        let store = try store(standby, prefix: prefix)
        try store.upsert(id, string: "through the standby")
        #expect(
            try real.baoSucceeding(["kv", "get", "-mount=secret", "-field=secret", "\(prefix)/generic/svc/acct"])
                == "through the standby"
        )
        #expect(try store.string(for: id) == "through the standby")
        let writes = standby.requests.filter { $0.method == "POST" }
        #expect(
            writes.count == 2 && writes.allSatisfy(\.hadToken),
            "the metadata and the data were sent to the standby"
        )
        #expect(writes.last?.body.contains("\"cas\"") == true)
    }

    @Test(arguments: [FakeVaultServer.Form.redirectLoop, .redirectToHTTP])
    func aSecondRedirectOrOneToHTTPIsRefused(form: FakeVaultServer.Form) throws {
        let server = try FakeVaultServer.start(form)
        defer { server.stop() }
        let error = failure(of: try store(server))
        guard case .invalidResponse? = error else {
            Issue.record("\(form): \(String(describing: error))")
            return
        }
        #expect(server.requests.count == (form == .redirectLoop ? 2 : 1))
    }

    /// A failover: the standby named an active node that then died (its port refuses), and the
    /// standby became the active node. The retry goes back to the configured address, which answers;
    /// retrying at the dead node would fail until the timeout (found by tools/bench/openbao-failover).
    @Test func aRetryAfterARedirectStartsAgainAtTheConfiguredAddress() throws {
        let dead = "https://127.0.0.1:\(try TLSTestServer.freePort())"
        let server = try FakeVaultServer.start(.failover, target: dead)
        defer { server.stop() }
        #expect(try store(server).string(for: id, timeout: .seconds(10)) == "after retries")
        #expect(server.requests.count == 2)
    }

    @Test func serverErrorsAndPreconditionFailuresAreRetried() throws {
        let server = try FakeVaultServer.start(.flaky)
        defer { server.stop() }
        #expect(try store(server).string(for: id) == "after retries")
        #expect(server.requests.count == 4)
    }

    @Test func retriesEndWithTheTimeout() throws {
        let server = try FakeVaultServer.start(.alwaysServerError)
        defer { server.stop() }
        let start = ContinuousClock.now
        let error = failure(of: try store(server), timeout: .seconds(2))
        guard case .invalidResponse(let reason)? = error, reason.contains("500") else {
            Issue.record("a server that always fails: \(String(describing: error))")
            return
        }
        #expect(ContinuousClock.now - start < .seconds(2) * 3 * ProcessRunner.timeoutScale)
        #expect(server.requests.count >= 3, "retried with backoff: \(server.requests.count) requests")
    }

    @Test func sealedAndUninitializedAreTypedAtOnce() throws {
        let sealed = try FakeVaultServer.start(.sealed)
        defer { sealed.stop() }
        #expect(throws: KeychainError.serverSealed) { try store(sealed).secret(for: id) }
        #expect(sealed.requests.count == 1)
        let uninitialized = try FakeVaultServer.start(.uninitialized)
        defer { uninitialized.stop() }
        #expect(throws: KeychainError.serverUninitialized) { try store(uninitialized).secret(for: id) }
    }

    @Test(arguments: [FakeVaultServer.Form.html, .truncated, .hugeHeaders])
    func garbageIsATypedError(form: FakeVaultServer.Form) throws {
        let server = try FakeVaultServer.start(form)
        defer { server.stop() }
        let error = failure(of: try store(server))
        guard case .invalidResponse? = error else {
            Issue.record("\(form): \(String(describing: error))")
            return
        }
    }

    @Test func aServerThatNeverAnswersTimesOut() throws {
        let server = try FakeVaultServer.start(.stall)
        defer { server.stop() }
        #expect(throws: KeychainError.timeout(.seconds(1))) { try store(server).secret(for: id, timeout: .seconds(1)) }
    }
}
