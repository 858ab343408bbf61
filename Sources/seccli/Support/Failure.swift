import SecIO
#if canImport(Glibc)
import Glibc
#endif

/// A failure reported as one `seccli: <message>` line on standard error (none when the details
/// were already reported), with an exit code.
struct Failure: Error {
    var message: String?
    var exitCode: ExitStatus

    func report() -> Never {
        if let message { Diagnostics.error(message) }
        fflush(nil)
        Glibc.exit(exitCode.rawValue)
    }
}

/// Standard-error messages in the `seccli: …` form. Messages carry names and values from outside
/// (file names, token headers, keyring attributes), so their control characters are escaped
/// (`UntrustedText`): a message stays one line and sends the terminal no escape sequence.
enum Diagnostics {
    static func error(_ message: String) {
        fflush(nil)  // keep stdout lines before the message when both go to one terminal
        writeStandardError("seccli: \(UntrustedText.escaped(message))\n")
    }

    static func warning(_ message: String) {
        writeStandardError("seccli: warning: \(UntrustedText.escaped(message))\n")
    }

    /// Rewrites the current terminal line with `text`; nil clears it.
    static func status(_ text: String?) {
        writeStandardError("\r\u{1B}[K" + (text.map { "seccli: \(UntrustedText.escaped($0))" } ?? ""))
    }

    private static func writeStandardError(_ text: String) {
        var text = text
        text.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
