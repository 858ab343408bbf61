import SecCrypto

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A file's device and inode numbers: which file a path led to when it was looked at, whatever the
/// path leads to later.
public struct FileIdentity: Sendable, Hashable {
    /// The device the file is on (`st_dev`).
    public var device: UInt64
    /// The file's inode number on that device (`st_ino`).
    public var inode: UInt64

    /// An identity of these numbers.
    ///
    /// - Parameters:
    ///   - device: the device the file is on (`st_dev`).
    ///   - inode: the file's inode number on that device (`st_ino`).
    public init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }

    /// The identity in what `stat`, `lstat`, `fstat` or `fstatat` filled in.
    ///
    /// - Parameter status: the status the call filled in; its `st_dev` and `st_ino` are read.
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
        /// A regular file, opened to be read.
        case regularFile
        /// A directory, opened with `O_DIRECTORY` to be listed.
        case directory
    }

    /// The path's bytes (no NUL among them).
    public let path: [UInt8]
    /// What the walk found at the path; the open file must be of this kind.
    public let kind: Kind
    /// The file the walk found; nil when it could not look at it (then only `kind` is checked).
    public let identity: FileIdentity?
    /// Whether the walk follows symbolic links: then `identity` is the link's target, and a link at
    /// the path is opened through. Otherwise a link at the path is refused.
    public let followsSymlinks: Bool

    /// An entry as the walk found it.
    ///
    /// - Parameters:
    ///   - path: the path's bytes, without NUL.
    ///   - kind: what the walk found at the path.
    ///   - identity: the device and inode the walk found (through a link when following links); nil
    ///     when it could not look, and then only `kind` is checked.
    ///   - followsSymlinks: whether a symbolic link at the path is opened through (true) or refused.
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
    /// and, when `identity` is known, that very file (`fstat`'s device and inode).
    ///
    /// - Returns: the open descriptor, read-only and close-on-exec, of the file or directory the walk
    ///   found; the caller closes it.
    /// - Throws: ``FileError`` naming the path, without `code`, when something else is there now:
    ///   `no longer the regular file the walk listed: now a FIFO` (or `the directory`; now a
    ///   symbolic link, a socket, a device, …), or `…: now another regular file` (another device and
    ///   inode); with the `errno` of `open` or `fstat` otherwise (a file removed since: `No such file
    ///   or directory`; no permission). No descriptor stays open when it throws.
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
