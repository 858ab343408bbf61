import ArgumentParser
import SecKit

/// The options of the sealed formats: jwe, fernet and legacy-json.
struct EnvelopeOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "JWE key management: dir (default with --key), A128KW, A192KW, A256KW; with --password PBES2-HS512+A256KW (default), PBES2-HS384+A192KW, PBES2-HS256+A128KW.",
            valueName: "alg"
        )
    )
    var alg: JWE.KeyManagementAlgorithm?

    @Option(
        help: ArgumentHelp(
            "JWE content encryption: A256GCM (default), A192GCM, A128GCM, A256CBC-HS512, A192CBC-HS384, A128CBC-HS256.",
            valueName: "enc"
        )
    )
    var enc: JWE.ContentEncryptionAlgorithm?

    @Option(help: ArgumentHelp("JWE key ID to put in the header (default: the JWK's kid, if any).", valueName: "id"))
    var kid: String?

    @Option(help: ArgumentHelp("Fernet decrypt: refuse tokens older than this many seconds.", valueName: "seconds"))
    var ttl: Int64?

    @Option(
        help: ArgumentHelp("legacy-json: the HMAC-SHA256 key source (same --key-format as --key).", valueName: "source")
    )
    var macKey: String?

    @Option(
        help: ArgumentHelp(
            "legacy-json: MAC the named string fields of the JSON plaintext, concatenated (the book's request: toAccount,fromAccount,amount,transferDate) instead of the whole plaintext.",
            valueName: "names"
        )
    )
    var macFields: String?

    /// What the legacy MAC covers.
    var macInput: LegacyEnvelope.MACInput {
        guard let macFields else { return .plaintext }
        return .fields(macFields.split(separator: ",").map { String($0.trimmingPrefix(while: \.isWhitespace)) })
    }

    /// Checks that `format` gets what it needs (the options it does not take are refused by
    /// `CipherOptions.applicability`).
    func validate(for format: PayloadFormat, hasPassword: Bool, keyCount: Int) throws {
        switch format {
        case .jwe:
            guard hasPassword != (keyCount > 0) else {
                throw ValidationError("--format jwe takes --key SOURCE or --password SOURCE")
            }
            if let alg, alg.usesPassword != hasPassword {
                throw ValidationError("--alg \(alg) takes \(alg.usesPassword ? "--password" : "--key")")
            }
        case .fernet:
            guard !hasPassword else {
                throw ValidationError("--format fernet takes --key (a Fernet key), not --password")
            }
            guard keyCount > 0 else { throw ValidationError("--format fernet needs --key SOURCE") }
            if let ttl, ttl < 0 { throw ValidationError("--ttl must not be negative") }
        case .legacyJSON:
            guard !hasPassword else {
                throw ValidationError("--format legacy-json takes --key and --mac-key, not --password")
            }
            guard keyCount == 1, macKey != nil else {
                throw ValidationError("--format legacy-json needs --key SOURCE and --mac-key SOURCE")
            }
            if case .fields(let names) = macInput, names.isEmpty || names.contains(where: \.isEmpty) {
                throw ValidationError("--mac-fields takes comma-separated field names")
            }
        case .openssl, .raw:
            break
        }
    }
}
