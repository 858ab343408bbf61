/// Splitting file paths the way the kernel reads them, for the modules that write files.
package enum PathNames {
    /// The folder holding `path` (`.` for a bare name, `/` for a file at the root).
    package static func folder(containing path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
