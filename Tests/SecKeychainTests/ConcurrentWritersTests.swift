import Foundation
import SecCrypto
import SecKeychain
import Synchronization
import TestSupport
import Testing

/// 8 writer processes × 200 upserts, started together on one store, contending only through the
/// store's own locking (each is a `keychain-stress` process: Tests/KeychainStress/main.swift).
/// They all write 4 shared identities and each writes one identity of its own. Afterwards: exactly
/// one item per identity, each shared one holding a value some writer wrote to it, every writer's
/// last write to its own identity present (no lost update), and no writer ever found a shared
/// identity missing between two upserts.
@Suite struct ConcurrentWritersTests {
    @Test("8 processes x 200 upserts on 4 shared + 8 own identities, encrypted file", .tags(.slow))
    func encryptedFile() throws {
        let writers = try ConcurrentWriters()
        let path = writers.folder + "/credentials.store"
        try writers.run(
            seeding: KeychainFixture.makeFileStore(path: path),
            backend: ["--backend", "file", "--store", path],
            environment: [
                "KEYCHAIN_STRESS_PASSWORD": String(decoding: KeychainFixture.filePassword.bytes, as: UTF8.self)
            ]
        )

        // A new store value derives the key again: the file opens, authenticates and holds exactly these items.
        let reopened = try KeychainFixture.makeFileStore(path: path)
        let accounts = try reopened.search(CredentialQuery(service: writers.service)).map(\.identity.account)
        #expect(accounts.sorted() == writers.accounts)
        try writers.expectWrittenValues(in: reopened)
        let left = try FileManager.default.contentsOfDirectory(atPath: writers.folder).sorted()
        #expect(left == ["barrier", "credentials.store", "credentials.store.lock"], "no temporary files left behind")
    }

    @Test(
        "8 processes x 200 upserts on 4 shared + 8 own identities, Secret Service (counted by secret-tool)",
        .tags(.slow),
        .enabled(if: SecretServiceSupport.hasPrivateSecretService, SecretServiceSupport.privateSessionOnly)
    )
    func secretService() throws {
        let writers = try ConcurrentWriters()
        try writers.run(seeding: SecretServiceStore(), backend: ["--backend", "secret-service"], environment: [:])

        // secret-tool counts the items itself, past SecKit's handling of copies.
        for account in writers.accounts {
            #expect(try Self.secretToolCount(["service", writers.service, "account", account]) == 1, "\(account)")
        }
        #expect(try Self.secretToolCount(["service", writers.service]) == writers.accounts.count)
        try writers.expectWrittenValues(in: SecretServiceStore())
    }

    /// The items `secret-tool search --all` lists (one `[/org/freedesktop/secrets/…]` line each).
    static func secretToolCount(_ attributes: [String]) throws -> Int {
        try KeychainFixture.secretToolSearch(attributes).split(separator: "\n").filter { $0.hasPrefix("[/") }.count
    }
}

/// One run of the `keychain-stress` writers on a store, and what must hold after it.
struct ConcurrentWriters {
    static let writerCount = 8, upsertsPerWriter = 200, sharedCount = 4

    let service = KeychainFixture.uniqueService("writers")
    /// A new folder for this run's barrier file (and store file).
    let folder: String

    init() throws {
        folder = try Scratch.untilExit("writers").path
    }

    /// The accounts of every identity written, sorted: the shared ones and each writer's own.
    var accounts: [String] {
        ((0..<Self.sharedCount).map { "shared-\($0)" } + (1...Self.writerCount).map { "own-\($0)" }).sorted()
    }

    func identity(_ account: String) -> CredentialIdentity { .genericPassword(service: service, account: account) }

    /// Stores the shared identities with `store`, then runs the writers together, each a separate
    /// process, and requires that every one of them succeeded.
    func run(seeding store: any CredentialStore, backend: [String], environment: [String: String]) throws {
        for slot in 0..<Self.sharedCount {
            try store.upsert(identity("shared-\(slot)"), string: "seed")
        }
        let executable = try #require(
            BuiltExecutable.path("keychain-stress"),
            "keychain-stress not built next to the test bundle"
        )
        let barrier = folder + "/barrier"
        let results = WriterResults()
        let finished = DispatchGroup()
        for writer in 1...Self.writerCount {
            let arguments =
                backend + [
                    "--service", service, "--writer", "\(writer)", "--writers", "\(Self.writerCount)",
                    "--upserts", "\(Self.upsertsPerWriter)", "--shared", "\(Self.sharedCount)", "--barrier", barrier,
                ]
            finished.enter()
            // ProcessRunner.run blocks until its process exits: one thread per writer keeps all 8 running at once.
            Thread {
                let result = Result {
                    try ProcessRunner.run(executable, arguments, environment: environment, timeout: .seconds(120))
                }
                results.slots.withLock { $0[writer] = result }
                finished.leave()
            }.start()
        }
        finished.wait()
        for (writer, result) in results.slots.withLock({ $0 }).sorted(by: { $0.key < $1.key }) {
            let process = try result.get()
            #expect(process.status == 0, "writer \(writer) exited \(process.status): \(process.stderr)")
        }
    }

    /// Each shared identity holds "w<writer>-i<iteration>" that some writer stored under it, and
    /// each writer's own identity holds its last write to it.
    func expectWrittenValues(in store: any CredentialStore) throws {
        let slots = Self.sharedCount + 1
        for slot in 0..<Self.sharedCount {
            let value = try store.string(for: identity("shared-\(slot)"))
            let written = value.wholeMatch(of: /w(\d+)-i(\d+)/).flatMap { match in
                Int(match.1).flatMap { w in Int(match.2).map { (w, $0) } }
            }
            let plausible = written.map {
                (1...Self.writerCount).contains($0.0) && (1...Self.upsertsPerWriter).contains($0.1)
                    && $0.1 % slots == slot
            }
            #expect(plausible == true, "shared-\(slot) holds \(value.debugDescription)")
        }
        let lastOwnWrite = try #require((1...Self.upsertsPerWriter).last { $0 % slots == Self.sharedCount })
        for writer in 1...Self.writerCount {
            #expect(
                try store.string(for: identity("own-\(writer)")) == "w\(writer)-i\(lastOwnWrite)",
                "writer \(writer)'s own identity"
            )
        }
    }
}

/// What each writer thread's process left behind, by writer number.
final class WriterResults: Sendable {
    let slots = Mutex<[Int: Result<ProcessResult, any Error>]>([:])
}
