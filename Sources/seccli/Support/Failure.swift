import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif

extension ExitCode {
    /// A verification failed or an input could not be read.
    static let checkFailed = ExitCode(1)
    /// Malformed key, hex, base64 or an unreadable secret.
    static let dataError = ExitCode(2)
}

/// A failure reported as one `seccli: <message>` line on standard error (none when the details
/// were already reported), with an exit code.
struct Failure: Error {
    var message: String?
    var exitCode: ExitCode

    func report() -> Never {
        if let message { Diagnostics.error(message) }
        fflush(nil)
        Glibc.exit(exitCode.rawValue)
    }
}

/// Standard-error messages in the `seccli: …` form.
enum Diagnostics {
    static func error(_ message: String) {
        fflush(nil)  // keep stdout lines before the message when both go to one terminal
        var line = "seccli: \(message)\n"
        line.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
