import ArgumentParser
import SecKit
import SecVault

#if canImport(Glibc)
import Glibc
#endif

/// Where `cred` and `sso` keep credentials.
enum StoreBackend: String, CaseIterable, ExpressibleByArgument {
    /// The user's keyring over D-Bus (gnome-keyring, KeePassXC, KWallet).
    case secretService = "secret-service"
    /// One AES-256-GCM file under a master password, for machines without a Secret Service.
    case file
    /// An OpenBao or Vault server's KV version 2 engine, shared by a fleet (`OpenBaoOptions`).
    case openbao
}

/// The store options of `cred`, `sso`, `git-helper` and the `keyring:` sources (`--cert`… for the
/// OpenBao backend's certificate login).
typealias StoreOptions = StoreOptionGroup<PlainLoginIdentitySpelling>

/// The store options of the `identity` commands, whose `--cert`… name the identity imported: the
/// certificate login's options are `--login-cert`….
typealias IdentityStoreOptions = StoreOptionGroup<PrefixedLoginIdentitySpelling>

/// `--backend`, `--store-file`, `--store-password`, the OpenBao backend's options and `--timeout`,
/// shared by `cred`, `sso` and `identity`. The backend is never chosen silently: the Secret Service
/// unless --backend or SECCLI_BACKEND says file or openbao.
struct StoreOptionGroup<LoginSpelling>: ParsableArguments {
    static var backendVariable: String { "SECCLI_BACKEND" }
    static var storeFileVariable: String { "SECCLI_STORE_FILE" }
    static var defaultPasswordSource: String { "env:SECCLI_STORE_PASSWORD" }
    static var defaultTimeout: Double { 10 }

    @Option(
        help: ArgumentHelp(
            "secret-service, file or openbao. Default: $SECCLI_BACKEND, else secret-service.",
            valueName: "backend"
        )
    )
    var backend: StoreBackend?

    @Option(
        help: ArgumentHelp(
            "The file backend's file. Default: $SECCLI_STORE_FILE, else $XDG_DATA_HOME/seckit/credentials.store (~/.local/share/seckit/…).",
            valueName: "path"
        )
    )
    var storeFile: String?

    @Option(
        help: ArgumentHelp(
            "The file backend's master password: env:VAR, file:PATH, fd:N, stdin or keyring:SERVICE/ACCOUNT (default: env:SECCLI_STORE_PASSWORD).",
            valueName: "source"
        )
    )
    var storePassword: String?

    @OptionGroup var openBao: OpenBaoOptions

    @OptionGroup var loginIdentity: OpenBaoLoginIdentityOptions<LoginSpelling>

    @Option(help: ArgumentHelp("Give up after this many seconds (the store never hangs longer).", valueName: "seconds"))
    var timeout: Double = Self.defaultTimeout

    func validate() throws {
        _ = try resolvedBackend()
        let loginIdentityOptions = loginIdentity.given.filter(\.1).map(\.0)
        // The table is built only for a line that gives one of the options it judges: most give none,
        // and building it is a fifth of what the hot reader costs a `cred get` (docs/performance-journal.md).
        if storeFile != nil || storePassword != nil || openBao.given.contains(where: \.1)
            || !loginIdentityOptions.isEmpty
        {
            try Self.applicability.validate(self)
        }
        if usesOpenBao {
            try openBao.validateForOpenBao(loginIdentityOptions: loginIdentityOptions)
        }
        _ = try passwordSource()
        guard timeout > 0, timeout <= 3600 else {
            throw ValidationError("--timeout must be more than 0 and at most 3600 seconds")
        }
    }

    var timeLimit: Duration { .milliseconds(Int64((timeout * 1000).rounded(.up))) }

    /// True when the file backend will read its master password from standard input.
    var passwordReadsStandardInput: Bool {
        (try? resolvedBackend()) == .file && (try? passwordSource())?.readsStandardInput == true
    }

    /// The largest secret the stores accept.
    var maximumSecretByteCount: Int { SecretServiceStore.maximumSecretByteCount }

