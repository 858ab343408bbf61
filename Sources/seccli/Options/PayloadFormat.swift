import ArgumentParser
import SecKit

/// What `encrypt` writes and `decrypt` reads.
enum PayloadFormat: String, CaseIterable, ExpressibleByArgument {
    /// `openssl enc -pbkdf2` (Salted__ header), with --password.
    case openssl
    /// Bare ciphertext, as `openssl enc -K -iv`, with --key and --iv.
    case raw
    /// JWE compact serialization, with --key (dir, AES key wrap) or --password (PBES2).
    case jwe
    /// A Fernet token, with --key (base64url, as Python prints it).
    case fernet
    /// The legacy {"iv", "mac", "payload"} JSON envelope, with --key and --mac-key.
    case legacyJSON = "legacy-json"

    /// The sealed formats are held in memory whole; the others stream.
    var isEnvelope: Bool { self == .jwe || self == .fernet || self == .legacyJSON }

    /// How `--key` is written when `--key-format` is not given.
    var defaultKeyFormat: KeyFormat {
        switch self {
        case .openssl, .raw: .hex
        case .jwe: .jwk
        case .fernet: .base64url
        case .legacyJSON: .raw
        }
    }
}

/// How a `--key` secret is written.
enum KeyFormat: String, CaseIterable, ExpressibleByArgument {
    case raw, hex, base64, base64url
    /// A JSON Web Key (`{"kty":"oct","k":…}`) or, to decrypt, a JWK Set; --format jwe only.
    case jwk

    var encoding: SecretEncoding? { SecretEncoding(rawValue: rawValue) }
}

extension JWE.KeyManagementAlgorithm: ExpressibleByArgument {}
extension JWE.ContentEncryptionAlgorithm: ExpressibleByArgument {}
