#if canImport(Glibc)
import Glibc
#endif
import SecKit

/// Reads the secret that `cred set` stores and the token that `sso login` stores.
///
/// With a source option (`--secret env:VAR`, …) the source's rules apply (the first line of a file).
/// Without one, standard input: when it is a terminal, one line is read behind a prompt with echo
/// off; otherwise every byte is taken as it is, NUL bytes and final newline included, as
/// `secret-tool store` does.
enum SecretInput {
    static func read(from source: SecretSource?, what: String, limit: Int) throws -> SecureBytes {
        if let source { return try source.read() }
        if isatty(STDIN_FILENO) == 1 {
            let line = try TerminalPrompt.readHidden(prompt: "\(what): ", limit: limit)
            guard !line.isEmpty else { throw Failure(message: "no \(what.lowercased()) entered; nothing stored", exitCode: .dataError) }
            return line
        }
        return try readAll(STDIN_FILENO, what: what, limit: limit)
    }

    /// Every byte up to the end of `descriptor`; more than `limit` bytes is an error, not a cut.
    private static func readAll(_ descriptor: Int32, what: String, limit: Int) throws -> SecureBytes {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: limit + 1, alignment: 16)
        defer {
            secureZero(buffer)
            buffer.deallocate()
        }
        var length = 0
        while length <= limit {
            let count = Glibc.read(descriptor, buffer.baseAddress! + length, limit + 1 - length)
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(message: "cannot read the \(what.lowercased()) from standard input: \(String(cString: strerror(errno)))", exitCode: .dataError)
            }
            if count == 0 { break }
            length += count
        }
        guard length <= limit else {
            throw Failure(message: "the \(what.lowercased()) on standard input is larger than \(limit) bytes; nothing stored", exitCode: .dataError)
        }
        return SecureBytes(UnsafeRawBufferPointer(rebasing: buffer[0..<length]))
    }
}

/// A prompt on standard error, and one line read from the terminal on standard input with echo
/// off. The terminal's settings are restored afterwards, also when the user interrupts with Ctrl-C.
enum TerminalPrompt {
    nonisolated(unsafe) private static var savedSettings = termios()

    static func readHidden(prompt: String, limit: Int) throws -> SecureBytes {
        var settings = termios()
        guard tcgetattr(STDIN_FILENO, &settings) == 0 else {
            throw Failure(message: "cannot read the terminal's settings: \(String(cString: strerror(errno)))", exitCode: .dataError)
        }
        savedSettings = settings
        var hidden = settings
        hidden.c_lflag &= ~tcflag_t(ECHO)
        hidden.c_lflag |= tcflag_t(ECHONL)
        let restore: @convention(c) (Int32) -> Void = { signal in
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &TerminalPrompt.savedSettings)
            Glibc.signal(signal, SIG_DFL)
            raise(signal)
        }
        let interrupt = signal(SIGINT, restore), terminate = signal(SIGTERM, restore), hangup = signal(SIGHUP, restore)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &settings)
            signal(SIGINT, interrupt)
            signal(SIGTERM, terminate)
            signal(SIGHUP, hangup)
        }
        var prompt = prompt
        prompt.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &hidden) == 0 else {
            throw Failure(message: "cannot turn off the terminal's echo: \(String(cString: strerror(errno)))", exitCode: .dataError)
        }
        let line = try SecretSource.standardInput.read()
        guard line.count <= limit else {
            throw Failure(message: "the line entered is longer than \(limit) bytes; nothing stored", exitCode: .dataError)
        }
        return line
    }
}
