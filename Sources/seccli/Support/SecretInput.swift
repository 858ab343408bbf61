#if canImport(Glibc)
import Glibc
#endif
import SecKit

/// Reads the secret that `cred set` stores and the token that `sso login` stores: always the whole
/// secret, byte for byte (NUL bytes and newlines included), up to `limit` bytes.
///
/// With a source option (`--secret env:VAR`, `file:PATH`, `fd:N`, `stdin`) everything the source
/// holds. Without one, standard input: when it is a terminal, one line is read behind a prompt with
/// echo off; otherwise every byte is taken as it is, final newline included, as `secret-tool store` does.
enum SecretInput {
    static func read(from source: SecretSource?, what: String, limit: Int) throws -> SecureBytes {
        if source == nil, isatty(STDIN_FILENO) == 1 {
            let line = try TerminalPrompt.readHidden(prompt: "\(what): ", limit: limit)
            guard !line.isEmpty else { throw Failure(message: "no \(what.lowercased()) entered; nothing stored", exitCode: .dataError) }
            return line
        }
        let source = source ?? .standardInput
        let secret = Result { () throws(SecretSourceError) in try source.readAll(limit: limit) }
        if case .failure(.tooLong) = secret {
            throw Failure(message: "the \(what.lowercased()) from \(source) is larger than \(limit) bytes; nothing stored", exitCode: .dataError)
        }
        return try secret.get()
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
