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
}
