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
/// descriptor opened with `O_APPEND`, under an exclusive `flock` of `PATH.lock` held from reading
/// the previous line to the write (and a rotation between), so no line is torn and the chain has no
/// fork. The writers share the lock file: they are one user's processes. When a line would take the
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

    /// The log `SECKIT_AUDIT_LOG` names (with `SECKIT_AUDIT_LOG_ROTATE_BYTES`).
    ///
    /// - Returns: the log, or nil when the variable is unset or empty.
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

    /// Appends the record of one call, chained to the last line; `sequence` and `previous` are set
    /// here. Writers wait for each other (the lock file `PATH.lock`) at most `lockTimeout`.
    ///
    /// - Parameter record: the call's record; its `sequence` and `previous` are replaced.
    /// - Throws: `KeychainError.io` when the log cannot be opened or written, `timeout` when another
    ///   writer holds the lock for longer.
    public func append(_ record: AuditRecord) throws(KeychainError) {
        // One lock for reading the last line, rotating and writing: a lock on the log file itself would
        // let a writer that opens the new file while another rotates start a second chain in it.
        try FileLock(path: path + ".lock").withExclusiveLock(until: OperationDeadline(Self.lockTimeout)) {
            () throws(KeychainError) in
            let descriptor = try openForAppending()
            defer { close(descriptor) }
            var size = try fileSize(descriptor)
            var last = try lastLine(descriptor, size: size)
            // An empty file after a rotation (or one removed by hand) goes on from the newest rotated one.
            if size == 0, let rotated = try lastLine(ofFile: "\(path).1") { last = rotated }
            var record = record
            record.sequence = (last.flatMap(AuditRecord.sequence(of:)) ?? 0) + 1
            record.previous = last.map { SHA256.hash(data: $0).hexString } ?? AuditRecord.genesis
            var line = record.line()
            line.append(0x0A)
            var target = descriptor
            if size > 0 && size + line.count > rotationSize {
                try rotate()
                target = try openForAppending()
                size = 0
            }
            defer { if target != descriptor { close(target) } }
            // A last line without its newline (a writer cannot leave one, with one write; an edit can):
            // end it, so that the new record is a line of its own.
            if size > 0, try !endsWithNewline(target, size: size) { line.insert(0x0A, at: 0) }
            try write(line, to: target)
        }
    }

    /// How long a writer waits for another to finish its line: far longer than one append takes.
    static let lockTimeout: Duration = .seconds(10)

    private func openForAppending() throws(KeychainError) -> Int32 {
        let descriptor = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw failure(errno) }
        return descriptor
    }

    /// The last line of `file`, nil when it does not exist or is empty.
    private func lastLine(ofFile file: String) throws(KeychainError) -> [UInt8]? {
        let descriptor = open(file, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw failure(errno)
        }
        defer { close(descriptor) }
        return try lastLine(descriptor, size: try fileSize(descriptor))
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
