import SecKit

#if canImport(Glibc)
import Glibc
#endif

/// The inputs of `hash --recursive`: each argument that names a directory (through a symbolic link
/// too) is replaced by the regular files below it; any other argument stays what it is without
/// `--recursive` (`-` is standard input, a missing path fails when it is read).
///
/// The files below a directory come in the order of `find DIR -type f | LC_ALL=C sort`: byte order
/// of the whole paths. The walk gets it one listing at a time by sorting each directory's entries
/// by the bytes of their names, with a `/` after a subdirectory's name, so that `a-b` and `a.c` come
/// before the files in `a/`, and `a0` after them.
///
/// Symbolic links inside a directory are skipped, as `find -type f` skips them, unless
/// `followsSymlinks`: then a link to a file is read (named by the link's path), a link to a
/// directory is walked, and a dangling link is a file that cannot be read. A directory met again
/// below itself is reported, not walked again. FIFOs, sockets and devices inside a directory are
/// skipped. A directory that cannot be listed is a failure in its place. Paths are bytes throughout:
/// names need not be UTF-8.
///
/// Each file and directory below an argument is opened as what the listing found (`WalkedEntry`):
/// an entry replaced since (by a FIFO, a device, a symbolic link, another file) is a failure in its
/// place, never read or walked.
struct FileTreeWalk: Sequence, IteratorProtocol {
    private var arguments: IndexingIterator<[[UInt8]]>
    private let followsSymlinks: Bool
    /// The directories being walked, the innermost last.
    private var listings: [Listing] = []

    private struct Listing {
        /// The directory's path, as the paths below it start.
        let path: [UInt8]
        /// Device and inode: the directory's identity, whatever path leads to it.
        let identity: (dev_t, ino_t)
        /// The entries to walk, in order, and how many were walked.
        let entries: [Entry]
        var walked = 0
    }

    private struct Entry {
        let name: [UInt8]
        let isDirectory: Bool
        /// The file the listing found; nil when it could not look at it.
        let identity: FileIdentity?
        /// The name, with a `/` after it for a directory: sorted by it, the entries come in the order
        /// of the sorted full paths below them.
        let sortKey: [UInt8]

        init(name: [UInt8], isDirectory: Bool, identity: FileIdentity?) {
            self.name = name
            self.isDirectory = isDirectory
            self.identity = identity
            sortKey = isDirectory ? name + [UInt8(ascii: "/")] : name
        }
    }

    init(arguments: [[UInt8]], followsSymlinks: Bool) {
        self.arguments = arguments.makeIterator()
        self.followsSymlinks = followsSymlinks
    }

    mutating func next() -> Result<FileInput, FileError>? {
        while true {
            guard let innermost = listings.indices.last else {
                guard let argument = arguments.next() else { return nil }
                guard argument != Array("-".utf8), let directory = Self.directory(argument) else {
                    return .success(InputFiles.input(for: argument))
                }
                if let failure = enter(directory) { return .failure(failure) }
                continue
            }
            let listing = listings[innermost]
            guard listing.walked < listing.entries.count else {
                listings.removeLast()
                continue
            }
            let entry = listing.entries[listing.walked]
            listings[innermost].walked += 1
            let separator: [UInt8] = listing.path.last == UInt8(ascii: "/") ? [] : [UInt8(ascii: "/")]
            let walked = WalkedEntry(
                path: listing.path + separator + entry.name,
                kind: entry.isDirectory ? .directory : .regularFile,
                identity: entry.identity,
                followsSymlinks: followsSymlinks
            )
            guard entry.isDirectory else { return .success(.walkedFile(walked)) }
            if let failure = enter(walked) { return .failure(failure) }
        }
    }

    /// The directory an argument names, through symbolic links; nil when it names none.
    private static func directory(_ path: [UInt8]) -> WalkedEntry? {
        var status = stat()
        guard withCString(path, { stat($0, &status) }) == 0, status.st_mode & S_IFMT == S_IFDIR else { return nil }
        return WalkedEntry(path: path, kind: .directory, identity: FileIdentity(status), followsSymlinks: true)
    }

    /// Calls `body` with `path` as a C string.
    private static func withCString<R>(_ path: [UInt8], _ body: (UnsafePointer<CChar>) -> R) -> R {
        (path.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    /// Lists the directory `walked` found and makes it the innermost one walked; the failure, when
    /// it is no longer that directory, cannot be listed or is already being walked.
    private mutating func enter(_ walked: WalkedEntry) -> FileError? {
        let path = walked.path
        let opened: Int32
        do {
            opened = try walked.open()
        } catch {
            return error
        }
        guard let directory = fdopendir(opened) else {
            let failure = Self.ioError(path)
            close(opened)
            return failure
        }
        defer { closedir(directory) }
        let descriptor = dirfd(directory)
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return Self.ioError(path) }
        let identity = (status.st_dev, status.st_ino)
        if let outer = listings.first(where: { $0.identity == identity }) {
            return FileError(
                path: String(decoding: path, as: UTF8.self),
                reason:
                    "file system loop: the same directory as \(String(decoding: outer.path, as: UTF8.self)), not walked again"
            )
        }
        var entries: [Entry] = []
        while true {
            errno = 0
            guard let record = readdir(directory) else {
                if errno != 0 { return Self.ioError(path) }
                break
            }
            let entry = withUnsafeBytes(of: record.pointee.d_name) { bytes in
                bytes.withMemoryRebound(to: CChar.self) { self.entry(named: $0.baseAddress!, in: descriptor) }
            }
            if let entry { entries.append(entry) }
        }
        entries.sort { $0.sortKey.lexicographicallyPrecedes($1.sortKey) }
        listings.append(Listing(path: path, identity: identity, entries: entries))
        return nil
    }

    /// The entry `name` of the directory open as `descriptor`; nil for `.`, `..` and what the walk skips.
    private func entry(named name: UnsafePointer<CChar>, in descriptor: Int32) -> Entry? {
        guard strcmp(name, ".") != 0, strcmp(name, "..") != 0 else { return nil }
        let bytes = Array(UnsafeRawBufferPointer(start: name, count: strlen(name)))
        var status = stat()
        // An entry that cannot be looked at (gone since it was listed) is kept, so that reading it
        // reports why in its place.
        guard fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else {
            return Entry(name: bytes, isDirectory: false, identity: nil)
        }
        if status.st_mode & S_IFMT == S_IFLNK {
            guard followsSymlinks else { return nil }
            // A dangling link is kept as a file: reading it reports that it leads nowhere.
            guard fstatat(descriptor, name, &status, 0) == 0 else {
                return Entry(name: bytes, isDirectory: false, identity: nil)
            }
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return Entry(name: bytes, isDirectory: false, identity: FileIdentity(status))
        case S_IFDIR: return Entry(name: bytes, isDirectory: true, identity: FileIdentity(status))
        default: return nil
        }
    }

    private static func ioError(_ path: [UInt8]) -> FileError {
        FileError(path: String(decoding: path, as: UTF8.self), code: errno)
    }
}
