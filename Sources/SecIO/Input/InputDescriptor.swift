import SecCrypto

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A `FileInput` open for reading: the file opened (and closed when released), or the descriptor
/// it names (left open). The one place that opens and reads inputs, for reading pushed
/// (`forEachChunk`) and pulled (`LineReader`).
final class InputDescriptor {
    private let input: FileInput
    private let descriptor: Int32
    private let isOwned: Bool

    init(_ input: FileInput) throws(FileError) {
        self.input = input
        switch input.source {
        case .descriptor(let fd):
            descriptor = fd
            isOwned = false
        case .path(let path):
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw input.ioError() }
            isOwned = true
        case .walked(let entry):
            descriptor = try entry.open()
            isOwned = true
        }
    }

    deinit {
        if isOwned { close(descriptor) }
    }

    /// Reads the next bytes into `buffer`: how many, 0 at the end of the input.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(FileError) -> Int {
        while true {
            let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno != EINTR { throw input.ioError() }
        }
    }
}
