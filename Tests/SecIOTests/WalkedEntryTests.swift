import Foundation
import SecCrypto
import SecIO
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `WalkedEntry.open()` with the record a walk made before the entry was swapped: the swap is done
/// between the record and the open, so the race of a directory walk is played out deterministically.
/// Each swap is a `rename` over the path, as an attacker writing to the directory would do it.
@Suite("WalkedEntry: a walked file or directory swapped before it is opened")
struct WalkedEntryTests {
    /// A directory with `tree/file` (what the walk found), `outside` (a file outside the tree) and
    /// `tree/dir` (a directory the walk found).
    struct Tree {
        let root: String
        var file: String { root + "/tree/file" }
        var outside: String { root + "/outside" }
        var directory: String { root + "/tree/dir" }
        let content = Array("what the walk found\n".utf8)

        /// The tree, in `scratch`.
        init(in scratch: Scratch) throws {
            root = scratch.path
            try FileManager.default.createDirectory(atPath: root + "/tree/dir", withIntermediateDirectories: true)
            try Data(content).write(to: URL(fileURLWithPath: file))
            try Data("outside the tree\n".utf8).write(to: URL(fileURLWithPath: outside))
        }

        /// What a walk records of `path` (following links when `following`).
        func identity(_ path: String, following: Bool = false) throws -> FileIdentity {
            var status = stat()
            let result = following ? stat(path, &status) : lstat(path, &status)
            try #require(result == 0, "stat \(path): \(String(cString: strerror(errno)))")
            return FileIdentity(status)
        }

        /// Puts `make`'s result (made at a temporary name) in `path`'s place with one `rename`.
        func swap(_ path: String, _ make: (String) throws -> Void) throws {
            let temporary = root + "/swap-\(UUID().uuidString)"
            try make(temporary)
            try #require(rename(temporary, path) == 0, "rename: \(String(cString: strerror(errno)))")
        }
    }

    /// The three things the issue put in a walked file's place, and a plain other file.
    enum Replacement: String, CaseIterable, CustomTestStringConvertible {
        case fifo, linkToDevZero, linkOutside, otherFile

        var testDescription: String { rawValue }

        func make(at path: String, in tree: Tree) throws {
            switch self {
            case .fifo: try #require(mkfifo(path, 0o600) == 0)
            case .linkToDevZero:
                try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/zero")
            case .linkOutside:
                try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: tree.outside)
            case .otherFile: try Data(tree.content).write(to: URL(fileURLWithPath: path))
            }
        }

