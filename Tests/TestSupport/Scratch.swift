import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A folder for the files of a test: the tests' one way to get a place on disk. `withScratch` makes
/// one for a test and removes it afterwards; `Scratch.untilExit` makes one that lives as long as the
/// test process (a shared fixture, a built helper, a suite's store files). All of them sit in one
/// folder of the test process, `SecKitTests-PID` in the temporary directory, removed when it exits.
public struct Scratch: Sendable {
    public let path: String

    public init(path: String) { self.path = path }

    /// The full path of `name` inside the folder.
    public func path(_ name: String) -> String { path + "/" + name }

    /// A name inside the folder that nothing has used: `prefix-UUID` plus `suffix`.
    public func uniquePath(_ prefix: String, suffix: String = "") -> String {
        path("\(prefix)-\(UUID().uuidString)\(suffix)")
    }

    public var url: URL { URL(fileURLWithPath: path) }

    /// Writes `bytes` to `name` inside the folder and returns the full path.
    @discardableResult
    public func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let full = path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: full))
        return full
    }

    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String {
        try write(name, Array(text.utf8))
    }

    public func read(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path(name))))
    }

    /// A new, empty folder that lives until the test process exits.
    public static func untilExit(_ purpose: String) throws -> Scratch {
        try make(purpose)
    }

    /// A new, empty folder inside the test process's folder.
    static func make(_ purpose: String) throws -> Scratch {
        let folder = processFolder.uniquePath(purpose)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        return Scratch(path: folder)
    }

    /// `SecKitTests-PID` in the temporary directory, made once and removed when the process exits.
    fileprivate static let processFolder: Scratch = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("SecKitTests-\(getpid())").path
        try? FileManager.default.removeItem(atPath: folder)  // a crashed run with the same pid left it
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        } catch {
            fatalError("cannot make the tests' folder \(folder): \(error)")
        }
        atexit { try? FileManager.default.removeItem(atPath: Scratch.processFolder.path) }
        return Scratch(path: folder)
    }()
}

/// Runs `body` with a new folder and removes the folder afterwards.
@discardableResult
public func withScratch<R>(_ body: (Scratch) throws -> R) throws -> R {
    let scratch = try Scratch.make("scratch")
    defer { try? FileManager.default.removeItem(atPath: scratch.path) }
    return try body(scratch)
}

/// Writes `bytes` to a new file, calls `body` with its path, then removes it (a `withScratch` of one file).
public func withTemporaryFile<R>(containing bytes: [UInt8], _ body: (String) throws -> R) throws -> R {
    try withScratch { try body(try $0.write("file", bytes)) }
}

/// A path that does not exist (in a folder that does).
public func missingFilePath() -> String {
    Scratch.processFolder.uniquePath("missing")
}
