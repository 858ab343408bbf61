import Foundation
import SecCrypto
import SecKeychain
import Synchronization
import TestSupport
import Testing

/// The audit log through the decorator on both backends: one chained line per call with the
/// identity and result and no secret; `verify` finds edited, deleted, reordered and cut lines;
/// rotation continues the chain; writers on many threads leave no torn line and no fork.
@Suite("SecKeychain: the audit log")
struct AuditLogTests {
    static func log(in scratch: Scratch, rotationSize: Int = AuditLog.defaultRotationSize) -> AuditLog {
        AuditLog(path: scratch.path("logs/credentials.audit"), rotationSize: rotationSize)
    }

    @Test(
        "every read, write and delete is one line with the identity and result, and no secret",
        arguments: KeychainBackend.available
    )
    func recordsEveryCall(backend: KeychainBackend) throws {
        try withScratch { scratch in
            let log = Self.log(in: scratch)
            let store = try backend.makeStore().audited(to: log)
            let service = KeychainFixture.uniqueService("audit")
            let identity = CredentialIdentity.genericPassword(service: service, account: "deploy")
            let secret = "audit-secret-\(UUID().uuidString)"
            try store.upsert(identity, string: secret)
            #expect(try store.string(for: identity) == secret)
            _ = try store.item(for: identity)
            #expect(try store.search(CredentialQuery(service: service)).count == 1)
            try store.delete(identity)
            #expect(throws: KeychainError.notFound) { try store.secret(for: identity) }

            let records = try log.records()
            #expect(records.map(\.call) == ["upsert", "secret", "item", "search", "delete", "secret"])
            #expect(records.map(\.operation) == [.write, .read, .read, .read, .delete, .read])
            #expect(records.map(\.result) == ["ok", "ok", "ok", "ok", "ok", "notFound"])
            #expect(records.map(\.secretReturned) == [false, true, false, false, false, false])
            #expect(records.map(\.sequence) == Array(1...6))
            #expect(records[3].count == 1)
            #expect(records.allSatisfy { $0.backend == (backend == .file ? "file" : "secret-service") })
            #expect(records.allSatisfy { $0.pid == getpid() && $0.uid == getuid() })
            #expect(records.allSatisfy { $0.executable.hasPrefix("/") })
            #expect(records[0].identity.service == service && records[0].identity.account == "deploy")
            let contents = String(decoding: try scratch.read("logs/credentials.audit"), as: UTF8.self)
            #expect(!contents.contains(secret))
            #expect(!contents.contains(Base64.encode(Array(secret.utf8))))
            #expect(contents.split(separator: "\n").count == 6)
            let verification = try log.verify()
            #expect(verification.isIntact && verification.records == 6, "\(String(describing: verification.broken))")
            // The file is the user's alone.
            var info = stat()
            #expect(stat(log.path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        }
    }

    @Test("attributes with quotes, backslashes, controls and line separators stay on one line and read back")
    func awkwardAttributes() throws {
        try withScratch { scratch in
            let log = Self.log(in: scratch)
            let service = "q\"uote\\back\nnew\r\t\u{1}\u{7f}\u{85}\u{2028}é🔑 \"sequence\":99"
            let store = try KeychainFixture.makeFileStore().audited(to: log)
            _ = try? store.secret(for: .internetPassword(server: service, account: "a\"b", port: 8443, realm: "R"))
            _ = try? store.secret(for: .genericPassword(service: "plain", account: "x"))
            let contents = try scratch.read("logs/credentials.audit")
            #expect(contents.split(separator: 0x0A).count == 2)
            let records = try log.records()
            #expect(records.count == 2)
            #expect(records.first?.identity.server == service && records.first?.identity.account == "a\"b")
            #expect(records.first?.identity.port == 8443 && records.first?.identity.realm == "R")
            #expect(records.map(\.sequence) == [1, 2])
            // The line is JSON any parser reads, with the keys sorted as JSONEncoder sorts them.
            let first = try #require(contents.split(separator: 0x0A).first)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(first)) as? [String: Any])
            #expect((object["identity"] as? [String: Any])?["server"] as? String == service)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let reference = try JSONSerialization.jsonObject(with: encoder.encode(records[1])) as? NSDictionary
            let second =
                try JSONSerialization.jsonObject(with: Data(contents.split(separator: 0x0A)[1])) as? NSDictionary
            #expect(reference == second)
            #expect(try log.verify().isIntact)
        }
    }

    /// A log of `count` records written through an encrypted-file store's failing lookups (no file, no KDF).
    static func sampleLog(_ scratch: Scratch, count: Int) throws -> AuditLog {
        let log = Self.log(in: scratch)
        let store = try KeychainFixture.makeFileStore().audited(to: log)
        for index in 0..<count {
            _ = try? store.secret(for: .genericPassword(service: "svc", account: "account-\(index)"))
        }
        return log
    }

    static func lines(_ log: AuditLog) throws -> [String] {
        try String(contentsOfFile: log.path, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    static func write(_ lines: [String], to log: AuditLog, newline: Bool = true) throws {
        try (lines.joined(separator: "\n") + (newline ? "\n" : "")).write(
            toFile: log.path,
            atomically: true,
            encoding: .utf8
        )
    }

    @Test("verify names the line after an edited one, and the line after a gap or a move")
    func tampering() throws {
        try withScratch { scratch in
            let log = try Self.sampleLog(scratch, count: 6)
            let original = try Self.lines(log)
            #expect(try log.verify().isIntact)

            var edited = original
            edited[2] = edited[2].replacing("account-2", with: "account-X")
            try Self.write(edited, to: log)
            let afterEdit = try log.verify()
            #expect(afterEdit.broken?.line == 4 && afterEdit.broken?.reason.contains("edited") == true, "\(afterEdit)")
            #expect(afterEdit.records == 3)

            var deleted = original
            deleted.remove(at: 3)
            try Self.write(deleted, to: log)
            let afterDelete = try log.verify()
            #expect(
                afterDelete.broken?.line == 4 && afterDelete.broken?.reason.contains("record 4 is missing") == true,
                "\(afterDelete)"
            )

            var reordered = original
            reordered.swapAt(1, 2)
            try Self.write(reordered, to: log)
            let afterMove = try log.verify()
            #expect(afterMove.broken?.line == 2, "\(afterMove)")

            try Self.write(Array(original.dropFirst()), to: log)
            let withoutFirst = try log.verify()
            #expect(
                withoutFirst.broken?.line == 1 && withoutFirst.broken?.reason.contains("not 1") == true,
                "\(withoutFirst)"
            )

            try Self.write(original, to: log, newline: false)
            #expect(try log.verify().broken?.line == 6)

            try Self.write(original, to: log)
            #expect(try log.verify().isIntact)
        }
    }

    @Test("rotation renames the file to PATH.1 and the chain goes on in the new file")
    func rotation() throws {
        try withScratch { scratch in
            let log = AuditLog(path: scratch.path("logs/credentials.audit"), rotationSize: 4096, rotatedFiles: 2)
            let store = try KeychainFixture.makeFileStore().audited(to: log)
            // About 400 bytes a line: 4096 bytes hold 10, so 45 records make 4 rotations, 2 of them kept.
            for index in 0..<45 { _ = try? store.secret(for: .genericPassword(service: "svc", account: "a\(index)")) }
            #expect(log.files == [log.path + ".2", log.path + ".1", log.path])
            for file in log.files {
                var info = stat()
                #expect(stat(file, &info) == 0 && info.st_size <= 4096, "\(file)")
            }
            let verification = try log.verify()
            #expect(verification.isIntact, "\(String(describing: verification.broken))")
            let records = try log.records()
            #expect(records.last?.sequence == 45)
            #expect(records.map(\.sequence) == Array((records.first?.sequence ?? 0)...45))
            #expect(verification.firstSequence ?? 0 > 1)
        }
    }

    @Test("8 threads appending 100 records each: 800 whole lines, one unbroken chain")
    func concurrentThreads() throws {
        try withScratch { scratch in
            let log = Self.log(in: scratch)
            let failures = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 8) { writer in
                for index in 0..<100 {
                    do {
                        try log.append(
                            AuditRecord(
                                sequence: 0,
                                time: Date(),
                                operation: .read,
                                call: "secret",
                                backend: "test",
                                identity: AuditedAttributes(
                                    .genericPassword(service: "w\(writer)", account: "\(index)")
                                ),
                                result: "ok",
                                secretReturned: true,
                                pid: getpid(),
                                uid: getuid(),
                                executable: "test",
                                previous: AuditRecord.genesis
                            )
                        )
                    } catch {
                        failures.withLock { $0.append("\(writer)/\(index): \(error)") }
                    }
                }
            }
            #expect(failures.withLock { $0 }.isEmpty)
            let verification = try log.verify()
            #expect(verification.isIntact && verification.records == 800, "\(verification)")
            let records = try log.records()
            for writer in 0..<8 {
                #expect(
                    records.filter { $0.identity.service == "w\(writer)" }.compactMap(\.identity.account)
                        == (0..<100).map { "\($0)" }
                )
            }
        }
    }
}
