import SecCrypto

/// What `AuditLog.verify()` found.
public struct AuditVerification: Hashable, Sendable {
    /// A line where the chain breaks.
    public struct BrokenLine: Hashable, Sendable, CustomStringConvertible {
        /// The file that holds it (`path`, or a rotated `path.N`).
        public let file: String
        /// Its line number in that file, from 1.
        public let line: Int
        /// Why it breaks the chain.
        public let reason: String

        public var description: String { "\(file) line \(line): \(reason)" }
    }

    /// How many records were checked before the first broken line (all of them for an intact log).
    public let records: Int
    /// The sequence number of the oldest record kept (above 1 when older files were rotated away).
    public let firstSequence: Int?
    /// The first line that breaks the chain; nil when the log is intact.
    public let broken: BrokenLine?

    /// True when every line is a record chained to the one before it.
    public var isIntact: Bool { broken == nil }
}

extension AuditLog {
    /// Checks the chain through every file of the log, oldest first: each line must be a record
    /// whose `previous` is the SHA-256 of the line before it and whose `sequence` follows that
    /// line's; the oldest line must be record 1 unless rotated files came before it. Editing a line
    /// breaks the chain at the next line, deleting or moving one at the line after the gap.
    ///
    /// - Returns: the number of records and the first broken line, if any.
    /// - Throws: `KeychainError.io` when a file cannot be read (`notFound` when the log does not exist).
    public func verify() throws(KeychainError) -> AuditVerification {
        var previous: (line: [UInt8], sequence: Int)?
        var count = 0
        var firstSequence: Int?
        let files = self.files
        let rotated = files.count > 1
        for file in files {
            let lines = try Self.lines(of: file)
            for (index, entry) in lines.enumerated() {
                func broken(_ reason: String) -> AuditVerification {
                    AuditVerification(
                        records: count,
                        firstSequence: firstSequence,
                        broken: .init(file: file, line: index + 1, reason: reason)
                    )
                }
                guard entry.terminated else {
                    return broken("the line has no newline: it was cut short or edited after the last record")
                }
                guard let record = AuditRecord.parse(entry.bytes) else { return broken("not an audit record") }
                if let previous {
                    if record.sequence <= previous.sequence {
                        return broken(
                            "record \(record.sequence) follows record \(previous.sequence): lines were reordered or copied"
                        )
                    }
                    if record.sequence > previous.sequence + 1 {
                        let missing =
                            record.sequence == previous.sequence + 2
                            ? "record \(previous.sequence + 1) is"
                            : "records \(previous.sequence + 1)-\(record.sequence - 1) are"
                        return broken("\(missing) missing before it: lines were deleted")
                    }
                    guard record.previous == SHA256.hash(data: previous.line).hexString else {
                        return broken("the previous line does not hash to the value this record holds: it was edited")
                    }
                } else if !rotated {
                    guard record.sequence == 1, record.previous == AuditRecord.genesis else {
                        return broken(
                            "the log starts with record \(record.sequence), not 1: its first lines were deleted"
                        )
                    }
                }
                if firstSequence == nil { firstSequence = record.sequence }
                previous = (entry.bytes, record.sequence)
                count += 1
            }
        }
        return AuditVerification(records: count, firstSequence: firstSequence, broken: nil)
    }

    /// Every record of the log, oldest first; lines that are not records are skipped (`verify()` names them).
    ///
    /// - Returns: the records of the rotated files, oldest first, then those of `path`.
    /// - Throws: `KeychainError.io` when a file cannot be read (`notFound` when the log does not exist).
    public func records() throws(KeychainError) -> [AuditRecord] {
        var result: [AuditRecord] = []
        for file in files {
            for entry in try Self.lines(of: file) {
                if let record = AuditRecord.parse(entry.bytes) { result.append(record) }
            }
        }
        return result
    }

    /// The lines of `file`, each with whether a newline ended it.
    private static func lines(of file: String) throws(KeychainError) -> [(bytes: [UInt8], terminated: Bool)] {
        guard let contents = try StoreFile.read(file) else { throw .notFound }
        var lines: [(bytes: [UInt8], terminated: Bool)] = []
        var start = 0
        for (index, byte) in contents.enumerated() where byte == 0x0A {
            lines.append((Array(contents[start..<index]), true))
            start = index + 1
        }
        if start < contents.count { lines.append((Array(contents[start...]), false)) }
        return lines
    }
}
