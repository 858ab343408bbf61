// `stdout` is a C global that Swift 6 calls shared mutable state; the places that use it (output
// lines and the end of a command, on the main thread) import it as before concurrency checking.
@preconcurrency import Glibc

/// Standard output, as stdio buffers it for `print`.
enum StandardOutput {
    /// Writes `bytes` as they are (file names need not be UTF-8) into the buffer `print` writes to,
    /// so that both keep their order; a failure shows in `finish`.
    static func write(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, stdout) }
    }

    /// Flushes what `print` buffered and fails, like `sha256sum`, when any of it could not be
    /// written (a full disk, `/dev/full`, a closed pipe): exit 1, "standard output: write error: …".
    static func finish() throws {
        errno = 0
        let flushed = fflush(stdout) == 0
        guard flushed, ferror(stdout) == 0 else {
            let reason = errno != 0 ? String(cString: strerror(errno)) : "the output could not be written"
            throw Failure(message: "standard output: write error: \(reason)", exitCode: .checkFailed)
        }
    }
}
