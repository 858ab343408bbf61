import Foundation
import SecCrypto
import SecKeychain
import SecTLS
import SecVault
import SecVaultHTTPClient
import TestSupport
import Testing

/// The same store over AsyncHTTPClient (SecKitHTTPClient's configuration) against the real server:
/// the protocol core is the transport's, so what bao reads and the pin refusal are the same.
@Suite struct AsyncHTTPClientTransportTests {
    /// The core's redirect rules hold over AsyncHTTPClient too: the transport follows nothing
    /// itself, so a second redirect and one to `http` are refused after the requests the core sent.
    @Test(arguments: [FakeVaultServer.Form.redirectLoop, .redirectToHTTP])
    func redirectsAreTheCoresToFollow(form: FakeVaultServer.Form) async throws {
        let server = try FakeVaultServer.start(form)
        defer { server.stop() }
        let failure = try await VaultAsyncDriverTests().failure(of: server)
        guard case .invalidResponse? = failure else {
            Issue.record("\(form): \(String(describing: failure))")
            return
        }
        #expect(server.requests.count == (form == .redirectLoop ? 2 : 1))
    }

    @Test func theStoreOverAsyncHTTPClient() async throws {
        let server = try VaultStoreTests.server.get()
        let prefix = "ahc-" + UUID().uuidString.prefix(8).lowercased()
        var tls = TLSClientConfiguration()
        tls.trustRoots = .caFile(server.caFile)
        let configuration = VaultConfiguration(
            address: try VaultAddress(parsing: server.address),
            login: .token(SecureBytes(Array(server.rootToken.utf8))),
            tls: tls,
            pathPrefix: prefix
        )
        let transport = try AsyncHTTPClientTransport(tls: tls)
        let store = VaultStore(configuration: configuration, transport: transport)
        let id = CredentialIdentity.genericPassword(service: "svc", account: "ahc")
        try await store.upsert(id, string: "over AHC", timeout: .seconds(60))
        #expect(
            try server.baoSucceeding(["kv", "get", "-mount=secret", "-field=secret", "\(prefix)/generic/svc/ahc"])
                == "over AHC"
        )
        // 16 concurrent reads share the client's connections.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    let secret = try await store.secret(for: id, timeout: .seconds(60))
                    #expect(secret == SecureBytes(Array("over AHC".utf8)))
                }
            }
            try await group.waitForAll()
        }
        try await transport.shutdown()

        var pinned = tls
        pinned.pinPolicy = try PinPolicy(
            host: "127.0.0.1",
            pins: [
                Pin(parsing: "sha256/" + Base64.encode(randomBytes(32))),
                Pin(parsing: "sha256/" + Base64.encode(randomBytes(32))),
            ]
        )
        let pinnedTransport = try AsyncHTTPClientTransport(tls: pinned)
        var pinnedConfiguration = configuration
        pinnedConfiguration.tls = pinned
        let refused = VaultStore(configuration: pinnedConfiguration, transport: pinnedTransport)
        do {
            _ = try await refused.secret(for: id, timeout: .seconds(60))
            Issue.record("a wrong pin was accepted")
        } catch {
            guard case .untrustedServer(.pinMismatch, _) = error else {
                Issue.record("\(error)")
                try await pinnedTransport.shutdown()
                return
            }
        }
        try await pinnedTransport.shutdown()
    }
}
