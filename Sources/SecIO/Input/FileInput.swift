import SecCrypto

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A byte source read in fixed-size chunks, so inputs of any size use constant memory:
/// a file path, standard input, or an already open descriptor.
///
/// A path is bytes, as Linux file names are: `path(bytes:)` opens names that are not valid UTF-8.
public struct FileInput: Sendable {
    enum Source: Sendable {
        /// The path's bytes, NUL-terminated for `open`.
        case path([CChar])
        /// A file a directory walk found, opened only if it is still that file.
        case walked(WalkedEntry)
        case descriptor(Int32)
    }

    let source: Source
    /// The name's exact bytes, for output that must name the file as it is (`-` for standard input).
    public let nameBytes: [UInt8]
    /// The name for messages: `nameBytes` as UTF-8, with U+FFFD for bytes that are not.
    public let name: String

    /// Size of the reusable read buffer.
    public static let chunkSize = 256 * 1024

    /// A file to open for reading.
    ///
    /// - Parameter path: the file's path, absolute or relative to the working directory (no NUL).
    /// - Returns: an input that opens the file when it is read (nothing is opened here), named
    ///   `path`.
    public static func path(_ path: String) -> FileInput {
        .path(bytes: Array(path.utf8))
    }

    /// A file to open for reading, named by the bytes of its path (no NUL among them).
    ///
    /// - Parameter bytes: the path's bytes, UTF-8 or not.
    /// - Returns: an input that opens the file when it is read (nothing is opened here), whose
    ///   ``FileInput/nameBytes`` are `bytes`.
    public static func path(bytes: [UInt8]) -> FileInput {
        let terminated = bytes.map { CChar(bitPattern: $0) } + [0]
        return FileInput(source: .path(terminated), nameBytes: bytes)
    }

    /// The regular file a directory walk found (`entry.kind` is `.regularFile`), named by its path:
    /// read only if it is still that file when it is opened (`WalkedEntry.open()`), so a FIFO, a
    /// device or a symbolic link put in its place since the listing is reported, never read.
    ///
    /// - Parameter entry: the regular file as the walk listed it.
    /// - Returns: an input that opens `entry` with ``WalkedEntry/open()`` when it is read (nothing is
    ///   opened here), named by `entry.path`.
    public static func walkedFile(_ entry: WalkedEntry) -> FileInput {
        FileInput(source: .walked(entry), nameBytes: entry.path)
    }

    /// An open descriptor, read to its end and not closed.
    ///
    /// - Parameters:
    ///   - descriptor: the open descriptor; it stays the caller's, and reading consumes it.
    ///   - name: the name for messages and errors (`-` for standard input).
    /// - Returns: an input that reads `descriptor` from where it stands.
    public static func fileDescriptor(_ descriptor: Int32, name: String) -> FileInput {
        FileInput(source: .descriptor(descriptor), nameBytes: Array(name.utf8))
    }

    private init(source: Source, nameBytes: [UInt8]) {
        self.source = source
        self.nameBytes = nameBytes
        name = String(decoding: nameBytes, as: UTF8.self)
    }

    /// Standard input, named `-` as `sha256sum` does.
    public static var standardInput: FileInput { .fileDescriptor(STDIN_FILENO, name: "-") }

    /// Whether this reads an open descriptor (standard input, say). Reading consumes it, so such an
    /// input can be read once, and two inputs of one descriptor only one after the other.
    public var isDescriptor: Bool {
        if case .descriptor = source { return true }
        return false
    }

    /// Calls `body` with consecutive chunks of the input until its end.
    ///
    /// - Parameter body: Called with each chunk, which is valid only during the call. It may stop
    ///   the reading by throwing.
    /// - Throws: ``FileError`` when the input cannot be opened or read, or the error `body` threw.
    public func forEachChunk(_ body: (UnsafeRawBufferPointer) throws(FileError) -> Void) throws(FileError) {
        try readChunks(into: body, readFailure: { $0 })
    }

    /// The one reading loop: `body` with each chunk; a failure to open or read becomes the caller's
    /// error through `readFailure`, so a caller whose `body` throws another type keeps its own type.
    func readChunks<Failure: Error>(
        into body: (UnsafeRawBufferPointer) throws(Failure) -> Void,
        readFailure: (FileError) -> Failure
    ) throws(Failure) {
        let descriptor: InputDescriptor
        do { descriptor = try InputDescriptor(self) } catch { throw readFailure(error) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkSize, alignment: 64)
        defer { buffer.deallocate() }
        while true {
            let count: Int
            do { count = try descriptor.read(into: buffer) } catch { throw readFailure(error) }
            if count == 0 { return }
            try body(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
    }

    /// The error of the last failed call, naming this input.
    func ioError() -> FileError {
        FileError(path: name, code: errno)
    }
}
