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
    /// `DescriptorOutput` written in place for a device, FIFO or socket, or for a descriptor named
    /// through `/proc` (`/dev/stdout`, `/dev/fd/N`). `permissions` apply to a file replaced or created.
    public static func open(_ path: String, permissions: mode_t? = nil) throws(FileError) -> any ByteSink {
        switch try OutputTarget.resolve(path) {
        case .file(let target): try AtomicFileOutput(path: path, replacing: target, permissions: permissions)
        case .inPlace: try DescriptorOutput(openingForWriting: path)
        }
    }
}
