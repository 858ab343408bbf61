import Foundation
import InMemoryLogging
import Logging
import MetricsTestKit
import SecCrypto
import SecKeychain
import SecTLS
import SecVault
import SecVaultHTTPClient
import TestSupport
import Testing

/// The token's life as a service sees it: `VaultTokenEvent.reporter` logs and counts each login
/// and refused token of a store over AsyncHTTPClient against the real server, captured with
/// swift-log's `InMemoryLogHandler` and swift-metrics' `TestMetrics`; no role ID, secret ID or
/// token appears in them.
@Suite struct VaultTokenEventTests {
    @Test func loginsAndARevokedTokenAreLoggedAndCounted() async throws {
        let logins = try VaultLoginTests()
        let (roleID, secretID) = try logins.appRole(ttl: "1h", maxTTL: "2h")
        let handler = InMemoryLogHandler()
        var logger = Logger(label: "test") { _ in handler }
        logger.logLevel = .trace
        let metrics = TestMetrics()
        var configuration = try logins.configuration(
            login: .appRole(roleID: roleID, secretID: secretID, mount: logins.name)
        )
        configuration.tokenEvents = VaultTokenEvent.reporter(logger: logger, metricsFactory: metrics)
        let transport = try AsyncHTTPClientTransport(tls: configuration.tls)
        let store = VaultStore(configuration: configuration, transport: transport)
        let id = CredentialIdentity.genericPassword(service: "app", account: "events")
        // Far beyond what the calls take: the async calls' continuations wait for the cooperative
        // pool, which the whole parallel run's blocking tests hold for minutes.
        let timeout = Duration.seconds(300) * ProcessRunner.timeoutScale
        try await store.upsert(id, string: "the secret", timeout: timeout)
        try logins.server.baoSucceeding(["lease", "revoke", "-prefix", "auth/\(logins.name)/login"])
        _ = try await store.secret(for: id, timeout: timeout)

        var wrong = configuration
        wrong.login = .appRole(
            roleID: roleID,
            secretID: SecureBytes(Array("not-the-secret-id".utf8)),
            mount: logins.name
        )
        let refused = VaultStore(configuration: wrong, transport: transport)
        await #expect(throws: KeychainError.self) { _ = try await refused.secret(for: id, timeout: timeout) }
        try await transport.shutdown()

        let events = "seckit_vault_token_events_total"
        #expect(metrics.counterTotal(label: events, dimensions: [("event", "login")]) == 2)
        #expect(metrics.counterTotal(label: events, dimensions: [("event", "token_refused")]) == 1)
        #expect(metrics.counterTotal(label: events, dimensions: [("event", "login_failed")]) == 1)
        let entries = handler.entries
        #expect(entries.filter { $0.message == "OpenBao login" && $0.level == .debug }.count == 2)
        #expect(entries.contains { $0.message == "OpenBao refused the token; logging in again" && $0.level == .notice })
        let failed = try #require(entries.first { $0.message == "OpenBao login failed" })
        #expect(failed.level == .warning && failed.metadata["vault.login"] == "approle")

        let text = entries.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
        for secret in [roleID, secretID, SecureBytes(Array("not-the-secret-id".utf8))] {
            #expect(!text.contains(String(decoding: secret.withUnsafeBytes { Array($0) }, as: UTF8.self)))
        }
        #expect(!text.contains("the secret"))
    }
}
