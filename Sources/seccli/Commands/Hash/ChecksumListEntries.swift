import SecKit

/// The entries of a `hash --check` list, read as `OrderedParallelMap` asks for them: the list is
/// streamed line by line, so a list of any length takes constant memory.
///
/// A line may be at most `maximumLineLength` bytes: longer than any line naming a file Linux can
/// open (a path of at most PATH_MAX, 4096 bytes, twice as long escaped, plus the tag and a SHA-512
/// digest). A longer line is counted as improperly formatted and skipped, as `sha256sum -c` counts a
/// line it cannot read. A NUL byte cannot be part of a checksum line: a list with one is not a
/// checksum list (`/dev/zero`, a binary file given by mistake), and reading stops there with
/// `failure` set, instead of reading on through a line that may never end.
final class ChecksumListEntries: Sequence, IteratorProtocol {
    static let maximumLineLength = 64 * 1024

    private let list: FileInput
    private let lines: LineReader
    private var parser: ChecksumListParser
    private var lineNumber = 0
    /// Lines that are not checksum lines for the algorithm.
    private(set) var malformed = 0
    /// Why reading stopped before the end of the list.
    private(set) var failure: (any Error)?

    init(_ list: FileInput, algorithm: HashAlgorithm) throws {
        self.list = list
        lines = try LineReader(list, maximumLength: Self.maximumLineLength)
        parser = ChecksumListParser(algorithm: algorithm)
    }

    func next() -> (input: FileInput, expected: [UInt8])? {
        while failure == nil {
            let line: LineReader.Line?
            do {
                line = try lines.next()
            } catch {
                failure = error
                return nil
            }
            lineNumber += 1
            switch line {
            case nil:
                return nil
            case .overlong(let prefix) where !prefix.contains(0):
                malformed += 1
            case .complete(let bytes) where !bytes.contains(0):
                switch parser.parse(bytes) {
                case .skipped:
                    continue
                case .entry(let entry) where !(list.isDescriptor && entry.name == Array("-".utf8)):
                    return (InputFiles.input(for: entry.name), entry.digest)
                case .entry, .malformed:
                    // `-` in a list read from standard input would read the list again.
                    malformed += 1
                }
            case .complete, .overlong:
                failure = Failure(
                    message: "\(list.name): line \(lineNumber) contains a NUL byte: not a checksum list",
                    exitCode: .checkFailed
                )
            }
        }
        return nil
    }
}
