import SecIO

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Folders SecKeychain keeps its files in (the file store's data folder, the writer lock's
/// fallback folder), made on first use the way the XDG base-directory spec asks: every missing
/// folder of the path is created with mode 0700.
enum PrivateDirectory {
    /// Creates `path` and its missing parents with mode 0700; folders that exist are left as they are.
    static func create(_ path: String) throws(KeychainError) {
        var info = stat()
        if stat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else { throw .io(path: path, reason: "not a directory") }
            return
        }
        guard errno == ENOENT else { throw .io(path: path, reason: String(cString: strerror(errno))) }
        let parent = PathNames.folder(containing: path)
        if parent != path && parent != "." && parent != "/" { try create(parent) }
        guard mkdir(path, 0o700) == 0 || errno == EEXIST else {
            throw .io(path: path, reason: String(cString: strerror(errno)))
        }
    }
}
