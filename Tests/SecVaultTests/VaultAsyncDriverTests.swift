import Foundation
import SecCrypto
import SecKeychain
import SecTLS
import SecVault
import SecVaultHTTPClient
import TestSupport
import Testing

/// The async driver over AsyncHTTPClient (`VaultStore`'s async calls end to end, no thread per
/// call) against the fake server (`fake_vault_server.py`): the connection rules VaultConnectionTests
/// prove over libcurl hold here too, since both drivers carry out the same plans; and what is new
/// with it, a cancelled task ending its request or its back-off, and retries that block no thread.
@Suite struct VaultAsyncDriverTests {
    let id = CredentialIdentity.genericPassword(service: "svc", account: "acct")

    /// A store of the fake `server` over AsyncHTTPClient (TestPKI's CA, the dev server's token),
    /// given to `body`; the transport is shut down after it.
    func withStore<T>(
        _ server: FakeVaultServer,
        _ body: (VaultStore) async throws -> T
    ) async throws -> T {
        let real = try VaultStoreTests.server.get()
        var tls = TLSClientConfiguration()
        tls.trustRoots = .caFile(TestPKI.shared.path("ca.pem"))
        let transport = try AsyncHTTPClientTransport(tls: tls)
        let store = VaultStore(
            configuration: VaultConfiguration(
                address: try VaultAddress(parsing: server.address),
                login: .token(SecureBytes(Array(real.rootToken.utf8))),
                tls: tls
            ),
            transport: transport
        )
        do {
            let result = try await body(store)
            try await transport.shutdown()
            return result
        } catch {
            try await transport.shutdown()
            throw error
        }
    }

    /// A timeout for calls that should end long before it: in the whole parallel run, tests that
    /// block the cooperative pool's threads keep the async driver's continuations waiting, for
    /// minutes on 2 cores.
    static let generous = Duration.seconds(300) * ProcessRunner.timeoutScale

    /// What reading the item throws over the async driver; nil when it answered.
    func failure(of server: FakeVaultServer, timeout: Duration = generous) async throws -> KeychainError? {
        try await withStore(server) { store -> KeychainError? in
            do {
                _ = try await store.secret(for: id, timeout: timeout)
                return nil
            } catch let error as KeychainError {
                return error
            }
        }
    }

    @Test func retriesAndTheFailoverRestartAwaitTheirBackOff() async throws {
        let dead = "https://127.0.0.1:\(try TLSTestServer.freePort())"
        let failover = try FakeVaultServer.start(.failover, target: dead)
        defer { failover.stop() }
        let secret = try await withStore(failover) { try await $0.secret(for: id, timeout: Self.generous) }
        #expect(secret == SecureBytes(Array("after retries".utf8)))
        #expect(failover.requests.count == 2, "the retry went back to the configured address")

        let flaky = try FakeVaultServer.start(.flaky)
        defer { flaky.stop() }
        let again = try await withStore(flaky) { try await $0.secret(for: id, timeout: Self.generous) }
        #expect(again == SecureBytes(Array("after retries".utf8)))
        #expect(flaky.requests.count == 4)
    }

    @Test(.tags(.slow)) func sealedUninitializedAndGarbageAreTyped() async throws {
        let sealed = try FakeVaultServer.start(.sealed)
        defer { sealed.stop() }
        #expect(try await failure(of: sealed) == .serverSealed)
        #expect(sealed.requests.count == 1)
        let uninitialized = try FakeVaultServer.start(.uninitialized)
        defer { uninitialized.stop() }
        #expect(try await failure(of: uninitialized) == .serverUninitialized)
        for form in [FakeVaultServer.Form.html, .truncated, .hugeHeaders, .redirectLoop] {
            let server = try FakeVaultServer.start(form)
            defer { server.stop() }
            let error = try await failure(of: server)
            guard case .invalidResponse? = error else {
                Issue.record("\(form): \(String(describing: error))")
                continue
            }
        }
    }

