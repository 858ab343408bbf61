/// The block ciphers and modes SecKit provides, named as `openssl enc` names them.
public enum CipherAlgorithm: String, CaseIterable, Sendable, Codable, CustomStringConvertible {
    case aes128CBC = "aes-128-cbc"
    case aes192CBC = "aes-192-cbc"
    case aes256CBC = "aes-256-cbc"
    /// Legacy: three-key Triple DES (24-byte key), for interoperability with old servers only.
    case tripleDESCBC = "des-ede3-cbc"
    /// Legacy: two-key Triple DES (16-byte key, K3 = K1), for interoperability with old servers only.
    case tripleDES2KeyCBC = "des-ede-cbc"
    case aes128GCM = "aes-128-gcm"
    case aes192GCM = "aes-192-gcm"
    case aes256GCM = "aes-256-gcm"

    /// Key length in bytes.
    public var keyByteCount: Int {
        switch self {
        case .aes128CBC, .aes128GCM, .tripleDES2KeyCBC: 16
        case .aes192CBC, .aes192GCM, .tripleDESCBC: 24
        case .aes256CBC, .aes256GCM: 32
        }
    }

    /// Block length in bytes (the IV length in CBC mode).
    public var blockByteCount: Int { isTripleDES ? 8 : 16 }

    /// Default IV or nonce length in bytes: the block size for CBC, 12 for GCM.
    public var ivByteCount: Int { isGCM ? 12 : blockByteCount }

    /// Authenticated encryption (GCM).
    public var isGCM: Bool { self == .aes128GCM || self == .aes192GCM || self == .aes256GCM }

    /// Triple DES: legacy, for interoperability only.
    public var isTripleDES: Bool { self == .tripleDESCBC || self == .tripleDES2KeyCBC }

    /// True for ciphers that must not be chosen for new designs.
    public var isInsecure: Bool { isTripleDES }

    public var description: String { rawValue }
}
