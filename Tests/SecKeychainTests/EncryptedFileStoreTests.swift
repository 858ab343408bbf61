import Foundation
import SecCrypto
import SecKeychain
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What only the encrypted-file store has: the master password, the file's format and mode, and
/// tampering. (Everything else runs in CredentialStoreTests on both backends.)
@Suite struct EncryptedFileStoreTests {
    let id = CredentialIdentity.genericPassword(service: "db.example", account: "app", accessGroup: "servers")

    /// A store at a new path holding one item, and the file's bytes.
    func storeWithOneItem() throws -> (store: EncryptedFileStore, file: [UInt8]) {
        let store = try KeychainFixture.makeFileStore()
        try store.upsert(id, string: "hunter2")
        return (store, try bytes(of: store.path))
    }

    func bytes(of path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    func mode(of path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test func fileHeaderRecordsSaltAndIterations() throws {
        let (_, file) = try storeWithOneItem()
        let (_, other) = try storeWithOneItem()
        #expect(Array(file.prefix(10)) == Array("SECKITKC".utf8) + [1, 1])
        #expect(file[10..<14].reduce(0) { $0 << 8 | Int($1) } == EncryptedFileStore.defaultIterations)
        #expect(file[14..<30] != other[14..<30], "each file has its own random salt")
        #expect(
            !file.containsSubsequence(Array("hunter2".utf8)) && !file.containsSubsequence(Array("db.example".utf8)),
            "nothing in clear"
        )
    }

    @Test func fileAndLockFileAreOwnerOnlyAndReplacedAtomically() throws {
        let (store, _) = try storeWithOneItem()
        #expect(try mode(of: store.path) == 0o600)
        #expect(try mode(of: store.path + ".lock") == 0o600)
        let inode = try FileManager.default.attributesOfItem(atPath: store.path)[.systemFileNumber] as? Int
        try store.upsert(id, string: "changed")
        #expect(try mode(of: store.path) == 0o600)
        #expect(
            try FileManager.default.attributesOfItem(atPath: store.path)[.systemFileNumber] as? Int != inode,
            "a new file renamed over the old one"
        )
        let folder = URL(fileURLWithPath: store.path).deletingLastPathComponent().path
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains(".seckit-") }
        #expect(leftovers.isEmpty, "no temporary files left behind")
    }

    @Test func wrongMasterPasswordIsRefusedAndChangesNothing() throws {
        let (store, file) = try storeWithOneItem()
        let wrong = try EncryptedFileStore(
            path: store.path,
            password: SecureBytes(Array("Correct horse battery staple".utf8))
        )
        #expect(throws: KeychainError.wrongStorePassword) { try wrong.secret(for: id) }
        #expect(throws: KeychainError.wrongStorePassword) { try wrong.search(CredentialQuery()) }
        #expect(throws: KeychainError.wrongStorePassword) { try wrong.upsert(id, string: "overwrite") }
        #expect(throws: KeychainError.wrongStorePassword) { try wrong.delete(id) }
        #expect(try bytes(of: store.path) == file)
        #expect(try store.string(for: id) == "hunter2")
    }

    @Test func everyAlteredByteAfterTheHeaderIsCorruptStore() throws {
        let (store, file) = try storeWithOneItem()
        let headerByteCount = 62
        // One reader (the key is derived once); it decrypts again whenever the file's bytes change.
        let reader = try KeychainFixture.makeFileStore(path: store.path)
        #expect(try reader.string(for: id) == "hunter2")
        for position in headerByteCount..<file.count {
            var altered = file
            altered[position] ^= 0x01
            try Data(altered).write(to: URL(fileURLWithPath: store.path))
            #expect(
                throws: KeychainError.corruptStore("it does not authenticate under the master password"),
                "byte \(position)"
            ) {
                try reader.secret(for: id)
            }
        }
    }

    @Test func damagedHeadersAreReported() throws {
        let (store, file) = try storeWithOneItem()
        func expectError(_ expected: KeychainError, _ bytes: [UInt8], _ comment: Comment) throws {
            try Data(bytes).write(to: URL(fileURLWithPath: store.path))
            let reader = try KeychainFixture.makeFileStore(path: store.path)
            #expect(throws: expected, comment) { try reader.search(CredentialQuery()) }
        }
        var magic = file
        magic[0] = UInt8(ascii: "X")
        try expectError(.corruptStore("not a SecKeychain file"), magic, "magic")
        var version = file
        version[8] = 2
        try expectError(.corruptStore("unknown format version 2.1"), version, "version")
        var iterations = file
        iterations[10] = 0xFF
        try expectError(.corruptStore("implausible PBKDF2 iteration count \(0xFF09_27C0)"), iterations, "iterations")
        var check = file
        check[40] ^= 0x80
        try expectError(.wrongStorePassword, check, "the password check")
        try expectError(.corruptStore("the file is too short"), Array(file.prefix(80)), "truncated")
        try expectError(
            .corruptStore("it does not authenticate under the master password"),
            Array(file.dropLast()),
            "tag cut short"
        )
    }

    @Test func storeValuesSeeEachOthersWrites() throws {
        let (first, _) = try storeWithOneItem()
        let second = try KeychainFixture.makeFileStore(path: first.path)
        #expect(try second.string(for: id) == "hunter2")
        for round in 0..<5 {
            try first.upsert(id, string: "round \(round)")
            #expect(try second.string(for: id) == "round \(round)")
        }
        try second.delete(id)
        #expect(throws: KeychainError.notFound) { try first.secret(for: id) }
    }

    @Test func concurrentWritersLoseNoUpdate() async throws {
        let path = KeychainFixture.newStorePath()
        let stores = try (0..<4).map { _ in try KeychainFixture.makeFileStore(path: path) }
        let shared = CredentialIdentity.genericPassword(service: "shared", account: "x")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (writer, store) in stores.enumerated() {
                group.addTask {
                    for index in 0..<15 {
                        try store.upsert(
                            .genericPassword(service: "writer-\(writer)", account: "item-\(index)"),
                            string: "\(writer)/\(index)"
                        )
                        try store.upsert(shared, string: "writer \(writer)")
                    }
                }
            }
            try await group.waitForAll()
        }
        let items = try await stores[0].search(CredentialQuery(includeSecrets: true))
        #expect(items.count == 4 * 15 + 1)
        for writer in 0..<4 {
            for index in 0..<15 {
                #expect(
                    try stores[0].string(for: .genericPassword(service: "writer-\(writer)", account: "item-\(index)"))
                        == "\(writer)/\(index)"
                )
            }
        }
        #expect(try ["writer 0", "writer 1", "writer 2", "writer 3"].contains(stores[0].string(for: shared)))
    }

    @Test func tooFewIterationsAreRefused() throws {
        #expect(
            throws: KeychainError.invalidAttribute("PBKDF2 iterations must be between 600000 and 100000000, got 1000")
        ) {
            try EncryptedFileStore(
                path: KeychainFixture.newStorePath(),
                password: KeychainFixture.filePassword,
                iterations: 1000
            )
        }
    }

    @Test func readingAMissingFileFindsNothingAndCreatesNothing() throws {
        let store = try KeychainFixture.makeFileStore()
        #expect(throws: KeychainError.notFound) { try store.secret(for: id) }
        #expect(try store.search(CredentialQuery()).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: store.path))
    }
}

extension [UInt8] {
    func containsSubsequence(_ needle: [UInt8]) -> Bool {
        guard needle.count <= count else { return false }
        return (0...(count - needle.count)).contains { Array(self[$0..<$0 + needle.count]) == needle }
    }
}
