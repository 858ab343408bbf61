import SecCrypto
import SecIO

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A tamper-evident, append-only log of credential access: one JSON line per `CredentialStore`
/// call (`AuditRecord`), each carrying the SHA-256 of the line before it.
///
/// Writers in any number of processes share one file: each line is appended with one `write` on a
/// descriptor opened with `O_APPEND`, under an exclusive `flock` on the log file held while the
/// previous line is read, so no line is torn and the chain has no fork. When a line would take the
/// file past `rotationSize`, the file is renamed to `PATH.1` (`PATH.1` to `PATH.2`, …, the oldest
/// beyond `rotatedFiles` removed) and the chain continues in a new `PATH`.
///
/// ```swift
/// let log = AuditLog(path: "/var/log/seckit/credentials.audit")
/// let store = SecretServiceStore().audited(to: log)
/// let token = try store.secret(for: .genericPassword(service: "api.example.com", account: "deploy"))
/// let report = try log.verify()      // the first broken line, if any
/// ```
public struct AuditLog: Hashable, Sendable {
    /// The variable that turns the log on for seccli and `auditedIfConfigured()`: the log's path.
    public static let environmentVariable = "SECKIT_AUDIT_LOG"
    /// The variable that sets `rotationSize` (bytes) for a log named by `environmentVariable`.
    public static let rotationSizeVariable = "SECKIT_AUDIT_LOG_ROTATE_BYTES"
    /// The default `rotationSize`: 10 MiB.
    public static let defaultRotationSize = 10 << 20

    /// The live file; rotated ones are `path.1` (the newest) to `path.N`.
    public let path: String
    /// The size past which the file is rotated.
    public let rotationSize: Int
    /// How many rotated files are kept.
    public let rotatedFiles: Int

    /// A log at `path`, created (mode 0600, missing folders 0700) by the first record.
    ///
    /// - Parameters:
    ///   - path: the live log file.
    ///   - rotationSize: the size in bytes past which the file is rotated (at least 4096).
    ///   - rotatedFiles: how many rotated files are kept (at least 1).
    public init(path: String, rotationSize: Int = defaultRotationSize, rotatedFiles: Int = 5) {
        self.path = path
        self.rotationSize = max(rotationSize, 4096)
        self.rotatedFiles = max(rotatedFiles, 1)
    }

    /// The log `SECKIT_AUDIT_LOG` names (with `SECKIT_AUDIT_LOG_ROTATE_BYTES`), nil when it is unset or empty.
    public static func fromEnvironment() -> AuditLog? {
        guard let value = getenv(environmentVariable), value.pointee != 0 else { return nil }
        let size = getenv(rotationSizeVariable).flatMap { Int(String(cString: $0)) } ?? defaultRotationSize
        return AuditLog(path: String(cString: value), rotationSize: size)
    }

    /// The files of the log, oldest first: the rotated files that exist, then `path`.
    public var files: [String] {
        var rotated: [String] = []
        for index in 1...rotatedFiles {
            let file = "\(path).\(index)"
            guard access(file, F_OK) == 0 else { break }
            rotated.append(file)
        }
        return rotated.reversed() + [path]
    }

    // MARK: - Writing

    /// Appends the record of one call, chained to the last line; `sequence` and `previous` are set here.
    ///
    /// - Throws: `KeychainError.io` when the log cannot be opened, locked or written.
    public func append(_ record: AuditRecord) throws(KeychainError) {
        try PrivateDirectory.create(PathNames.folder(containing: path))
        var record = record
        while true {
            let descriptor = try openLocked()
            defer { close(descriptor) }  // closing releases the lock
            // A writer that rotated the file while this one waited for the lock: start again on the new one.
            guard try isCurrent(descriptor) else { continue }
            let size = try fileSize(descriptor)
            let last = try lastLine(descriptor, size: size)
            record.sequence = (last.flatMap(AuditRecord.sequence(of:)) ?? 0) + 1
            record.previous = last.map { SHA256.hash(data: $0).hexString } ?? AuditRecord.genesis
            var line = record.line()
            // A last line without its newline (a writer killed mid-line cannot happen with one write,
            // but an edit can leave one): end it, so the new record is a line of its own.
            if size > 0, last != nil, try !endsWithNewline(descriptor, size: size) { line.insert(0x0A, at: 0) }
            line.append(0x0A)
            if size > 0 && size + line.count > rotationSize {
                try rotate()
                // The new file continues the chain; other writers now wait on its lock, not the old one's.
                let fresh = try openLocked()
                defer { close(fresh) }
                if line.first == 0x0A { line.removeFirst() }
                try write(line, to: fresh)
                return
            }
            try write(line, to: descriptor)
            return
        }
    }

    private func openLocked() throws(KeychainError) -> Int32 {
        let descriptor = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw failure(errno) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                let error = failure(errno)
                close(descriptor)
                throw error
            }
        }
        return descriptor
    }

    /// True when `descriptor` is still the file at `path` (not one rotated away since it was opened).
    private func isCurrent(_ descriptor: Int32) throws(KeychainError) -> Bool {
        var opened = stat()
        var named = stat()
        guard fstat(descriptor, &opened) == 0 else { throw failure(errno) }
        guard stat(path, &named) == 0 else { return false }
        return opened.st_dev == named.st_dev && opened.st_ino == named.st_ino
    }

    private func fileSize(_ descriptor: Int32) throws(KeychainError) -> Int {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw failure(errno) }
        return Int(info.st_size)
    }

    private func endsWithNewline(_ descriptor: Int32, size: Int) throws(KeychainError) -> Bool {
        var byte: UInt8 = 0
        guard pread(descriptor, &byte, 1, off_t(size - 1)) == 1 else { throw failure(errno) }
        return byte == 0x0A
    }

    /// The bytes of the file's last line (without its newline), read backwards in blocks; nil for an empty file.
    private func lastLine(_ descriptor: Int32, size: Int) throws(KeychainError) -> [UInt8]? {
        guard size > 0 else { return nil }
        var end = size
        if try endsWithNewline(descriptor, size: size) { end -= 1 }
        var tail: [UInt8] = []
        var offset = end
        while offset > 0 {
            let length = min(4096, offset)
            offset -= length
            var block = [UInt8](repeating: 0, count: length)
            let read = block.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, length, off_t(offset)) }
            guard read == length else { throw failure(read < 0 ? errno : EIO) }
            if let newline = block.lastIndex(of: 0x0A) {
                return Array(block[(newline + 1)...]) + tail
            }
            tail = block + tail
        }
        return tail
    }

    /// `path.N-1` → `path.N` … `path` → `path.1`, the oldest beyond `rotatedFiles` removed.
    private func rotate() throws(KeychainError) {
        _ = unlink("\(path).\(rotatedFiles)")
        for index in stride(from: rotatedFiles - 1, through: 1, by: -1) {
            if rename("\(path).\(index)", "\(path).\(index + 1)") != 0 && errno != ENOENT { throw failure(errno) }
        }
        guard rename(path, "\(path).1") == 0 else { throw failure(errno) }
    }

    private func write(_ line: [UInt8], to descriptor: Int32) throws(KeychainError) {
        // One write: with O_APPEND the kernel places the whole line at the end of the file at once.
        let written = line.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        guard written == line.count else {
            throw written < 0 ? failure(errno) : .io(path: path, reason: "audit log: short write")
        }
    }

    private func failure(_ code: Int32) -> KeychainError {
        .io(path: path, reason: "audit log: " + String(cString: strerror(code)))
    }
}
