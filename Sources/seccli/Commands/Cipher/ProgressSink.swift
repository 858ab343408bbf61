import SecKit

#if canImport(Glibc)
import Glibc
#endif

/// Shows a progress line on standard error while a large file (over 64 MiB) passes through, when
/// standard error is a terminal. Otherwise it is not created.
final class ProgressSink: ByteSink {
    static let threshold: Int64 = 64 << 20

    private let next: ByteSink
    private let total: Int64
    private var done: Int64 = 0
    private var shownPercent = -1

    init?(input: FileInput, next: ByteSink) {
        guard isatty(STDERR_FILENO) == 1, input.name != "-" else { return nil }
        var info = stat()
        guard stat(input.name, &info) == 0, info.st_size > Self.threshold else { return nil }
        self.next = next
        total = Int64(info.st_size)
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        try next.write(bytes)
        done += Int64(bytes.count)
        let percent = Int(done * 100 / total)
        guard percent != shownPercent else { return }
        shownPercent = percent
        let width = 30
        let filled = width * percent / 100
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        Diagnostics.status("[\(bar)] \(percent)% of \(total >> 20) MiB")
    }

    func finish() throws {
        Diagnostics.status(nil)
        try next.finish()
    }
}
