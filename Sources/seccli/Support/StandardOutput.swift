// `stdout` is a C global that Swift 6 calls shared mutable state; the one place that reads it (at the
// end of a command, on the main thread) imports it as before concurrency checking.
@preconcurrency import Glibc

/// Standard output, as stdio buffers it for `print`.
enum StandardOutput {
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
