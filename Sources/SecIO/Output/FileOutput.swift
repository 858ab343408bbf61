import SecCrypto

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Writes to a file atomically: the bytes go to a temporary file in the same folder, which
/// replaces the file only when `finish()` succeeds (after `fsync` of the file and of its folder).
/// Until then, and if the writer is released without finishing (an error) or SIGINT, SIGTERM,
/// SIGHUP or SIGPIPE (at their default disposition) stops the process, an existing file is
/// untouched and the temporary file is removed. A symbolic link at `path` is followed, as `open(2)`
/// follows it: the link stays and the file it names is replaced (or created, for a dangling link).
/// A new file follows the umask and a replaced file keeps its mode (and, where the caller may give
/// it, its owner), unless `permissions` are given (0o600 for secrets).
public final class AtomicFileOutput: ByteSink {
    private let path: String
    private let target: String
    private let temporaryPath: String
    private var descriptor: Int32
    private var committed = false
    /// Removes the temporary file if a signal stops the process before it is renamed.
    private var cleanup: SignalCleanup.Registration?

    /// Creates the temporary file next to the file `path` names, which must be a regular file or
    /// not exist yet; `FileDestination.open` also takes devices and descriptors.
    ///
    /// - Parameters:
    ///   - path: the file to replace or create; a symbolic link is followed and stays. Errors name it.
    ///   - permissions: the file's mode once replaced or created (0o600 for secrets); nil (the
    ///     default) keeps a replaced file's mode and, where the caller may give it, its owner, and
    ///     gives a new file 0o666 less the umask.
    /// - Throws: ``FileError`` naming `path`: without `code` when it names no regular file
    ///   (`not a regular file; it cannot be replaced atomically`: a directory, device, FIFO or
    ///   socket, or a descriptor through `/proc`) or another user's symbolic link in a sticky
    ///   world-writable folder; with the `errno` of `lstat` or `readlink` when its links cannot be
    ///   followed (no permission, `Too many levels of symbolic links` past 40 links), or of `mkstemp`
    ///   when the temporary file cannot be created beside the file (a missing folder, no permission,
    ///   a read-only file system).
    public convenience init(path: String, permissions: mode_t? = nil) throws(FileError) {
        guard case .file(let target) = try OutputTarget.resolve(path) else {
            throw FileError(path: path, reason: "not a regular file; it cannot be replaced atomically")
        }
        try self.init(path: path, replacing: target, permissions: permissions)
    }

    /// `target` is `path` with its links followed; errors name `path`, as the user gave it.
    init(path: String, replacing target: String, permissions: mode_t?) throws(FileError) {
        self.path = path
        self.target = target
        var template = Array("\(target).seckit-XXXXXX".utf8CString)
        let (fd, temporaryPath, cleanup) = try SignalCleanup.withSignalsBlocked { () throws(FileError) in
            let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard fd >= 0 else { throw FileError(path: path, code: errno) }
            let name = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return (fd, name, SignalCleanup.register(name))
        }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        descriptor = fd
        self.temporaryPath = temporaryPath
        self.cleanup = cleanup
        var existing = stat()
        if let permissions {
            fchmod(fd, permissions)
        } else if stat(target, &existing) == 0 {
            // Keep the owner (root replacing another user's file) and mode of the file being
            // replaced; chown before chmod, which it would clear set-id bits after.
            _ = fchown(fd, existing.st_uid, existing.st_gid)
            fchmod(fd, existing.st_mode & 0o7777)
        } else {
            let mask = umask(0)
            umask(mask)
            fchmod(fd, 0o666 & ~mask)
        }
    }

    deinit {
        if !committed {
            close(descriptor)
            unlink(temporaryPath)
            settle()
        }
    }

    /// Appends `bytes` to the temporary file; the file at the path is untouched until `finish()`.
    ///
    /// - Parameter bytes: the bytes, valid only during the call; all of them are written.
    /// - Throws: ``FileError`` naming the path, with the `errno` of `write` (a full disk, an exceeded quota).
    public func write(_ bytes: UnsafeRawBufferPointer) throws(FileError) {
        try writeAll(descriptor, bytes, name: path)
    }

    /// Flushes to disk, renames the temporary file over the target and flushes the target's folder,
    /// so the new name survives a crash too.
    ///
    /// A failed flush of the folder is not reported: the file has been replaced by then.
    ///
    /// - Throws: ``FileError`` naming the path, with the `errno` of `fsync`, `close` or `rename`
    ///   (an I/O error, a full disk); the file at the path is then untouched and the temporary file
    ///   is removed (when `rename` fails, at once; otherwise when the output is released).
    public func finish() throws(FileError) {
        guard fsync(descriptor) == 0 else { throw FileError(path: path, code: errno) }
        guard close(descriptor) == 0 else { throw FileError(path: path, code: errno) }
        descriptor = -1
        guard rename(temporaryPath, target) == 0 else {
            let renameError = errno
            unlink(temporaryPath)
            settle()
            throw FileError(path: path, code: renameError)
        }
        settle()
        let folder = open(PathNames.folder(containing: target), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { return }
        defer { close(folder) }
        _ = fsync(folder)
    }

    /// The temporary file is gone (renamed or removed): nothing left to clean up.
    private func settle() {
        committed = true
        if let cleanup { SignalCleanup.unregister(cleanup) }
        cleanup = nil
    }
}

/// Writes to an open descriptor such as standard output. Nothing can be taken back once written:
/// callers that decrypt should prefer `AtomicFileOutput`, or buffer until authentication succeeds.
public final class DescriptorOutput: ByteSink {
    private let descriptor: Int32
    private let name: String
    private let ownsDescriptor: Bool
    private let cutsAtFinish: Bool

