import ArgumentParser
import SecKit

extension SecretEncoding: ExpressibleByArgument {}

/// `--key SOURCE [--key-format raw|hex|base64]`.
struct KeyOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Where to read the key: env:VAR, file:PATH, fd:N or stdin (first line).",
        valueName: "source"))
    var key: String

    @Option(help: "How the key bytes are written: raw (as openssl dgst -hmac), hex or base64.")
    var keyFormat: SecretEncoding = .raw

    /// Parsed in `validate()` so that a refused literal is reported without echoing it.
    func source() throws -> SecretSource {
        do {
            return try SecretSource(parsing: key)
        } catch {
            throw ValidationError("--key: \(error)")
        }
    }

    func validate() throws {
        _ = try source()
    }

    /// Reads and decodes the key.
    func readKey() throws -> SymmetricKey {
        let secret = try source().read()
        return SymmetricKey(try keyFormat.decode(secret))
    }
}
