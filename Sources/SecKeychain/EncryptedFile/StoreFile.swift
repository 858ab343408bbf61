import SecCrypto
import SecIO

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reading and atomically replacing the encrypted-file store's file.
enum StoreFile {
    /// The file's bytes, or nil when it does not exist.
    static func read(_ path: String) throws(KeychainError) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw .io(path: path, reason: String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw .io(path: path, reason: String(cString: strerror(errno))) }
            if count == 0 { return bytes }
            bytes += chunk[0..<count]
        }
    }

    /// Replaces the file with `bytes` (mode 0600): temporary file, `fsync`, `rename`, `fsync` of the
    /// folder. A link at `path` is followed: the file it names is replaced.
    static func replace(_ path: String, with bytes: [UInt8]) throws(KeychainError) {
        do {
            let output = try AtomicFileOutput(path: path, permissions: 0o600)
            try bytes.withUnsafeBufferPointer { (buffer) throws(FileError) in
                try output.write(UnsafeRawBufferPointer(buffer))
            }
            try output.finish()
        } catch {
            throw .io(path: error.path, reason: error.reason)
        }
    }
}
