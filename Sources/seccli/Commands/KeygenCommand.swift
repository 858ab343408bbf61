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
        var bits: Int = 256

        @Option(help: ArgumentHelp("jwe-oct: the key ID (kid) to put in the JWK.", valueName: "id"))
        var kid: String?

        @Option(
            name: .customLong("out"),
            help: ArgumentHelp("Write to this file, mode 0600 (default: standard output).", valueName: "file")
        )
        var outputPath: String?

        func validate() throws {
            guard bits % 8 == 0, (128...4096).contains(bits) else {
                throw ValidationError("--bits must be a multiple of 8 from 128 to 4096")
            }
            if format == .fernet && bits != 256 { throw ValidationError("Fernet keys are 256 bits") }
            if kid != nil && format != .jweOct { throw ValidationError("--kid goes with --format jwe-oct") }
        }

        func run() throws {
            let key = SymmetricKey(size: SymmetricKeySize(bitCount: bits))
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
