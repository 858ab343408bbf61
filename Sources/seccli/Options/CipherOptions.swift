import ArgumentParser
import SecKit

extension CipherAlgorithm: ExpressibleByArgument {}

/// The options shared by `encrypt` and `decrypt`.
struct CipherOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Cipher. Default: aes-256-cbc with --password (openssl enc format), aes-256-gcm with --key. des-ede3-cbc and des-ede-cbc are legacy.",
        valueName: "cipher"))
    var cipher: CipherAlgorithm?

    @Option(help: ArgumentHelp(
        "Password source (env:VAR, file:PATH, fd:N, stdin): the 'openssl enc -pbkdf2' format.", valueName: "source"))
    var password: String?

    @Option(help: "PBKDF2 iterations with --password, as openssl -iter (not stored in the file).")
    var iter: Int = OpenSSLEncFormat.defaultIterations

    @Option(help: "PBKDF2 digest with --password, as openssl -md.")
    var md: PBKDF2Hash = .sha256

    @Option(help: ArgumentHelp("Key source (env:VAR, file:PATH, fd:N, stdin): raw output, as openssl -K.", valueName: "source"))
    var key: String?

    @Option(help: "How the --key bytes are written: hex (as openssl -K), raw or base64.")
    var keyFormat: SecretEncoding = .hex

    @Option(help: ArgumentHelp("IV (CBC) or nonce (GCM) in hex, with --key, as openssl -iv.", valueName: "hex"))
    var iv: String?

    @Option(name: .customLong("in"), help: ArgumentHelp("Input file (default: standard input).", valueName: "file"))
    var inputPath: String?

    @Option(name: .customLong("out"), help: ArgumentHelp(
        "Output file (default: standard output). Written to a temporary file and renamed only on success.", valueName: "file"))
    var outputPath: String?

    @Flag(name: [.customShort("a"), .customLong("base64")], help: "Base64 armour, as openssl -a (64-character lines).")
    var base64 = false

    @Flag(name: .customShort("A"), help: "With -a: base64 on one line, as openssl -A.")
    var singleLine = false

    /// Where the key material comes from.
    enum Keying {
        case password(SecretSource)
        case key(SecretSource, iv: String)
    }

    var input: FileInput { inputPath.map { $0 == "-" ? .standardInput : .path($0) } ?? .standardInput }

    func keying() throws -> Keying {
        switch (password, key) {
        case (let password?, nil):
            guard iv == nil else { throw ValidationError("--iv goes with --key; with --password the IV is derived from it") }
            return .password(try secretSource(password, option: "--password"))
        case (nil, let key?):
            guard let iv else { throw ValidationError("--key needs --iv (hex)") }
            return .key(try secretSource(key, option: "--key"), iv: iv)
        case (nil, nil):
            throw ValidationError("give --password SOURCE (openssl enc format) or --key SOURCE with --iv HEX")
        case (_?, _?):
            throw ValidationError("--password and --key cannot be combined")
        }
    }

    func resolvedCipher(for keying: Keying) -> CipherAlgorithm {
        if let cipher { return cipher }
        if case .password = keying { return .aes256CBC }
        return .aes256GCM
    }

    func validate() throws {
        let keying = try keying()
        let secret: SecretSource
        switch keying {
        case .password(let source):
            secret = source
            guard iter >= 1 else { throw ValidationError("--iter must be at least 1") }
            guard !resolvedCipher(for: keying).isGCM else {
                throw ValidationError("the openssl enc format cannot carry GCM (it has no tag): use a CBC cipher, or --key with --iv")
            }
        case .key(let source, _):
            secret = source
        }
        if secret.readsStandardInput && (inputPath == nil || inputPath == "-") {
            throw ValidationError("the secret and the input cannot both come from standard input: use --in FILE")
        }
        if singleLine && !base64 { throw ValidationError("-A goes with -a") }
    }
}
