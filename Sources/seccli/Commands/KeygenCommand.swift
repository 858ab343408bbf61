import ArgumentParser
import SecKit

extension SecCLI {
    struct KeygenCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "keygen",
            abstract: "Print a new random key from OpenSSL's CSPRNG.",
            discussion: """
                --format fernet prints a Fernet key (base64url of 32 bytes, as Fernet.generate_key() \
                in Python); jwe-oct prints a JSON Web Key ({"kty":"oct","k":…}, with --kid); hex prints \
                hex digits, as 'openssl rand -hex'. The key is a secret: --out writes it to a new file \
                readable only by you (mode 0600). Feed it back with --key file:PATH.
                """
        )

        enum Format: String, CaseIterable, ExpressibleByArgument {
            case fernet
            case jweOct = "jwe-oct"
            case hex
        }

        @Option(help: "fernet, jwe-oct or hex.")
        var format: Format = .hex

        @Option(help: "Key size in bits: a multiple of 8 from 128 to 4096 (default 256; fernet keys are always 256).")
        var bits: Int?

        @Option(help: ArgumentHelp("jwe-oct: the key ID (kid) to put in the JWK.", valueName: "id"))
        var kid: String?

        @Option(
            name: .customLong("out"),
            help: ArgumentHelp("Write to this file, mode 0600 (default: standard output).", valueName: "file")
        )
        var outputPath: String?

        /// The options that apply to some formats only.
        static let applicability = OptionApplicability<Self>(
            rules: [
                .init(
                    "--bits",
                    given: { $0.bits != nil },
                    appliesTo: { $0.format != .fernet },
                    "--format hex or jwe-oct (Fernet keys are always 256 bits)"
                ),
                .init("--kid", given: { $0.kid != nil }, appliesTo: { $0.format == .jweOct }, "--format jwe-oct"),
            ],
            describe: { "keygen --format \($0.format.rawValue)" }
        )

        func validate() throws {
            try Self.applicability.validate(self)
            if let bits, !(bits % 8 == 0 && (128...4096).contains(bits)) {
                throw ValidationError("--bits must be a multiple of 8 from 128 to 4096")
            }
        }

        func run() throws {
            let key = SymmetricKey(size: SymmetricKeySize(bitCount: bits ?? 256))
            // The text of the key lives in wiped memory and goes out through write(2), so no copy
            // of it stays in a String or a stdio buffer.
            let text =
                switch format {
                case .fernet: Base64.encodeSecret(key, alphabet: .url)
                case .jweOct: JSONWebKey(key: key, keyID: kid).exportedJSONBytes()
                case .hex: Hex.encodeSecret(key)
                }
            let output: ByteSink =
                if let outputPath {
                    try FileDestination.open(outputPath, permissions: 0o600)
                } else {
                    DescriptorOutput.standardOutput()
                }
            try text.withUnsafeBytes { try output.write($0) }
            try output.write(data: [UInt8(ascii: "\n")])
            try output.finish()
        }
    }
}
