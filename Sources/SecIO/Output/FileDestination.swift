import SecCrypto

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Output to a path given by the user (`--out FILE`), as `openssl -out` writes it, but atomically
/// where a file can be replaced.
public enum FileDestination {
    /// The sink for `path`: an `AtomicFileOutput` when `path` is a regular file, does not exist yet, or
    /// is a symbolic link (chain) to one of those (the link stays and its target is replaced); a
    /// `DescriptorOutput` written in place for a device or FIFO, or for a descriptor named
    /// through `/proc` (`/dev/stdout`, `/dev/fd/N`). `permissions` apply to a file replaced or created.
    ///
    /// - Parameters:
    ///   - path: the path as the user gave it; errors name it so.
    ///   - permissions: the mode of the file replaced or created (0o600 for secrets); nil (the
    ///     default) keeps a replaced file's mode and, where the caller may give it, its owner, and
    ///     gives a new file 0o666 less the umask. Unused for what is written in place.
    /// - Returns: an ``AtomicFileOutput`` (nothing replaced before its `finish()`) or a
    ///   ``DescriptorOutput`` open on the device, FIFO or descriptor.
    /// - Throws: ``FileError`` naming `path`: without `code` for another user's symbolic link in a
    ///   sticky world-writable folder (`… is another user's symbolic link in a shared folder; not
    ///   followed`); with the `errno` of `lstat` or `readlink` when the links cannot be followed (no
    ///   permission, `Not a directory`, `Too many levels of symbolic links` past 40 links), of
    ///   `mkstemp` when the temporary file cannot be created beside the file (a missing folder, no
    ///   permission, a read-only file system), or of `open` when what is written in place cannot be
    ///   opened (`Is a directory`, no permission, `No such device or address` for a socket).
    public static func open(_ path: String, permissions: mode_t? = nil) throws(FileError) -> any ByteSink {
        switch try OutputTarget.resolve(path) {
        case .file(let target): try AtomicFileOutput(path: path, replacing: target, permissions: permissions)
        case .inPlace: try DescriptorOutput(openingForWriting: path)
        }
    }
}
