import SecCrypto

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What an output path names once its symbolic links are followed, as `open(2)` would follow them:
/// a file to replace atomically (a link keeps being a link and its target gets the output), or
/// something to write in place.
enum OutputTarget: Equatable {
    /// A regular file, or a name to create (a dangling link names it): the path to rename over.
    case file(String)
    /// A device, FIFO, socket or directory, or a descriptor reached through `/proc` (`/dev/stdout`,
    /// `/dev/fd/N`): opened and written where it is, never renamed over.
    case inPlace

    /// The kernel's limit on links followed in one lookup (MAXSYMLINKS).
    private static let maximumLinks = 40

    /// Follows `path`'s chain of symbolic links to its end.
    static func resolve(_ path: String) throws(FileError) -> OutputTarget {
        var current = path
        for _ in 0...maximumLinks {
            var info = stat()
            guard lstat(current, &info) == 0 else {
                guard errno == ENOENT else { throw FileError(path: path, code: errno) }
                return .file(current)
            }
            switch info.st_mode & S_IFMT {
            case S_IFREG: return .file(current)
            case S_IFLNK: break
            default: return .inPlace
            }
            let folder = PathNames.folder(containing: current)
            if isOnProcfs(folder) { return .inPlace }
            try refuseForeignLinkInSharedFolder(current, link: info, folder: folder, naming: path)
            let target = try readLink(current, naming: path)
            current = target.hasPrefix("/") ? target : "\(folder)/\(target)"
        }
        throw FileError(path: path, code: ELOOP)
    }

    /// True for a folder of `/proc`, whose links (`/proc/self/fd/N`, which `/dev/stdout` and
    /// `/dev/fd` lead to) stand for open descriptors rather than names. Every folder of a procfs
    /// mount has its device number (statfs is not in Swift's Glibc module).
    private static func isOnProcfs(_ folder: String) -> Bool {
        var info = stat()
        var proc = stat()
        return stat(folder, &info) == 0 && stat("/proc", &proc) == 0 && info.st_dev == proc.st_dev
    }

    /// The rule of the kernel's `fs.protected_symlinks`, which `open(2)` applies and a rename would
    /// bypass: a link in a sticky world-writable folder (`/tmp`) is followed only when it belongs to
    /// the caller or to the folder's owner. Without it, a link planted in `/tmp` could make root
    /// replace any file of the system.
    private static func refuseForeignLinkInSharedFolder(
        _ current: String,
        link: stat,
        folder: String,
        naming path: String
    ) throws(FileError) {
        var folderInfo = stat()
        guard stat(folder, &folderInfo) == 0 else { return }
        let shared = folderInfo.st_mode & S_ISVTX != 0 && folderInfo.st_mode & S_IWOTH != 0
        guard shared, link.st_uid != geteuid(), link.st_uid != folderInfo.st_uid else { return }
        throw FileError(
            path: path,
            reason: "\(current) is another user's symbolic link in a shared folder; not followed"
        )
    }

    private static func readLink(_ link: String, naming path: String) throws(FileError) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(link, &buffer, buffer.count - 1)
        guard count >= 0 else { throw FileError(path: path, code: errno) }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
