import Foundation

/// Writes `bytes` to a new file in the temporary directory, calls `body` with its path, then deletes it.
public func withTemporaryFile<R>(containing bytes: [UInt8], _ body: (String) throws -> R) throws -> R {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("SecKitTests-\(UUID().uuidString)")
    try Data(bytes).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    return try body(url.path)
}

/// A path in the temporary directory that does not exist.
public func missingFilePath() -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("SecKitTests-missing-\(UUID().uuidString)").path
}