    @Test func aServerThatNeverAnswersTimesOut() async throws {
        let server = try FakeVaultServer.start(.stall)
        defer { server.stop() }
        #expect(try await failure(of: server, timeout: .seconds(1)) == .timeout(.seconds(1)))
    }

    /// A task cancelled while its request waits for an answer that never comes (the timeout is
    /// far away): the request is cancelled and the call throws `cancelled`.
    @Test(.timeLimit(.minutes(5))) func cancellingTheTaskEndsARequestInFlight() async throws {
        let server = try FakeVaultServer.start(.stall)
        defer { server.stop() }
        let error = try await withStore(server) { store in
            let call = Task { try await store.secret(for: id, timeout: .seconds(3600)) }
            try await eventually(within: 300) { server.requests.count == 1 }
            call.cancel()
            return await call.result
        }
        guard case .failure(let failure) = error, failure as? KeychainError == .cancelled else {
            Issue.record("a cancelled read: \(error)")
            return
        }
    }

    /// A task cancelled between retries (a server that always answers 500): the back-off ends at
    /// once with `cancelled`, not at the timeout.
    @Test(.timeLimit(.minutes(5))) func cancellingTheTaskEndsItsBackOff() async throws {
        let server = try FakeVaultServer.start(.alwaysServerError)
        defer { server.stop() }
        let error = try await withStore(server) { store in
            let call = Task { try await store.secret(for: id, timeout: .seconds(3600)) }
            try await eventually(within: 300) { server.requests.count >= 2 }
            call.cancel()
            return await call.result
        }
        guard case .failure(let failure) = error, failure as? KeychainError == .cancelled else {
            Issue.record("a cancelled retry loop: \(error)")
            return
        }
    }

    /// How a caller holds the store: as `VaultStore`; as `any CredentialStore`, as SSO, identities
    /// and SecHTTPAuth's keychain credentials do; or audited (`AuditedCredentialStore`).
    enum Holder: CaseIterable, Sendable { case vaultStore, anyCredentialStore, audited }

    /// 64 reads retrying with back-off at once (a server that always answers 500): the process
    /// gains no thread per call, as it did when the async API ran the blocking core on a thread of
    /// its own; the back-off is `Task.sleep`, the requests are AsyncHTTPClient's event loop's. The
    /// same through `any CredentialStore` and through an audited store, whose async calls are the
    /// protocol's requirements.
    @Test(arguments: Holder.allCases) func retriesBlockNoThread(held holder: Holder) async throws {
        let server = try FakeVaultServer.start(.alwaysServerError)
        defer { server.stop() }
        let scratch = try Scratch.untilExit("audited-vault")
        let calls = 64
        let peak = try await withStore(server) { vault in
            let read: @Sendable (Duration) async -> Void =
                switch holder {
                case .vaultStore: { [id] in _ = try? await vault.secret(for: id, timeout: $0) }
                case .anyCredentialStore:
                    { [id, store = vault as any CredentialStore] in _ = try? await store.secret(for: id, timeout: $0) }
                case .audited:
                    {
                        [
                            id,
                            store = vault.audited(to: AuditLog(path: scratch.path("audit.log"))) as any CredentialStore
                        ] in
                        _ = try? await store.secret(for: id, timeout: $0)
                    }
                }
            // The event loop's and the pool's threads exist before counting.
            await read(.milliseconds(200))
            let before = Self.threadCount()
            return try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<calls {
                    group.addTask { await read(.seconds(3600)) }
                }
                try await eventually(within: 300) { server.requests.count >= 3 * calls }
                let during = Self.threadCount()
                group.cancelAll()
                try await group.waitForAll()
                return during - before
            }
        }
        #expect(peak < calls / 2, "\(peak) more threads while \(calls) calls retried (\(holder))")
        if holder == .audited {
            let records = try AuditLog(path: scratch.path("audit.log")).records()
            #expect(records.count == calls + 1)
            #expect(records.allSatisfy { $0.call == "secret" && $0.result != "ok" && !$0.secretReturned })
        }
    }

    /// The process's threads (`Threads:` of /proc/self/status).
    static func threadCount() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("Threads:") }
        return line.flatMap { Int($0.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
    }
}
