import ArgumentParser
import SecKit
import SecVault

#if canImport(Glibc)
import Glibc
#endif

/// How `--backend openbao` logs in.
enum OpenBaoLoginMethod: String, CaseIterable, ExpressibleByArgument {
    /// `$BAO_TOKEN`, `$VAULT_TOKEN`, then the token file `~/.vault-token`.
    case token
    /// AppRole, with `--role-id` and `--secret-id` from secret sources.
    case approle
    /// TLS certificate login with a client identity (`OpenBaoLoginIdentityOptions`).
    case cert
}

/// The settings of `--backend openbao`, read like the `bao` CLI's and `seccli pin`'s: each option
/// has an environment variable, so `sso` and `git-helper` (which git starts) reach the same store
/// without options. The server's address is `$BAO_ADDR`, then `$VAULT_ADDR`.
struct OpenBaoOptions: ParsableArguments {
    static let mountVariable = "SECCLI_OPENBAO_MOUNT"
    static let pathPrefixVariable = "SECCLI_OPENBAO_PATH_PREFIX"
    static let loginVariable = "SECCLI_OPENBAO_LOGIN"
    static let roleIDVariable = "SECCLI_OPENBAO_ROLE_ID"
    static let secretIDVariable = "SECCLI_OPENBAO_SECRET_ID"
    static let pinVariable = "SECCLI_OPENBAO_PIN"

    @Option(
        help: ArgumentHelp(
            "OpenBao: the KV version 2 mount. Default: $SECCLI_OPENBAO_MOUNT, else secret.",
            valueName: "path"
        )
    )
    var mount: String?

    @Option(
        help: ArgumentHelp(
            "OpenBao: the folder of the items in the mount. Default: $SECCLI_OPENBAO_PATH_PREFIX, else seckit.",
            valueName: "path"
        )
    )
    var pathPrefix: String?

    @Option(
        help: ArgumentHelp(
            "OpenBao: token ($BAO_TOKEN, $VAULT_TOKEN, ~/.vault-token), approle or cert. Default: $SECCLI_OPENBAO_LOGIN, else token.",
            valueName: "method"
        )
    )
    var login: OpenBaoLoginMethod?

    @Option(
        help: ArgumentHelp(
            "OpenBao AppRole: the role ID's source (env:VAR, file:PATH, fd:N, stdin). Default: $SECCLI_OPENBAO_ROLE_ID.",
            valueName: "source"
        )
    )
    var roleId: String?

    @Option(
        help: ArgumentHelp(
            "OpenBao AppRole: the secret ID's source (env:VAR, file:PATH, fd:N, stdin). Default: $SECCLI_OPENBAO_SECRET_ID.",
            valueName: "source"
        )
    )
    var secretId: String?

    @Option(
        help: ArgumentHelp(
            "OpenBao: the CA certificates (PEM) of the server. Default: $BAO_CACERT, $VAULT_CACERT, else the system's.",
            valueName: "file"
        )
    )
    var ca: String?

    @Option(
        help: ArgumentHelp(
            "OpenBao: a pin of the server's chain (sha256/BASE64 or a certificate fingerprint), repeatable; none matching refuses the server before any request (exit 3). Default: $SECCLI_OPENBAO_PIN (pins separated by commas).",
            valueName: "pin"
        )
    )
    var pin: [String] = []

    /// The options that only `--backend openbao` reads.
    var given: [(String, Bool)] {
        [
            ("--mount", mount != nil), ("--path-prefix", pathPrefix != nil), ("--login", login != nil),
            ("--role-id", roleId != nil), ("--secret-id", secretId != nil), ("--ca", ca != nil),
            ("--pin", !pin.isEmpty),
        ]
    }

    func validate() throws {
        for pin in pins { _ = try parsePin(pin) }
        for (option, text) in [("--role-id", roleId), ("--secret-id", secretId)] {
            if let text { _ = try secretSource(text, option: option) }
        }
    }

