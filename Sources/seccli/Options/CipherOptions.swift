import ArgumentParser
import SecKit

extension CipherAlgorithm: ExpressibleByArgument {}

/// The options shared by `encrypt` and `decrypt`.
struct CipherOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "openssl (default with --password), raw (default with --key), jwe, fernet or legacy-json.",
            valueName: "format"
        )
    )
    var format: PayloadFormat?

    @Option(
        help: ArgumentHelp(
            "Cipher for openssl and raw. Default: aes-256-cbc with --password, aes-256-gcm with --key. des-ede3-cbc and des-ede-cbc are legacy.",
            valueName: "cipher"
        )
    )
    var cipher: CipherAlgorithm?

    @Option(
        help: ArgumentHelp(
            "Password source (env:VAR, file:PATH, fd:N, stdin, keyring:SERVICE/ACCOUNT): the openssl enc -pbkdf2 format, or JWE PBES2.",
            valueName: "source"
        )
    )
    var password: String?

    @Option(
        help: ArgumentHelp(
            "PBKDF2 iterations: as openssl -iter (default 10000, not stored in the file); for JWE PBES2 stored in the token (default: 210000 for PBES2-HS512+A256KW).",
            valueName: "n"
        )
    )
    var iter: Int?

    @Option(help: "PBKDF2 digest of --format openssl, as openssl -md (default: sha256).")
    var md: PBKDF2Hash?

    @Option(
        help: ArgumentHelp(
            "Key source (env:VAR, file:PATH, fd:N, stdin, keyring:SERVICE/ACCOUNT). To decrypt jwe or fernet, repeat it to try several keys (rotation).",
            valueName: "source"
        )
    )
    var key: [String] = []

    @Option(
        help: ArgumentHelp(
            "How --key and --mac-key are written: raw, hex, base64, base64url or jwk. Default: hex for openssl/raw, jwk for jwe, base64url for fernet, raw for legacy-json.",
            valueName: "format"
        )
    )
    var keyFormat: KeyFormat?

    @Option(help: ArgumentHelp("IV (CBC) or nonce (GCM) in hex, with --key, as openssl -iv.", valueName: "hex"))
    var iv: String?

    @OptionGroup var envelope: EnvelopeOptions

    @Option(name: .customLong("in"), help: ArgumentHelp("Input file (default: standard input).", valueName: "file"))
    var inputPath: String?

    @Option(
        name: .customLong("out"),
        help: ArgumentHelp(
            "Output file (default: standard output). Written to a temporary file and renamed only on success.",
            valueName: "file"
        )
    )
    var outputPath: String?

    @Flag(name: [.customShort("a"), .customLong("base64")], help: "Base64 armour, as openssl -a (64-character lines).")
    var base64 = false

    @Flag(name: .customShort("A"), help: "With -a: base64 on one line, as openssl -A.")
    var singleLine = false

    /// Where the key material of the streaming formats comes from.
    enum Keying {
        case password(SecretSource)
        case key(SecretSource, iv: String)
    }

    var input: FileInput { inputPath.map { $0 == "-" ? .standardInput : .path($0) } ?? .standardInput }

    var resolvedFormat: PayloadFormat { format ?? (password != nil ? .openssl : .raw) }

    var resolvedKeyFormat: KeyFormat { keyFormat ?? resolvedFormat.defaultKeyFormat }

    /// The PBKDF2 digest of the openssl enc format.
    var digest: HashAlgorithm { (md ?? .sha256).algorithm }

    /// The keying of the streaming formats (validation allows them one `--key` only).
    func keying() throws -> Keying {
        switch (password, key.first) {
        case (let password?, nil):
            guard iv == nil else {
                throw ValidationError("--iv goes with --key; with --password the IV is derived from it")
            }
            return .password(try secretSource(password, option: "--password"))
        case (nil, let key?):
            guard let iv else { throw ValidationError("--key needs --iv (hex)") }
            return .key(try secretSource(key, option: "--key"), iv: iv)
        case (nil, nil):
            throw ValidationError("give --password SOURCE (openssl enc format) or --key SOURCE with --iv HEX")
        case (_?, _?):
            throw Self.passwordAndKey
        }
    }

    private static let passwordAndKey = ValidationError("--password and --key cannot be combined")

    func resolvedCipher(for keying: Keying) -> CipherAlgorithm {
        if let cipher { return cipher }
        if case .password = keying { return .aes256CBC }
        return .aes256GCM
    }

    /// The secret sources the options name, each at most once.
    func secretSources() throws -> [SecretSource] {
        var sources = try key.map { try secretSource($0, option: "--key") }
        if let password { sources.append(try secretSource(password, option: "--password")) }
        if let macKey = envelope.macKey { sources.append(try secretSource(macKey, option: "--mac-key")) }
        return sources
    }

    /// Validates the options for encrypting or decrypting: first the options that do not apply
    /// to this use (`applicability`), then what the format needs.
    func validate(for direction: CipherStream.Direction) throws {
        // Which keying is meant decides what applies.
        if password != nil && !key.isEmpty { throw Self.passwordAndKey }
        try Self.applicability.validate(CipherUse(options: self, direction: direction))
        let format = resolvedFormat
        if let iter, iter < 1 { throw ValidationError("--iter must be at least 1") }
        if format.isEnvelope {
            try envelope.validate(for: format, hasPassword: password != nil, keyCount: key.count)
        } else {
            try validateStream(format)
        }
        let sources = try secretSources()
        if sources.filter(\.readsStandardInput).count > 1 {
            throw ValidationError("only one secret can come from standard input")
        }
        if sources.contains(where: \.readsStandardInput) && (inputPath == nil || inputPath == "-") {
            throw ValidationError("the secret and the input cannot both come from standard input: use --in FILE")
        }
    }

    private func validateStream(_ format: PayloadFormat) throws {
        let keying = try keying()
        switch keying {
        case .password:
            guard format == .openssl else { throw ValidationError("--format raw takes --key and --iv, not --password") }
            guard !resolvedCipher(for: keying).isGCM else {
                throw ValidationError(
                    "the openssl enc format cannot carry GCM (it has no tag): use a CBC cipher, or --key with --iv"
                )
            }
        case .key:
            guard format == .raw else {
                throw ValidationError("--format openssl takes --password; --key with --iv writes --format raw")
            }
        }
    }

    /// Which option applies to which format and direction: every option not listed applies to all.
    static let applicability = OptionApplicability<CipherUse>(
        rules: [
            .init("--cipher", given: { $0.options.cipher != nil }, appliesTo: \.streams, "--format openssl or raw"),
            .init("--iv", given: { $0.options.iv != nil }, appliesTo: { $0.format == .raw }, "--key in --format raw"),
            .init("-a", given: \.options.base64, appliesTo: \.streams, "--format openssl or raw"),
            .init("-A", given: \.options.singleLine, appliesTo: { $0.streams && $0.options.base64 }, "-a"),
            .init("--md", given: { $0.options.md != nil }, appliesTo: { $0.format == .openssl }, "--format openssl"),
            .init(
                "--iter",
                given: { $0.options.iter != nil },
                appliesTo: {
                    $0.format == .openssl || ($0.format == .jwe && $0.usesPassword && $0.direction == .encrypt)
                },
                "--format openssl, or encrypt --format jwe --password (decrypt reads p2c from the token)"
            ),
            .init("--key-format", given: { $0.options.keyFormat != nil }, appliesTo: { !$0.usesPassword }, "--key"),
            .init(
                "--key-format jwk",
                given: { $0.options.keyFormat == .jwk },
                appliesTo: { $0.format == .jwe },
                "--format jwe"
            ),
            .init(
                "a second --key",
                given: { $0.options.key.count > 1 },
                appliesTo: { $0.direction == .decrypt && ($0.format == .jwe || $0.format == .fernet) },
                "decrypt --format jwe or fernet (several keys tried in turn)"
            ),
            .init("--alg", given: { $0.options.envelope.alg != nil }, appliesTo: { $0.format == .jwe }, "--format jwe"),
            .init("--enc", given: { $0.options.envelope.enc != nil }, appliesTo: { $0.format == .jwe }, "--format jwe"),
            .init(
                "--kid",
                given: { $0.options.envelope.kid != nil },
                appliesTo: { $0.format == .jwe && $0.direction == .encrypt },
                "encrypt --format jwe (decrypt reads it from the token)"
            ),
            .init(
                "--ttl",
                given: { $0.options.envelope.ttl != nil },
                appliesTo: { $0.format == .fernet && $0.direction == .decrypt },
                "decrypt --format fernet"
            ),
            .init(
                "--mac-key",
                given: { $0.options.envelope.macKey != nil },
                appliesTo: { $0.format == .legacyJSON },
                "--format legacy-json"
            ),
            .init(
                "--mac-fields",
                given: { $0.options.envelope.macFields != nil },
                appliesTo: { $0.format == .legacyJSON },
                "--format legacy-json"
            ),
        ],
        describe: { use in
            let keying = use.usesPassword ? " --password" : use.options.key.isEmpty ? "" : " --key"
            return "\(use.direction) --format \(use.format.rawValue)\(keying)"
        }
    )
}

/// What an `encrypt` or `decrypt` command line asks for: its options, used in one direction.
struct CipherUse {
    let options: CipherOptions
    let direction: CipherStream.Direction

    var format: PayloadFormat { options.resolvedFormat }
    var usesPassword: Bool { options.password != nil }
    /// openssl and raw, the formats that stream.
    var streams: Bool { !format.isEnvelope }
}