    /// The store the options name, keeping new items in `collection` on the Secret Service; the file
    /// backend reads its master password here. Audited when `SECKIT_AUDIT_LOG` names a log.
    func open(collection: SecretServiceCollection = .default) throws -> any CredentialStore {
        switch try resolvedBackend() {
        case .secretService:
            return SecretServiceStore(collection: collection).auditedIfConfigured()
        case .file:
            return try EncryptedFileStore(
                path: resolvedStoreFile(),
                password: try passwordSource().read(keyring: secretKeyring)
            ).auditedIfConfigured()
        case .openbao:
            let configuration = try openBao.configuration { try loginIdentity.loginIdentity(timeout: timeLimit) }
            return try VaultStore(configuration: configuration).auditedIfConfigured()
        }
    }

    /// Refuses `option`, which only the Secret Service has a meaning for, with the file backend.
    func requireSecretService(for option: String) throws {
        let backend = try resolvedBackend()
        if backend != .secretService {
            throw ValidationError(
                "\(option) does not apply to the \(backend.rawValue) backend: it goes with --backend secret-service"
            )
        }
    }

    /// The file backend's options, refused with the Secret Service.
    static var applicability: OptionApplicability<Self> {
        OptionApplicability<Self>(
            rules: [
                .init("--store-file", given: { $0.storeFile != nil }, appliesTo: \.usesFile, "--backend file"),
                .init("--store-password", given: { $0.storePassword != nil }, appliesTo: \.usesFile, "--backend file"),
            ]
                + ["--mount", "--path-prefix", "--login", "--role-id", "--secret-id", "--ca", "--pin"].map { option in
                    .init(
                        option,
                        given: { $0.openBao.given.contains { $0 == (option, true) } },
                        appliesTo: \.usesOpenBao,
                        "--backend openbao"
                    )
                }
                + OpenBaoLoginIdentityOptions<LoginSpelling>.optionNames.map { option in
                    .init(
                        option,
                        given: { $0.loginIdentity.given.contains { $0 == (option, true) } },
                        appliesTo: \.usesOpenBao,
                        "--backend openbao"
                    )
                },
            describe: { "the \(((try? $0.resolvedBackend()) ?? .secretService).rawValue) backend" }
        )
    }

    /// Whether the file backend is used (`validate` has checked the backend's name).
    private var usesFile: Bool { (try? resolvedBackend()) == .file }

    /// Whether the OpenBao backend is used.
    private var usesOpenBao: Bool { (try? resolvedBackend()) == .openbao }

    /// Whether every algorithm the store uses is fixed by its format, so that a process using only
    /// it negotiates nothing: the Secret Service's session and the encrypted file, not OpenBao's TLS.
    var fixesItsAlgorithms: Bool { (try? resolvedBackend()).map { $0 != .openbao } ?? false }

    private func resolvedBackend() throws -> StoreBackend {
        if let backend { return backend }
        guard let text = environment(Self.backendVariable), !text.isEmpty else { return .secretService }
        guard let backend = StoreBackend(rawValue: text) else {
            throw ValidationError("\(Self.backendVariable)=\(text): expected secret-service, file or openbao")
        }
        return backend
    }

    private func passwordSource() throws -> SecretSource {
        try secretSource(storePassword ?? Self.defaultPasswordSource, option: "--store-password")
    }

    private func resolvedStoreFile() throws -> String {
        if let storeFile { return storeFile }
        if let path = environment(Self.storeFileVariable), !path.isEmpty { return path }
        if let data = environment("XDG_DATA_HOME"), data.hasPrefix("/") { return "\(data)/seckit/credentials.store" }
        guard let home = environment("HOME"), !home.isEmpty else {
            throw ValidationError("no --store-file, $SECCLI_STORE_FILE or $HOME: say where the credential file is")
        }
        return "\(home)/.local/share/seckit/credentials.store"
    }

    private func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}

extension StoreOptionGroup: HotReadable {
    static var hotOptions: [HotOption<Self>] {
        [
            .option("--backend") { $0.backend = $1 },
            .option("--store-file") { $0.storeFile = $1 },
            .option("--store-password") { $0.storePassword = $1 },
            .group { $0.openBao = $1 },
            .group { $0.loginIdentity = $1 },
            .option("--timeout", default: defaultTimeout) { $0.timeout = $1 },
        ]
    }
}