    /// The checks that apply once the OpenBao backend is chosen (`StoreOptions.validate`);
    /// `loginIdentityOptions` are the certificate login's options given on the command line.
    func validateForOpenBao(loginIdentityOptions: [String]) throws {
        let login = try resolvedLogin()
        if login != .approle, roleId != nil || secretId != nil {
            throw ValidationError("--role-id and --secret-id go with --login approle")
        }
        if login != .cert, let option = loginIdentityOptions.first {
            throw ValidationError("\(option) goes with --login cert")
        }
    }

    /// The store's configuration: the environment's (address, token, CA, namespace, server name),
    /// then these options; `loginIdentity` gives the client identity of `--login cert`.
    func configuration(loginIdentity: () throws -> ClientIdentity) throws -> VaultConfiguration {
        let environment = ProcessInfo.processInfo.environment
        let settings = VaultEnvironment(environment)
        guard let addressText = settings["ADDR"] else {
            throw ValidationError("--backend openbao needs the server's address: set BAO_ADDR (or VAULT_ADDR)")
        }
        var tls = TLSClientConfiguration()
        if let caFile = ca ?? settings["CACERT"] { tls.trustRoots = .caFile(caFile) }
        tls.serverName = settings["TLS_SERVER_NAME"]
        let address = try VaultAddress(parsing: addressText)
        if !pins.isEmpty {
            tls.pinPolicy = try PinPolicy(host: tls.serverName ?? address.host, pins: try pins.map(parsePin))
        }
        let login: VaultLogin
        switch try resolvedLogin() {
        case .token:
            login = .token(try VaultLogin.environmentToken(environment))
        case .approle:
            login = .appRole(
                roleID: try source(roleId, Self.roleIDVariable, option: "--role-id").read(keyring: desktopKeyring),
                secretID: try source(secretId, Self.secretIDVariable, option: "--secret-id").read(
                    keyring: desktopKeyring
                )
            )
        case .cert:
            tls.clientIdentity = try loginIdentity()
            login = .certificate()
        }
        return VaultConfiguration(
            address: address,
            login: login,
            tls: tls,
            namespace: settings["NAMESPACE"],
            mount: mount ?? nonEmptyVariable(Self.mountVariable) ?? VaultConfiguration.defaultMount,
            pathPrefix: pathPrefix ?? nonEmptyVariable(Self.pathPrefixVariable) ?? VaultConfiguration.defaultPathPrefix
        )
    }

    private var pins: [String] {
        if !pin.isEmpty { return pin }
        return (nonEmptyVariable(Self.pinVariable) ?? "").split(separator: ",").map { String($0) }.filter {
            !$0.isEmpty
        }
    }

    private func parsePin(_ text: String) throws -> Pin {
        do {
            return try Pin(parsing: text)
        } catch {
            throw ValidationError("--pin \(UntrustedText.quoted(text, maximumLength: 80)): \(error)")
        }
    }

    func resolvedLogin() throws -> OpenBaoLoginMethod {
        if let login { return login }
        guard let text = nonEmptyVariable(Self.loginVariable) else { return .token }
        guard let method = OpenBaoLoginMethod(rawValue: text) else {
            throw ValidationError("\(Self.loginVariable)=\(text): expected token, approle or cert")
        }
        return method
    }

    private func source(_ option: String?, _ variable: String, option name: String) throws -> SecretSource {
        guard let text = option ?? nonEmptyVariable(variable) else {
            throw ValidationError("--login approle needs \(name) SOURCE (or $\(variable))")
        }
        return try secretSource(text, option: name)
    }

}

/// The value of the environment variable `name`; nil when it is unset or empty.
func nonEmptyVariable(_ name: String) -> String? {
    guard let value = getenv(name).map({ String(cString: $0) }), !value.isEmpty else { return nil }
    return value
}

extension OpenBaoOptions: HotReadable {
    static var hotOptions: [HotOption<Self>] {
        [
            .option("--mount") { $0.mount = $1 },
            .option("--path-prefix") { $0.pathPrefix = $1 },
            .option("--login") { $0.login = $1 },
            .option("--role-id") { $0.roleId = $1 },
            .option("--secret-id") { $0.secretId = $1 },
            .option("--ca") { $0.ca = $1 },
            .repeatable("--pin") { $0.pin = $1 },
        ]
    }
}
