import ArgumentParser
import SecKit

/// What names an item for `cred set/get/delete` and narrows `cred list`: a generic password by
/// `--service` and `--account`, an internet password by `--server` and `--account` (with optional
/// protocol, port, path, authentication type and HTTP realm); either in an optional `--group`.
struct CredentialOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Generic password: the service (secret-tool's and Python keyring's 'service').",
            valueName: "name"
        )
    )
    var service: String?

    @Option(help: ArgumentHelp("The account or user name.", valueName: "name"))
    var account: String?

    @Option(
        help: ArgumentHelp(
            "Access group: a namespace shared by a family of tools (not an isolation boundary).",
            valueName: "name"
        )
    )
    var group: String?

    @Option(help: ArgumentHelp("Internet password: the host name or address.", valueName: "host"))
    var server: String?

    @Option(
        name: .customLong("protocol"),
        help: ArgumentHelp("Internet password: the protocol (https, ssh, imap, …).", valueName: "name")
    )
    var networkProtocol: String?

    @Option(help: ArgumentHelp("Internet password: the port (1-65535).", valueName: "n"))
    var port: Int?

    @Option(help: ArgumentHelp("Internet password: the path on the server.", valueName: "path"))
    var path: String?

    @Option(
        name: .customLong("auth-type"),
        help: ArgumentHelp("Internet password: the authentication type (basic, digest, ntlm, …).", valueName: "name")
    )
    var authenticationType: String?

    @Option(
        help: ArgumentHelp(
            "Internet password: the HTTP realm the server names in its challenge (secret-tool's 'realm').",
            valueName: "text"
        )
    )
    var realm: String?

    /// The internet password's options, refused without `--server`.
    static let applicability = OptionApplicability<Self>(
        rules: [
            internetOption("--protocol") { $0.networkProtocol != nil },
            internetOption("--port") { $0.port != nil },
            internetOption("--path") { $0.path != nil },
            internetOption("--auth-type") { $0.authenticationType != nil },
            internetOption("--realm") { $0.realm != nil },
        ],
        describe: { $0.service == nil ? "an item without --server" : "a generic password (--service)" }
    )

    private static func internetOption(
        _ option: String,
        given: @escaping @Sendable (Self) -> Bool
    ) -> OptionApplicability<Self>.Rule {
        .init(option, given: given, appliesTo: { $0.server != nil }, "--server (an internet password)")
    }

    func validate() throws {
        if service != nil && server != nil {
            throw ValidationError("--service names a generic password, --server an internet password: give one of them")
        }
        try Self.applicability.validate(self)
        if let port, !(1...65535).contains(port) { throw ValidationError("--port must be between 1 and 65535") }
    }

    /// The identity of one item: `--service` or `--server`, and `--account`, are required.
    func identity() throws -> CredentialIdentity {
        guard let account else { throw ValidationError("missing --account") }
        if let service { return .genericPassword(service: service, account: account, accessGroup: group) }
        if let server {
            return .internetPassword(
                server: server,
                account: account,
                protocol: networkProtocol,
                port: port,
                path: path,
                authenticationType: authenticationType,
                realm: realm,
                accessGroup: group
            )
        }
        throw ValidationError("missing --service (generic password) or --server (internet password)")
    }

    /// Every option given must match; none given lists everything.
    var search: CredentialQuery {
        CredentialQuery(
            itemClass: service != nil ? .genericPassword : server != nil ? .internetPassword : nil,
            service: service,
            account: account,
            accessGroup: group,
            server: server,
            protocol: networkProtocol,
            port: port,
            path: path,
            authenticationType: authenticationType,
            realm: realm,
            limit: .all
        )
    }
}

extension CredentialOptions: HotReadable {
    static var hotOptions: [HotOption<Self>] {
        [
            .option("--service") { $0.service = $1 },
            .option("--account") { $0.account = $1 },
            .option("--group") { $0.group = $1 },
            .option("--server") { $0.server = $1 },
            .option("--protocol") { $0.networkProtocol = $1 },
            .option("--port") { $0.port = $1 },
            .option("--path") { $0.path = $1 },
            .option("--auth-type") { $0.authenticationType = $1 },
            .option("--realm") { $0.realm = $1 },
        ]
    }
}

/// `--label`, `--comment` and `--expires` of `cred set`.
struct CredentialAttributeOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The name keyring managers show (default: chosen from service and account).",
            valueName: "text"
        )
    )
    var label: String?

    @Option(help: ArgumentHelp("Free text stored with the item.", valueName: "text"))
    var comment: String?

    @Option(
        help: ArgumentHelp(
            "When the secret stops being valid, ISO 8601 (2026-12-31T23:59:59Z or 2026-12-31).",
            valueName: "date"
        )
    )
    var expires: ExpiryDate?

    func attributes() throws -> CredentialAttributes {
        CredentialAttributes(label: label, comment: comment, expiresAt: try expires?.date())
    }
}

/// An ISO 8601 date and time with a zone (`2026-12-31T23:59:59Z`, `…+02:00`, minutes or fractional
/// seconds allowed) or a calendar date (`2026-12-31`, midnight UTC), parsed strictly when used.
struct ExpiryDate: ExpressibleByArgument {
    private let text: String

    init?(argument: String) { text = argument }

    /// The date; anything else, an impossible day such as 2026-02-30 included, is a data error
    /// (exit 2) that names the accepted forms.
    func date() throws -> Date {
        guard let date = CredentialAttributes.expiryDate(parsing: text) else {
            throw Failure(
                message:
                    "--expires is not a valid date: give a day (2026-12-31, midnight UTC) or a day and time with a zone (2026-12-31T23:59Z, 2026-12-31T23:59:59Z, 2026-12-31T23:59:59+02:00)",
                exitCode: .dataError
            )
        }
        return date
    }
}
