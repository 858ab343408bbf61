import Foundation

/// A vector file that is missing, malformed or empty. Thrown, so the test using it fails.
public struct VectorFileError: Error, CustomStringConvertible {
    public let description: String

    public init(description: String) {
        self.description = description
    }
}

/// Loads files from `TestVectors/` at the package root (see `TestVectors/README.md`).
public enum TestVectors {
    /// `TestVectors/`, found by walking up from this source file to the directory holding `Package.swift`.
    public static let directory: URL? = {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                return directory.appendingPathComponent("TestVectors")
            }
            directory.deleteLastPathComponent()
        }
        return nil
    }()

    /// The bytes of `TestVectors/<path>`.
    public static func data(_ path: String) throws -> Data {
        guard let directory else { throw VectorFileError(description: "no Package.swift above \(#filePath)") }
        let url = directory.appendingPathComponent(path)
        do {
            return try Data(contentsOf: url)
        } catch {
            throw VectorFileError(description: "cannot read test vector file \(url.path): \(error)")
        }
    }
}