        /// What `open()` reports it as, when the walk does or does not follow links.
        func reported(following: Bool) -> String {
            switch (self, following) {
            case (.fifo, _): "now a FIFO"
            case (.linkToDevZero, false), (.linkOutside, false): "now a symbolic link"
            case (.linkToDevZero, true): "now a character device"
            case (.linkOutside, true), (.otherFile, _): "now another regular file"
            }
        }
    }

    /// Runs `body` on a thread of its own and returns its result, or nil when it has not returned
    /// within `seconds`: the unfixed open blocks on a FIFO and reads `/dev/zero` forever, which must
    /// fail the test, not hang it. A writer then opens `fifo`, so that an open blocked there returns.
    private func finishing<R: Sendable>(
        within seconds: Int = 10,
        unblocking fifo: String,
        _ body: @escaping @Sendable () -> R
    ) -> R? {
        let done = DispatchSemaphore(value: 0)
        let outcome = Outcome<R>()
        Thread.detachNewThread {
            outcome.value = body()
            done.signal()
        }
        if done.wait(timeout: .now() + .seconds(seconds * ProcessRunner.timeoutScale)) == .timedOut {
            close(open(fifo, O_WRONLY | O_NONBLOCK))
            return nil
        }
        return outcome.value
    }

    private static func digest(of entry: WalkedEntry) -> Result<[UInt8], FileError> {
        Result { () throws(FileError) in try SHA256.hash(contentsOf: .walkedFile(entry)).bytes }
    }

    @Test("the file the walk found is read, by the record of its device and inode, with or without following links")
    func unchangedFileIsRead() throws {
        try withScratch { dir in
            let tree = try Tree(in: dir)
            for following in [false, true] {
                let entry = WalkedEntry(
                    path: Array(tree.file.utf8),
                    kind: .regularFile,
                    identity: try tree.identity(tree.file),
                    followsSymlinks: following
                )
                #expect(try Self.digest(of: entry).get() == SHA256.hash(data: tree.content).bytes)
            }
        }
    }

    @Test(
        "a walked file replaced before its open is reported as what it has become, at once, never read",
        arguments: Replacement.allCases,
        [false, true]
    )
    func replacedFile(_ replacement: Replacement, following: Bool) throws {
        try withScratch { dir in
            let tree = try Tree(in: dir)
            let record = try tree.identity(tree.file)
            try tree.swap(tree.file) { try replacement.make(at: $0, in: tree) }
            // Without a record only the kind is checked: another regular file, or a link followed to one,
            // is then what the entry is.
            let acceptedWithoutRecord = replacement == .otherFile || (replacement == .linkOutside && following)
            for identity in acceptedWithoutRecord ? [record] : [record, nil] {
                let entry = WalkedEntry(
                    path: Array(tree.file.utf8),
                    kind: .regularFile,
                    identity: identity,
                    followsSymlinks: following
                )
                let outcome = finishing(unblocking: tree.file) { Self.digest(of: entry) }
                let result = try #require(outcome, "the open or the read did not return: \(replacement)")
                let reason = "no longer the regular file the walk listed: \(replacement.reported(following: following))"
                let known = identity == nil ? "unknown" : "recorded"
                #expect(result == .failure(FileError(path: tree.file, reason: reason)), "identity \(known)")
            }
        }
    }

    @Test("a file removed since the listing is reported with the open's own error")
    func removedFile() throws {
        try withScratch { dir in
            let tree = try Tree(in: dir)
            let entry = WalkedEntry(
                path: Array(tree.file.utf8),
                kind: .regularFile,
                identity: try tree.identity(tree.file),
                followsSymlinks: false
            )
            try FileManager.default.removeItem(atPath: tree.file)
            #expect(Self.digest(of: entry) == .failure(FileError(path: tree.file, code: ENOENT)))
        }
    }

    @Test("a walked directory replaced by a link, a FIFO or another directory is not opened as a directory")
    func replacedDirectory() throws {
        try withScratch { dir in
            let tree = try Tree(in: dir)
            let record = try tree.identity(tree.directory)
            func opened(following: Bool) -> Result<Int32, FileError> {
                let entry = WalkedEntry(
                    path: Array(tree.directory.utf8),
                    kind: .directory,
                    identity: record,
                    followsSymlinks: following
                )
                return Result { () throws(FileError) in try entry.open() }
            }
            let descriptor = try opened(following: false).get()
            #expect(try tree.identity("/proc/self/fd/\(descriptor)", following: true) == record)
            close(descriptor)

            func expectReported(_ reason: String, following: Bool) {
                let expected = "no longer the directory the walk listed: \(reason)"
                #expect(opened(following: following) == .failure(FileError(path: tree.directory, reason: expected)))
            }
            // A directory cannot be renamed over: it is moved aside first, as an attacker would move it.
            try #require(rename(tree.directory, tree.directory + "-aside") == 0)
            try tree.swap(tree.directory) {
                try FileManager.default.createSymbolicLink(atPath: $0, withDestinationPath: dir.path)
            }
            expectReported("now a symbolic link", following: false)
            expectReported("now another directory", following: true)
            try FileManager.default.removeItem(atPath: tree.directory)
            try tree.swap(tree.directory) { try #require(mkfifo($0, 0o600) == 0) }
            expectReported("now a FIFO", following: false)
            expectReported("now a FIFO", following: true)
        }
    }
}

/// A result written by a thread before it signals a semaphore, and read only after the signal.
private final class Outcome<R>: @unchecked Sendable {
    var value: R?
}