    /// Writes to an already open descriptor, which stays open.
    ///
    /// - Parameters:
    ///   - descriptor: the open descriptor, written from where it stands; it stays the caller's.
    ///   - name: what errors name the output as.
    public init(descriptor: Int32, name: String) {
        self.descriptor = descriptor
        self.name = name
        ownsDescriptor = false
        cutsAtFinish = false
    }

    /// Opens an existing file, device or FIFO for writing in place (no creation). A regular file
    /// (reached through `/dev/fd/N`) is overwritten from its start and cut to the output's length
    /// by `finish()`, as `openssl -out` leaves it, without truncating it before anything was written.
    ///
    /// The open waits, as `open(2)` does, for a FIFO to have a reader.
    ///
    /// - Parameter path: the file, device or FIFO; errors name it.
    /// - Throws: ``FileError`` naming `path`, with the `errno` of `open`: nothing there (`No such
    ///   file or directory`: nothing is created), `Is a directory`, no permission, `No such device or
    ///   address` for a socket.
    public init(openingForWriting path: String) throws(FileError) {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileError(path: path, code: errno) }
        var info = stat()
        descriptor = fd
        name = path
        ownsDescriptor = true
        cutsAtFinish = fstat(fd, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    /// Standard output, named `standard output` in errors.
    ///
    /// - Returns: an output that writes descriptor 1 and leaves it open.
    public static func standardOutput() -> DescriptorOutput {
        DescriptorOutput(descriptor: STDOUT_FILENO, name: "standard output")
    }

    /// Writes `bytes` to the descriptor at once; nothing written can be taken back.
    ///
    /// - Parameter bytes: the bytes, valid only during the call; all of them are written.
    /// - Throws: ``FileError`` naming the output, with the `errno` of `write` (`No space left on
    ///   device` for `/dev/full` or a full disk, `Broken pipe` for a closed pipe when SIGPIPE is
    ///   ignored).
    public func write(_ bytes: UnsafeRawBufferPointer) throws(FileError) {
        try writeAll(descriptor, bytes, name: name)
    }

    /// Ends the output: a regular file opened with ``init(openingForWriting:)`` is cut to the length
    /// written (its old content past that end goes); anything else is left as it is, and open.
    ///
    /// - Throws: ``FileError`` naming the output, with the `errno` of `lseek` or `ftruncate`, when
    ///   the regular file cannot be cut.
    public func finish() throws(FileError) {
        guard cutsAtFinish else { return }
        let end = lseek(descriptor, 0, SEEK_CUR)
        guard end >= 0, ftruncate(descriptor, end) == 0 else {
            throw FileError(path: name, code: errno)
        }
    }
}

private func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, name: String) throws(FileError) {
    var offset = 0
    while offset < bytes.count {
        let written = Glibc.write(descriptor, bytes.baseAddress!.advanced(by: offset), bytes.count - offset)
        if written < 0 {
            if errno == EINTR { continue }
            throw FileError(path: name, code: errno)
        }
        offset += written
    }
}

/// Holds everything written in an unlinked temporary file and passes it on to `next` only when
/// `finish()` is called. Decryption to a stream (standard output) uses it so that no byte of
/// plaintext leaves before authentication and padding have been checked, in constant memory.
public final class SpooledOutput: ByteSink {
    private let next: ByteSink
    private let descriptor: Int32

    /// Creates the spool file in `$TMPDIR` (or `/tmp`); it has no name and vanishes when closed.
    ///
    /// - Parameter next: the sink that gets everything written, and is finished, in `finish()`.
    /// - Throws: ``FileError`` naming the folder, with the `errno` of `mkstemp`, when the spool file
    ///   cannot be created there (a missing folder, no permission, a read-only file system).
    public init(next: ByteSink) throws(FileError) {
        self.next = next
        let directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array("\(directory)/seckit-spool-XXXXXX".utf8CString)
        // Signals wait until the name is gone again, so none can leave the file behind.
        descriptor = try SignalCleanup.withSignalsBlocked { () throws(FileError) in
            let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard fd >= 0 else { throw FileError(path: directory, code: errno) }
            template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
            return fd
        }
    }

    deinit { close(descriptor) }

    /// Appends `bytes` to the spool file; `next` gets nothing yet.
    ///
    /// - Parameter bytes: the bytes, valid only during the call; all of them are written.
    /// - Throws: ``FileError`` naming `spool file`, with the `errno` of `write` (a full disk under
    ///   the spool folder).
    public func write(_ bytes: UnsafeRawBufferPointer) throws(FileError) {
        try writeAll(descriptor, bytes, name: "spool file")
    }

    /// Passes everything written on to `next`, in chunks, and finishes it.
    ///
    /// - Throws: ``FileError`` naming `spool file` when it cannot be rewound or read back; what
    ///   `next`'s `write(_:)` and `finish()` throw (a file's ``FileError``, a cipher's `CryptoError`).
    public func finish() throws {
        guard lseek(descriptor, 0, SEEK_SET) == 0 else {
            throw FileError(path: "spool file", code: errno)
        }
        try next.consume(.fileDescriptor(descriptor, name: "spool file"))
    }
}
