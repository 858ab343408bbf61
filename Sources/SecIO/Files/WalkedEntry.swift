import SecCrypto

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A file's device and inode numbers: which file a path led to when it was looked at, whatever the
/// path leads to later.
public struct FileIdentity: Sendable, Hashable {
    public var device: UInt64
    public var inode: UInt64

    public init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }

    /// The identity in what `stat`, `lstat`, `fstat` or `fstatat` filled in.
    public init(_ status: stat) {
        self.init(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }
}

/// An entry that a directory walk listed: its path, what it was (a regular file or a directory)
/// and, when the walk could look at it, which file it was.
///
/// Between the listing and the open, anyone who may write to the directory can put something else
/// at the path: a FIFO (an `open` that never returns), a symbolic link to `/dev/zero` (a read that
/// never ends) or to a file outside the tree (read under the inside name). `open()` opens only what
/// the walk found, and reports anything else as what it has become.
public struct WalkedEntry: Sendable, Hashable {
    /// What the walk found at the path.
    public enum Kind: Sendable, Hashable {
        case regularFile
        case directory
    }

    /// The path's bytes (no NUL among them).
    public let path: [UInt8]
    public let kind: Kind
    /// The file the walk found; nil when it could not look at it (then only `kind` is checked).
    public let identity: FileIdentity?
    /// Whether the walk follows symbolic links: then `identity` is the link's target, and a link at
    /// the path is opened through. Otherwise a link at the path is refused.
    public let followsSymlinks: Bool

    public init(path: [UInt8], kind: Kind, identity: FileIdentity?, followsSymlinks: Bool) {
        self.path = path
        self.kind = kind
        self.identity = identity
        self.followsSymlinks = followsSymlinks
    }

    /// The path as text for messages (U+FFFD for bytes that are not UTF-8).
    public var name: String { String(decoding: path, as: UTF8.self) }

    /// Opens the entry for reading, if it is still what the walk found, and returns the descriptor
    /// (close-on-exec; the caller closes it).
    ///
    /// The open never blocks (`O_NONBLOCK`: a FIFO put in the entry's place returns at once; a
    /// regular file reads as without it), never makes a terminal the controlling one, and follows no
    /// symbolic link at the path unless `followsSymlinks` (`O_NOFOLLOW`); a directory is opened with
    /// `O_DIRECTORY`, so nothing else is opened in its place. The open file must then be of `kind`
    /// and, when `identity` is known, that very file (`fstat`'s device and inode). Throws
    /// ``FileError`` naming the path: `no longer the regular file the walk listed: now a FIFO`
    /// (a symbolic link, another file, …), or the open's own error (a file removed since).
    public func open() throws(FileError) -> Int32 {
        let flags =
            O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | (followsSymlinks ? 0 : O_NOFOLLOW)
            | (kind == .directory ? O_DIRECTORY : 0)
        let descriptor = withCString { Glibc.open($0, flags) }
        guard descriptor >= 0 else {
            let openError = errno
            throw replacement(now: withCString { lookAt($0) }) ?? FileError(path: name, code: openError)
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let statError = errno
            close(descriptor)
            throw FileError(path: name, code: statError)
        }
        if let replaced = replacement(now: status) {
            close(descriptor)
            throw replaced
        }
        return descriptor
    }

    /// What is at the path now, looked at as the open looked (through a link only when following).
    private func lookAt(_ path: UnsafePointer<CChar>) -> stat? {
        var status = stat()
        let found = followsSymlinks ? stat(path, &status) : lstat(path, &status)
        return found == 0 ? status : nil
    }

    /// The error for what is at the path now, when that is not what the walk found.
    private func replacement(now status: stat?) -> FileError? {
        guard let status else { return nil }
        let found = status.st_mode & S_IFMT
        let expected = kind == .directory ? S_IFDIR : S_IFREG
        let listed = kind == .directory ? "directory" : "regular file"
        if found != expected {
            return failure("no longer the \(listed) the walk listed: now \(Self.describe(found))")
        }
        if let identity, identity != FileIdentity(status) {
            return failure("no longer the \(listed) the walk listed: now another \(listed)")
        }
        return nil
    }

    private static func describe(_ type: mode_t) -> String {
        switch type {
        case S_IFREG: "a regular file"
        case S_IFDIR: "a directory"
        case S_IFLNK: "a symbolic link"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        default: "a file of an unknown type"
        }
    }

    private func failure(_ reason: String) -> FileError {
        FileError(path: name, reason: reason)
    }

    private func withCString<R>(_ body: (UnsafePointer<CChar>) -> R) -> R {
        (path.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
