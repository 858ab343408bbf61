import Foundation

/// Executables of this package that the build puts next to the test bundle.
public enum BuiltExecutable {
    /// The path of executable `name` in the folder of the running test bundle or one of its
    /// parents, nil when it was not built.
    public static func path(_ name: String) -> String? {
        var directory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory.deleteLastPathComponent()
        }
        return nil
    }

    /// The path of executable `name`; throws when it was not built, so that a test of it fails
    /// rather than being skipped (`swift build --build-tests` builds every executable).
    public static func require(_ name: String) throws -> String {
        guard let path = path(name) else {
            throw ProcessRunnerError(description: "\(name) was not built next to the test bundle")
        }
        return path
    }
}
