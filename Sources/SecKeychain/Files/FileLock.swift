import SecIO

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An advisory exclusive lock (`flock`) on a lock file, shared by every process of the user that
/// writes the same store. Waiting for it respects the operation's deadline.
struct FileLock: Sendable {
    let path: String

    /// Runs `body` holding the lock; throws `timeout` when it cannot be taken before `deadline`.
    /// The lock file's missing folders are created first (mode 0700).
    func withExclusiveLock<R>(
        until deadline: OperationDeadline,
        _ body: () throws(KeychainError) -> R
    ) throws(KeychainError) -> R {
        try PrivateDirectory.create(PathNames.folder(containing: path))
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw .io(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }  // closing releases the lock
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_uid == getuid() else {
            throw .io(path: path, reason: "the lock file belongs to another user")
        }
        var pause = Duration.milliseconds(1)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                throw .io(path: path, reason: String(cString: strerror(errno)))
            }
            guard !deadline.hasPassed else { throw deadline.error }
            let nap = min(pause, max(deadline.remaining, .microseconds(100)))
            var request = timespec(
                tv_sec: Int(nap.components.seconds),
                tv_nsec: Int(nap.components.attoseconds / 1_000_000_000)
            )
            nanosleep(&request, nil)
            pause = min(pause * 2, .milliseconds(20))
        }
        return try body()
    }
}
