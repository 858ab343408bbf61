import ArgumentParser
import SecKit

/// The client certificate of `seccli pin` (mutual TLS) and the identity `identity import` stores:
/// PEM certificate and key, or PKCS#12.
struct ClientIdentityOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Client certificate chain, PEM (may also hold the key).", valueName: "file"))
    var cert: String?

    @Option(
        help: ArgumentHelp("Private key of --cert, PEM (PKCS#8, PKCS#1 or SEC1, encrypted or not).", valueName: "file")
    )
    var key: String?

    @Option(
        help: ArgumentHelp(
            "Passphrase of an encrypted --key: env:VAR, file:PATH, fd:N, stdin or keyring:SERVICE/ACCOUNT.",
            valueName: "source"
        )
    )
    var keyPassword: String?

    @Option(help: ArgumentHelp("Client certificate and key in a PKCS#12 file (.p12, .pfx).", valueName: "file"))
    var p12: String?

    @Option(
        help: ArgumentHelp(
            "Passphrase of --p12: env:VAR, file:PATH, fd:N, stdin or keyring:SERVICE/ACCOUNT (omit for a file without one).",
            valueName: "source"
        )
    )
    var p12Password: String?

    private var files: ClientIdentityFiles {
        ClientIdentityFiles(cert: cert, key: key, keyPassword: keyPassword, p12: p12, p12Password: p12Password)
    }

    func validate() throws { try files.validate(optionPrefix: "--") }

    /// The identity, loaded and checked (key matches certificate); nil when none was given.
    func identity() throws -> ClientIdentity? { try files.load(optionPrefix: "--", keyring: secretKeyring) }
}

/// A client identity named by files: a PEM certificate chain with its key (which may be in the same
/// file, encrypted or not), or a PKCS#12 file; the passphrases are secret sources. Shared by
/// `ClientIdentityOptions` and the OpenBao backend's certificate login, which spell the options
/// with their own prefix (`--cert`, `--login-cert`).
struct ClientIdentityFiles {
    var cert: String?
    var key: String?
    var keyPassword: String?
    var p12: String?
    var p12Password: String?

    /// Whether any file or passphrase is named.
    var isEmpty: Bool { [cert, key, keyPassword, p12, p12Password].allSatisfy { $0 == nil } }

    /// Refuses combinations that name no single identity; `optionPrefix` spells the options in the message.
    func validate(optionPrefix prefix: String) throws {
        if p12 != nil && (cert != nil || key != nil || keyPassword != nil) {
            throw ValidationError("\(prefix)p12 excludes \(prefix)cert, \(prefix)key and \(prefix)key-password")
        }
        if cert == nil && (key != nil || keyPassword != nil) {
            throw ValidationError("\(prefix)key and \(prefix)key-password need \(prefix)cert")
        }
        if p12 == nil && p12Password != nil { throw ValidationError("\(prefix)p12-password needs \(prefix)p12") }
        _ = try keyPassword.map { try secretSource($0, option: "\(prefix)key-password") }
        _ = try p12Password.map { try secretSource($0, option: "\(prefix)p12-password") }
    }

    /// The identity, loaded and checked (key matches certificate); nil when no file is named.
    /// `keyring` reads `keyring:` passphrase sources.
    func load(optionPrefix prefix: String, keyring: some SecretKeyring) throws -> ClientIdentity? {
        if let p12 {
            let bytes = try SmallFile.read(p12)
            return try ClientIdentity(
                pkcs12: bytes,
                passphrase: try p12Password.map {
                    // Empty is a passphrase here (openssl pkcs12 -passout pass:), distinct from none.
                    try secretSource($0, option: "\(prefix)p12-password").read(allowingEmpty: true, keyring: keyring)
                }
            )
        }
        guard let cert else { return nil }
        let passphrase = try keyPassword.map {
            try secretSource($0, option: "\(prefix)key-password").read(keyring: keyring)
        }
        return try ClientIdentity(certificateFile: cert, keyFile: key, passphrase: passphrase)
    }
}
