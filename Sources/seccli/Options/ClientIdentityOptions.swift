import ArgumentParser
import SecKit

/// The client certificate of `seccli pin` (mutual TLS): PEM certificate and key, or PKCS#12.
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

    func validate() throws {
        if p12 != nil && (cert != nil || key != nil || keyPassword != nil) {
            throw ValidationError("--p12 excludes --cert, --key and --key-password")
        }
        if cert == nil && (key != nil || keyPassword != nil) {
            throw ValidationError("--key and --key-password need --cert")
        }
        if p12 == nil && p12Password != nil { throw ValidationError("--p12-password needs --p12") }
        _ = try keyPassword.map { try secretSource($0, option: "--key-password") }
        _ = try p12Password.map { try secretSource($0, option: "--p12-password") }
    }

    /// The identity, loaded and checked (key matches certificate); nil when none was given.
    func identity() throws -> ClientIdentity? {
        if let p12 {
            let bytes = try SmallFile.read(p12)
            return try ClientIdentity(
                pkcs12: bytes,
                passphrase: try p12Password.map {
                    // Empty is a passphrase here (openssl pkcs12 -passout pass:), distinct from none.
                    try secretSource($0, option: "--p12-password").read(allowingEmpty: true, keyring: secretKeyring)
                }
            )
        }
        guard let cert else { return nil }
        let passphrase = try keyPassword.map {
            try secretSource($0, option: "--key-password").read(keyring: secretKeyring)
        }
        return try ClientIdentity(certificateFile: cert, keyFile: key, passphrase: passphrase)
    }
}
