import SecCrypto

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A byte source read in fixed-size chunks, so inputs of any size use constant memory:
/// a file path, standard input, or an already open descriptor.
public struct FileInput: Sendable {
    enum Source: Sendable {
        case path(String)
        case descriptor(Int32)
    }

    let source: Source
    /// The name used in messages and output lines (`-` for standard input).
    public let name: String

    /// Size of the reusable read buffer.
    public static let chunkSize = 256 * 1024

    /// A file to open for reading.
    public static func path(_ path: String) -> FileInput {
        FileInput(source: .path(path), name: path)
    }

    /// An open descriptor, read to its end and not closed.
    public static func fileDescriptor(_ descriptor: Int32, name: String) -> FileInput {
        FileInput(source: .descriptor(descriptor), name: name)
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
    public func forEachChunk(_ body: (UnsafeRawBufferPointer) throws(CryptoError) -> Void) throws(CryptoError) {
        let descriptor = try InputDescriptor(self)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkSize, alignment: 64)
        defer { buffer.deallocate() }
        while true {
            let count = try descriptor.read(into: buffer)
            if count == 0 { return }
            try body(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
    }

    /// The error of the last failed call, naming this input.
    func ioError() -> CryptoError {
        .io(path: name, reason: String(cString: strerror(errno)))
    }
}
