import SecCrypto

/// The lines of a `FileInput`, read one at a time in constant memory: however long the input, and
/// however long a line in it, no more than `maximumLength` bytes of a line and one read chunk are held.
///
/// Lines end at a line feed, which is not part of the line; the last line may end without one. A
/// line longer than `maximumLength` is returned as `.overlong` with its first `maximumLength` bytes
/// as soon as that many are read; the rest of it is skipped when the next line is asked for, so a
/// caller that stops there (at a NUL byte, say) never reads on through an endless line.
public final class LineReader {
    /// A line without its line feed.
    public enum Line: Equatable, Sendable {
        /// A whole line.
        case complete([UInt8])
        /// A line longer than `maximumLength`: its first `maximumLength` bytes.
        case overlong(prefix: [UInt8])
    }

    /// The longest line returned whole, in bytes.
    public let maximumLength: Int
    private let descriptor: InputDescriptor
    private let buffer: UnsafeMutableRawBufferPointer
    /// The bytes of `buffer` read and not yet returned or skipped.
    private var unread: Range<Int> = 0..<0
    private var isAtEnd = false
    /// Whether the bytes up to the next line feed belong to an overlong line already returned.
    private var isSkipping = false

    /// Opens `input` for reading lines of at most `maximumLength` bytes.
    ///
    /// - Parameters:
    ///   - input: the input to read; a file is opened here and closed when the reader is released, a
    ///     descriptor is read from where it stands and left open.
    ///   - maximumLength: the longest line returned whole, in bytes; more than 0.
    /// - Throws: ``FileError`` naming the input when its file cannot be opened (the `errno` of
    ///   `open`), or when a walked file is no longer what the walk listed (``WalkedEntry/open()``).
    public init(_ input: FileInput, maximumLength: Int) throws(FileError) {
        precondition(maximumLength > 0, "a line may hold at least one byte")
        self.maximumLength = maximumLength
        descriptor = try InputDescriptor(input)
        buffer = .allocate(byteCount: min(FileInput.chunkSize, maximumLength + 1), alignment: 64)
    }

    deinit {
        buffer.deallocate()
    }

    /// The next line; nil at the end of the input.
    ///
    /// - Returns: ``Line/complete(_:)`` with the line's bytes (without the line feed; the last line
    ///   may end without one); ``Line/overlong(prefix:)`` with the first ``LineReader/maximumLength``
    ///   bytes of a longer line, whose rest the next call skips; nil at the end of the input (a final
    ///   line feed adds no empty line).
    /// - Throws: ``FileError`` naming the input, with the `errno` of `read`, when it cannot be read
    ///   (`Is a directory` for a directory's path, `Input/output error`).
    public func next() throws(FileError) -> Line? {
        if isSkipping {
            while true {
                if let lineFeed = try nextLineFeed() {
                    unread = lineFeed + 1..<unread.upperBound
                    isSkipping = false
                    break
                }
                unread = unread.upperBound..<unread.upperBound
                guard try refill() else { return nil }
            }
        }
        var line: [UInt8] = []
        while true {
            let lineFeed = try nextLineFeed()
            let end = lineFeed ?? unread.upperBound
            let room = maximumLength - line.count
            if end - unread.lowerBound > room {
                line.append(contentsOf: buffer[unread.lowerBound..<unread.lowerBound + room])
                unread = unread.lowerBound + room..<unread.upperBound
                isSkipping = true
                return .overlong(prefix: line)
            }
            line.append(contentsOf: buffer[unread.lowerBound..<end])
            if let lineFeed {
                unread = lineFeed + 1..<unread.upperBound
                return .complete(line)
            }
            unread = end..<end
            guard try refill() else { return line.isEmpty ? nil : .complete(line) }
        }
    }

    /// The position of the next line feed among the unread bytes, reading more when none are left.
    private func nextLineFeed() throws(FileError) -> Int? {
        if unread.isEmpty, !(try refill()) { return nil }
        return buffer[unread].firstIndex(of: UInt8(ascii: "\n"))
    }

    /// Reads the next chunk into the empty buffer; false at the end of the input.
    private func refill() throws(FileError) -> Bool {
        guard !isAtEnd else { return false }
        let count = try descriptor.read(into: buffer)
        unread = 0..<count
        isAtEnd = count == 0
        return !isAtEnd
    }
}
