import ArgumentParser
import SecKit

@main
struct SecCLI: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seccli",
        abstract: "Hashing, HMAC, encryption and key derivation on the system OpenSSL.",
        discussion: """
            Secrets (keys, passwords) are never taken from the command line, where every local user \
            can read them: give a source instead, as openssl does: env:VAR, file:PATH, fd:N or stdin.

            Exit codes: 0 success; 1 a check failed (checksum or MAC mismatch, input that cannot be \
            decrypted) or a file could not be read or written; 2 bad data in the options (malformed \
            key or IV, wrong key size, unreadable secret); 64 usage error. seccli pin adds: 2 an \
            unreadable or malformed certificate, key or PKCS#12 file; 3 pin mismatch; 4 certificate \
            verification failure; 5 client certificate required or refused; 6 connection failure or timeout. \
            seccli cred and sso add: 10 not found; 11 expired; 12 keyring locked; 13 no session bus or no \
            Secret Service; 14 timeout; 15 several items match.
            """,
        version: "0.1.0",
        subcommands: [Hash.self, HMACCommand.self, Encrypt.self, Decrypt.self, KDFCommand.self, KeygenCommand.self, PinCommand.self,
                      CredCommand.self, SSOCommand.self]
    )

    static func main() {
        do {
            var command = try hotCommand() ?? parseAsRoot()
            try command.run()
        } catch let failure as Failure {
            failure.report()
        } catch let error as CryptoError {
            Failure(message: error.description, exitCode: error.exitCode).report()
        } catch let error as TLSError {
            Failure(message: error.description, exitCode: error.exitCode).report()
        } catch let error as KeychainError {
            Failure(message: error.description, exitCode: error.exitCode).report()
        } catch let error as SecretSourceError {
            Failure(message: error.description, exitCode: .dataError).report()
        } catch {
            // Help and version exit cleanly; every other parse or validation error is one line.
            let code = exitCode(for: error)
            if code == .success { exit(withError: error) }
            let lines = message(for: error).split(separator: "\n").map { $0.trimmingPrefix(while: \.isWhitespace) }
            Failure(message: lines.joined(separator: " "), exitCode: code).report()
        }
    }

    /// `cred get` and `sso token`, which tools run once per use, read by `HotCommandLine` without
    /// ArgumentParser's set-up (docs/performance.md); nil leaves the line to `parseAsRoot`.
    private static func hotCommand() -> (any ParsableCommand)? {
        let arguments = CommandLine.arguments.dropFirst()
        return switch Array(arguments.prefix(2)) {
        case ["cred", "get"]: CredCommand.CredGet.read(hotArguments: arguments.dropFirst(2))
        case ["sso", "token"]: SSOCommand.SSOToken.read(hotArguments: arguments.dropFirst(2))
        default: nil
        }
    }
}
