import Foundation
import SecCrypto
import SecKeychain
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The async variants of the stores' calls: they work like the blocking ones, and a cancelled task
/// really stops them — the D-Bus call of a gnome-keyring-daemon that is stopped (SIGSTOP), a wait
/// for a writer lock another holder keeps — long before the operation's timeout.
@Suite struct AsyncStoreTests {
    @Test(arguments: KeychainBackend.available)
    func asyncCallsReadAndWriteTheStore(backend: KeychainBackend) async throws {
        let store = try backend.makeStore()
        let id = CredentialIdentity.genericPassword(service: KeychainFixture.uniqueService("async"), account: "a")
        try await store.upsert(id, string: "first", attributes: CredentialAttributes(comment: "c"))
        try await store.upsert(id, secret: SecureBytes(Array("second".utf8)))
        try await store.upsert(
            id,
            secret: Array("second".utf8),
            attributes: CredentialAttributes(),
            timeout: .seconds(10)
        )
        #expect(try await store.secret(for: id).bytes == KeychainFixture.bytes("second"))
        #expect(try await store.expiringSecret(for: id).secret.bytes == KeychainFixture.bytes("second"))
        #expect(try await store.item(for: id).identity == id)
        #expect(try await store.item(for: id, includeSecret: true).secret?.bytes == KeychainFixture.bytes("second"))
        #expect(try await store.search(CredentialQuery(service: id.service)).map(\.identity) == [id])
        try await store.delete(id)
        await #expect(throws: KeychainError.notFound) { try await store.secret(for: id) }
        let other = CredentialIdentity.genericPassword(service: try #require(id.service), account: "b")
        try await store.upsert(id, string: "x")
        try await store.upsert(other, string: "y")
        #expect(try await store.deleteAll(matching: CredentialQuery(service: id.service)) == 2)
        #expect(try await store.search(CredentialQuery(service: id.service)).isEmpty)
    }

    @Test func aTaskCancelledBeforeTheCallStartsNothing() async throws {
        let store = try KeychainFixture.makeFileStore()
        let id = CredentialIdentity.genericPassword(service: "never", account: "written")
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await store.upsert(id, string: "x")
        }
        await #expect(throws: KeychainError.cancelled) { try await task.value }
        #expect(!FileManager.default.fileExists(atPath: store.path))
    }

    /// The file store's writer lock, held by another open file description. (Both stores wait for
    /// their lock in `FileLock`; the Secret Service's is shared by every test, which would wait too
    /// while this one holds it across its awaits.)
    @Test func cancellingAWriterThatWaitsForTheLockEndsTheWait() async throws {
        let store = try KeychainFixture.makeFileStore()
        let lockPath = KeychainBackend.file.writerLockPath(of: store)
        let holder = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        defer { close(holder) }
        #expect(flock(holder, LOCK_EX) == 0)
        let id = CredentialIdentity.genericPassword(service: KeychainFixture.uniqueService("async-lock"), account: "w")
        let task = Task { try await store.upsert(id, string: "x", timeout: .seconds(900)) }
        // The writer has opened the lock file, so it waits for the lock: the cancel ends a wait,
        // not a call that never started.
        let deadline = ContinuousClock.now + .seconds(900)
        while descriptors(on: lockPath) < 2 {
            try #require(ContinuousClock.now < deadline, "the writer never opened the lock file")
            try await Task.sleep(for: .milliseconds(10))
        }
        task.cancel()
        // `cancelled`, not `timedOut`: the cancellation ended the wait. (No wall-clock bound: the
        // parallel tests' blocking calls can hold the pool's threads, and the resumption, for minutes.)
        await #expect(throws: KeychainError.cancelled) { try await task.value }
    }

    /// How many of this process's open descriptors are on `path`.
    func descriptors(on path: String) -> Int {
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return descriptors.filter {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == target
        }.count
    }

    /// Stopping the daemon the other tests share would hold them up (past their timeouts, on a
    /// loaded machine), so the stopped-daemon test runs in a Secret Service of its own: a child test
    /// process, in a nested private session, that runs only that test.
    @Test(.enabled(if: SecretServiceSupport.hasPrivateSecretService, SecretServiceSupport.privateSessionOnly))
    func cancellingAReadOfAStoppedSecretServiceEndsItPromptly() throws {
        try SecretServiceSupport.runInOwnSession("AsyncStoreTests/cancellingAReadOfThisSessionsStoppedSecretService")
    }

    /// SIGSTOP leaves the daemon's D-Bus name and socket in place: calls to it are queued by the bus
    /// and wait. Cancelling the task cancels the call's GCancellable, so the read ends at once.
    @Test(SecretServiceSupport.onlyInOwnSession)
    func cancellingAReadOfThisSessionsStoppedSecretService() async throws {
        let store = SecretServiceStore()
        let id = CredentialIdentity.genericPassword(service: KeychainFixture.uniqueService("async-stop"), account: "a")
        try await store.upsert(id, string: "kept")
        let daemon = try Self.secretServiceProcess()
        #expect(kill(daemon, SIGSTOP) == 0)
        defer { kill(daemon, SIGCONT) }
        let task = Task { try await store.secret(for: id, timeout: .seconds(900)) }
        try await Task.sleep(for: .milliseconds(300))
        task.cancel()
        // `cancelled`, not `timedOut`: the cancellation ended the call.
        await #expect(throws: KeychainError.cancelled) { try await task.value }
        #expect(kill(daemon, SIGCONT) == 0)
        #expect(try await store.secret(for: id, timeout: .seconds(10)).bytes == KeychainFixture.bytes("kept"))
        try await store.delete(id)
    }

    /// The process that owns `org.freedesktop.secrets` on this session bus (the private session's
    /// gnome-keyring-daemon), as the bus itself knows it.
    static func secretServiceProcess() throws -> pid_t {
        let reply = try ProcessRunner.run(
            "dbus-send",
            [
                "--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                "org.freedesktop.DBus.GetConnectionUnixProcessID", "string:org.freedesktop.secrets",
            ]
        ).requiringSuccess(of: "dbus-send GetConnectionUnixProcessID")
        let pid = try #require(
            reply.stdoutText.split(separator: " ").last.flatMap {
                pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines))
            }
        )
        #expect(pid > 1 && pid != getpid())
        return pid
    }
}
