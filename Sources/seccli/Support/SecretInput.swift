import ArgumentParser
import SecKit

#if canImport(Glibc)
import Glibc
#endif

/// The whole secret that `cred set` stores (`--secret`) and the token that `sso login` stores
/// (`--token`): byte for byte, NUL bytes and newlines included, up to a limit.
///
/// With the option (`env:VAR`, `file:PATH`, `fd:N`, `stdin`) everything the source holds. Without
/// it, standard input: when it is a terminal, one line is read behind a prompt with echo off;
/// otherwise every byte is taken as it is, final newline included, as `secret-tool store` does.
struct SecretInput {
    /// `Secret` or `Token`, as the prompt and messages name it.
    var what: String
    /// The option that names a source, and its value if given.
    var option: String
    var text: String?

    func source() throws -> SecretSource? {
        try text.map { try secretSource($0, option: option) }
    }

    /// Refuses a line on which both this secret and the file store's password read standard input.
    func validate(with store: StoreOptions) throws {
        if try source()?.readsStandardInput ?? true, store.passwordReadsStandardInput {
            throw ValidationError("the \(what.lowercased()) and --store-password cannot both come from standard input")
        }
    }

    func read(limit: Int) throws -> SecureBytes {
        let source = try source()
        if source == nil, isatty(STDIN_FILENO) == 1 {
            let line = try TerminalPrompt.readHidden(prompt: "\(what): ", limit: limit)
            guard !line.isEmpty else {
                throw Failure(message: "no \(what.lowercased()) entered; nothing stored", exitCode: .dataError)
            }
            return line
        }
        let input = source ?? .standardInput
        do {
            return try input.readAll(limit: limit, keyring: secretKeyring)
        } catch SecretSourceError.tooLong {
            throw Failure(
                message: "the \(what.lowercased()) from \(input) is larger than \(limit) bytes; nothing stored",
                exitCode: .dataError
            )
        }
    }
}

/// A prompt on standard error, and one line read from the terminal on standard input with echo
/// off. The terminal's settings are restored afterwards, also when the user interrupts with Ctrl-C.
enum TerminalPrompt {
    nonisolated(unsafe) private static var savedSettings = termios()

    static func readHidden(prompt: String, limit: Int) throws -> SecureBytes {
        var settings = termios()
        guard tcgetattr(STDIN_FILENO, &settings) == 0 else {
            throw Failure(
                message: "cannot read the terminal's settings: \(String(cString: strerror(errno)))",
                exitCode: .dataError
            )
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
        let interrupt = signal(SIGINT, restore)
        let terminate = signal(SIGTERM, restore)
        let hangup = signal(SIGHUP, restore)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &settings)
            signal(SIGINT, interrupt)
            signal(SIGTERM, terminate)
            signal(SIGHUP, hangup)
        }
        var prompt = prompt
        prompt.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &hidden) == 0 else {
            throw Failure(
                message: "cannot turn off the terminal's echo: \(String(cString: strerror(errno)))",
                exitCode: .dataError
            )
        }
        let line = try SecretSource.standardInput.read(allowingEmpty: true)  // the caller says what empty means
        guard line.count <= limit else {
            throw Failure(
                message: "the line entered is longer than \(limit) bytes; nothing stored",
                exitCode: .dataError
            )
        }
        return line
    }
}
