import ArgumentParser
import SecKit
import SecVault

/// How a command spells the options of the OpenBao backend's certificate login: the names of
/// `seccli pin` (`--cert`, `--key`, `--p12`, `--identity`…), or in the `identity` commands, where
/// `--cert` and its kin name the identity being imported, all with `login-` (`--login-cert`…), in
/// every subcommand alike (docs/seccli.md). A marker type, the generic argument of the options:
/// no protocol constrains it, since checking a conformance at run time (the generic types are
/// instantiated by name) scans every conformance of the binary, about 1 M instructions of each
/// `cred get`'s start-up (docs/performance-journal.md).
enum PlainLoginIdentitySpelling {}

/// `--login-cert`, `--login-key`…, for the `identity` commands.
enum PrefixedLoginIdentitySpelling {}

/// The TLS client identity of `--login cert`: PEM files, PKCS#12 or an identity stored with
/// `seccli identity import` in the Secret Service (never in the store it logs in to). Each option
/// has a variable; passphrases come from secret sources only.
struct OpenBaoLoginIdentityOptions<Spelling>: ParsableArguments {
    /// What comes between `--` and each option's own name.
    static var prefix: String { Spelling.self == PrefixedLoginIdentitySpelling.self ? "login-" : "" }

    static var keyPasswordVariable: String { "SECCLI_OPENBAO_KEY_PASSWORD" }
    static var p12Variable: String { "SECCLI_OPENBAO_P12" }
    static var p12PasswordVariable: String { "SECCLI_OPENBAO_P12_PASSWORD" }
    static var identityVariable: String { "SECCLI_OPENBAO_IDENTITY" }

    /// `--cert` as this command spells it.
    static func option(_ name: String) -> String { "--" + prefix + name }

    @Option(
        name: .customLong(Self.prefix + "cert"),
        help: ArgumentHelp(
            "OpenBao cert login: the client certificate chain, PEM (may also hold the key). Default: $BAO_CLIENT_CERT, else $VAULT_CLIENT_CERT.",
            valueName: "file"
        )
    )
    var cert: String?

    @Option(
        name: .customLong(Self.prefix + "key"),
        help: ArgumentHelp(
            "OpenBao cert login: the key of the certificate, PEM. Default: $BAO_CLIENT_KEY with $BAO_CLIENT_CERT (VAULT_…), else the certificate's file.",
            valueName: "file"
        )
    )
    var key: String?

    @Option(
        name: .customLong(Self.prefix + "key-password"),
        help: ArgumentHelp(
            "OpenBao cert login: the passphrase source of an encrypted key (env:VAR, file:PATH, fd:N, stdin, keyring:SERVICE/ACCOUNT). Default: $SECCLI_OPENBAO_KEY_PASSWORD.",
            valueName: "source"
        )
    )
    var keyPassword: String?

    @Option(
        name: .customLong(Self.prefix + "p12"),
        help: ArgumentHelp(
            "OpenBao cert login: certificate and key in a PKCS#12 file. Default: $SECCLI_OPENBAO_P12.",
            valueName: "file"
        )
    )
    var p12: String?

    @Option(
        name: .customLong(Self.prefix + "p12-password"),
        help: ArgumentHelp(
            "OpenBao cert login: the PKCS#12 file's passphrase source. Default: $SECCLI_OPENBAO_P12_PASSWORD.",
            valueName: "source"
        )
    )
    var p12Password: String?

    @Option(
        name: .customLong(Self.prefix + "identity"),
        help: ArgumentHelp(
            "OpenBao cert login: an identity stored with 'seccli identity import' in the Secret Service. Default: $SECCLI_OPENBAO_IDENTITY.",
            valueName: "name"
        )
    )
    var identity: String?

    /// The options, as this command spells them, in the order of `given`.
    static var optionNames: [String] {
        ["cert", "key", "key-password", "p12", "p12-password", "identity"].map(option)
    }

    /// The options given, by the names this command spells them with.
    var given: [(String, Bool)] {
        Array(zip(Self.optionNames, [cert, key, keyPassword, p12, p12Password, identity].map { $0 != nil }))
    }

    private var files: ClientIdentityFiles {
        ClientIdentityFiles(cert: cert, key: key, keyPassword: keyPassword, p12: p12, p12Password: p12Password)
    }

    func validate() throws {
        try files.validate(optionPrefix: Self.option(""))
        if identity != nil, !files.isEmpty {
            throw ValidationError("\(Self.option("identity")) excludes the certificate and PKCS#12 options")
        }
    }

    /// The login identity: the options' choice, else the variables' (a stored identity, then a
    /// PKCS#12 file, then `BAO_CLIENT_CERT`/`VAULT_CLIENT_CERT` with its key). Passphrase and
    /// `keyring:` sources are read from the Secret Service, as the stored identity is.
    ///
    /// - Parameter timeout: the time the Secret Service has to answer.
    func loginIdentity(timeout: Duration) throws -> ClientIdentity {
        var files = files
        var name = identity
        if files.cert == nil && files.p12 == nil && name == nil {
            name = nonEmptyVariable(Self.identityVariable)
            files.p12 = nonEmptyVariable(Self.p12Variable)
            if name != nil && files.p12 != nil {
                throw ValidationError(
                    "$\(Self.identityVariable) and $\(Self.p12Variable) both name the cert login's identity: unset one"
                )
            }
            if name == nil && files.p12 == nil {
                let settings = VaultEnvironment(ProcessInfo.processInfo.environment)
                files.cert = settings["CLIENT_CERT"]
                files.key = settings["CLIENT_KEY"]
            }
        }
        if let name {
            return try IdentityStore(store: desktopKeyring, timeout: timeout).identity(named: name)
        }
        if files.p12 != nil { files.p12Password = files.p12Password ?? nonEmptyVariable(Self.p12PasswordVariable) }
        if files.cert != nil { files.keyPassword = files.keyPassword ?? nonEmptyVariable(Self.keyPasswordVariable) }
        guard let loaded = try files.load(optionPrefix: Self.option(""), keyring: desktopKeyring) else {
            throw ValidationError(
                "--login cert needs the client identity: \(Self.option("cert")) FILE [\(Self.option("key")) FILE], \(Self.option("p12")) FILE or \(Self.option("identity")) NAME (or $BAO_CLIENT_CERT, $\(Self.p12Variable), $\(Self.identityVariable))"
            )
        }
        return loaded
    }
}

extension OpenBaoLoginIdentityOptions: HotReadable {
    static var hotOptions: [HotOption<Self>] {
        [
            .option(option("cert")) { $0.cert = $1 },
            .option(option("key")) { $0.key = $1 },
            .option(option("key-password")) { $0.keyPassword = $1 },
            .option(option("p12")) { $0.p12 = $1 },
            .option(option("p12-password")) { $0.p12Password = $1 },
            .option(option("identity")) { $0.identity = $1 },
        ]
    }
}
