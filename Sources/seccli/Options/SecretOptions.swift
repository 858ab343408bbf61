import ArgumentParser
import SecKit

#if canImport(Glibc)
import Glibc
#endif

extension SecretEncoding: ExpressibleByArgument {}

/// Where `keyring:SERVICE/ACCOUNT` sources are read: the OpenBao store when `SECCLI_BACKEND=openbao`
/// (a fleet's hosts read their keys where they keep them), else the user's Secret Service, also when
/// `cred` uses the file backend (whose `--store-password` may then come from the keyring, never from
/// the file it unlocks). Audited when `SECKIT_AUDIT_LOG` names a log.
let secretKeyring = BackendKeyring()

/// The Secret Service: where the OpenBao backend's own login secrets (`--role-id`, `--secret-id`)
/// are read from a `keyring:` source, never from the store they unlock.
let desktopKeyring = SecretServiceStore().auditedIfConfigured()

/// The keyring of `keyring:` sources, chosen by `SECCLI_BACKEND` when a source is read.
struct BackendKeyring: SecretKeyring {
    func genericPasswordSecret(service: String, account: String) throws -> SecureBytes {
        guard let backend = getenv(StoreOptions.backendVariable), String(cString: backend) == "openbao" else {
            return try desktopKeyring.genericPasswordSecret(service: service, account: account)
        }
        return try StoreOptions.parse([]).open().genericPasswordSecret(service: service, account: account)
    }
}

/// Parses a secret-source option value, refusing literals without echoing them.
func secretSource(_ text: String, option: String) throws -> SecretSource {
    do {
        return try SecretSource(parsing: text)
    } catch {
        throw ValidationError("\(option): \(error)")
    }
}

/// Reads a key from `source` and decodes it from `format`; decoding errors name `option`.
func readKey(_ source: SecretSource, format: SecretEncoding, option: String = "--key") throws -> SymmetricKey {
    let secret = try source.read(keyring: secretKeyring)
    do {
        return SymmetricKey(try format.decode(secret))
    } catch {
        throw Failure(message: "\(option): \(error)", exitCode: .dataError)
    }
}

/// `--key SOURCE [--key-format raw|hex|base64]` for HMAC keys (raw by default, as openssl dgst -hmac).
struct KeyOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Where to read the key: env:VAR, file:PATH, fd:N, stdin or keyring:SERVICE/ACCOUNT (first line).",
            valueName: "source"
        )
    )
    var key: String

    @Option(help: "How the key bytes are written: raw (as openssl dgst -hmac), hex or base64.")
    var keyFormat: SecretEncoding = .raw

    func source() throws -> SecretSource { try secretSource(key, option: "--key") }

    func validate() throws { _ = try source() }

    func readKey() throws -> SymmetricKey { try seccli.readKey(source(), format: keyFormat) }
}
