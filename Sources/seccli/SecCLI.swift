import ArgumentParser
import SecKit

@main
struct SecCLI: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seccli",
        abstract: "Hashing, HMAC, encryption and key derivation on the system OpenSSL.",
        discussion: """
            Secrets (keys, passwords) are never taken from the command line, where every local user \
            can read them: give a source instead, as openssl does (env:VAR, file:PATH, fd:N or stdin), or a \
            keychain item: keyring:SERVICE/ACCOUNT.

            \(ExitStatus.help())
            """,
        version: version,
        subcommands: [
            HashCommand.self, HMACCommand.self, EncryptCommand.self, DecryptCommand.self, KDFCommand.self,
            KeygenCommand.self,
            PinCommand.self, TLSCommand.self,
            CredCommand.self, SSOCommand.self, IdentityCommand.self, AuditCommand.self,
        ]
    )

    /// What `--version` prints.
    static let version = "0.1.0"

    static func main() {
        do {
            // Scripts ask before each use: answered as ArgumentParser would, without its set-up.
            if CommandLine.arguments.dropFirst().elementsEqual(["--version"]) {
                print(version)
                return try StandardOutput.finish()
            }
            // Before anything is read: a crash must not write this process's secrets to disk.
            try CoreDumps.disable()
            let hot = hotCommand()
            // seccli ends right after its command: OpenSSL's clean-up at exit would only free memory.
            // A hot command on a backend whose algorithms its format fixes (the Secret Service's
            // session, the encrypted file) negotiates nothing, so OpenSSL starts there without the
            // configuration file, the legacy name tables and the error texts. OpenBao's is TLS: the
            // system's policy applies.
            if hot?.negotiatesNothing == true {
                OpenSSLLibrary.startForFixedAlgorithms()
            } else {
                OpenSSLLibrary.skipCleanupAtExit()
            }
            var command = try hot?.command ?? parseAsRoot()
            try command.run()
            try StandardOutput.finish()
        } catch {
            failure(reporting: error).report()
        }
    }

    /// How `error` is reported: a `Failure` as it is, SecKit's errors with their documented status,
    /// ArgumentParser's as one line with its status; help and version are printed here, exiting 0.
    private static func failure(reporting error: any Error) -> Failure {
        if let failure = error as? Failure { return failure }
        if let status = ExitStatus(error) { return Failure(message: "\(error)", exitCode: status) }
        let code = exitCode(for: error)
        if code == .success {
            // Help and version go to standard output like any other output, write errors included.
            print(fullMessage(for: error))
            do { try StandardOutput.finish() } catch { return failure(reporting: error) }
            return Failure(message: nil, exitCode: .success)
        }
        guard let status = ExitStatus(rawValue: code.rawValue) else { exit(withError: error) }
        let lines = message(for: error).split(separator: "\n").map { $0.trimmingPrefix(while: \.isWhitespace) }
        return Failure(message: lines.joined(separator: " "), exitCode: status)
    }

    /// `cred get` and `sso token`, which tools run once per use, read by `HotCommandLine` without
    /// ArgumentParser's set-up (docs/performance-journal.md); nil leaves the line to `parseAsRoot`.
    /// The command, and whether its store negotiates nothing (`StoreOptions.fixesItsAlgorithms`).
    private static func hotCommand() -> (command: any ParsableCommand, negotiatesNothing: Bool)? {
        let arguments = CommandLine.arguments.dropFirst()
        switch Array(arguments.prefix(2)) {
        case ["cred", "get"]:
            return CredCommand.CredGet.read(hotArguments: arguments.dropFirst(2)).map {
                ($0, $0.store.fixesItsAlgorithms)
            }
        case ["sso", "token"]:
            return SSOCommand.SSOToken.read(hotArguments: arguments.dropFirst(2)).map {
                ($0, $0.sso.store.fixesItsAlgorithms)
            }
        default: return nil
        }
    }
}
