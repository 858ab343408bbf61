import SecCrypto

extension JWE {
    /// How the content-encryption key (CEK) reaches the recipient: the JOSE `alg` header (RFC 7518 §4).
    public enum KeyManagementAlgorithm: String, CaseIterable, Sendable, CustomStringConvertible {
        /// The shared key is the CEK itself; its length must be the one the content encryption needs.
        case direct = "dir"
        /// A random CEK wrapped with AES Key Wrap under a 128-bit shared key.
        case a128KW = "A128KW"
        /// A random CEK wrapped under a 192-bit shared key.
        case a192KW = "A192KW"
        /// A random CEK wrapped under a 256-bit shared key.
        case a256KW = "A256KW"
        /// A password: PBKDF2-HMAC-SHA256 derives a 128-bit key that wraps a random CEK.
        case pbes2HS256A128KW = "PBES2-HS256+A128KW"
        /// A password: PBKDF2-HMAC-SHA384 derives a 192-bit key that wraps a random CEK.
        case pbes2HS384A192KW = "PBES2-HS384+A192KW"
        /// A password: PBKDF2-HMAC-SHA512 derives a 256-bit key that wraps a random CEK. The default
        /// for passwords.
        case pbes2HS512A256KW = "PBES2-HS512+A256KW"

        /// The algorithms that take a password rather than a key.
        public var usesPassword: Bool { pbes2PRF != nil }

        /// The PBKDF2 hash of the PBES2 algorithms.
        var pbes2PRF: HashAlgorithm? {
            switch self {
            case .pbes2HS256A128KW: .sha256
            case .pbes2HS384A192KW: .sha384
            case .pbes2HS512A256KW: .sha512
            case .direct, .a128KW, .a192KW, .a256KW: nil
            }
        }

        /// The key-encryption key length of the key-wrapping algorithms.
        var keyWrapByteCount: Int? {
            switch self {
            case .direct: nil
            case .a128KW, .pbes2HS256A128KW: 16
            case .a192KW, .pbes2HS384A192KW: 24
            case .a256KW, .pbes2HS512A256KW: 32
            }
        }

        /// The PBES2 iteration count used when none is given: OWASP's 2023 figure for the hash
        /// (600,000 for SHA-256, 210,000 for SHA-384 and SHA-512). `joserfc` refuses counts above
        /// 300,000, so tokens for it use PBES2-HS512+A256KW (the default) or an explicit count.
        public var recommendedIterations: Int? {
            pbes2PRF.map { KDF.PBKDF2.minimumIterations(for: $0) }
        }

        public var description: String { rawValue }
    }

    /// How the payload is encrypted and authenticated: the JOSE `enc` header (RFC 7518 §5).
    public enum ContentEncryptionAlgorithm: String, CaseIterable, Sendable, CustomStringConvertible {
        /// AES-128-CBC with HMAC-SHA-256 truncated to 128 bits (a 32-byte CEK).
        case a128CBCHS256 = "A128CBC-HS256"
        /// AES-192-CBC with HMAC-SHA-384 truncated to 192 bits (a 48-byte CEK).
        case a192CBCHS384 = "A192CBC-HS384"
        /// AES-256-CBC with HMAC-SHA-512 truncated to 256 bits (a 64-byte CEK).
        case a256CBCHS512 = "A256CBC-HS512"
        /// AES-128-GCM (a 16-byte CEK).
        case a128GCM = "A128GCM"
        /// AES-192-GCM (a 24-byte CEK).
        case a192GCM = "A192GCM"
        /// AES-256-GCM (a 32-byte CEK). The default.
        case a256GCM = "A256GCM"

        /// The content-encryption key length in bytes (for `dir`, the shared key's length).
        public var keyByteCount: Int {
            switch self {
            case .a128CBCHS256: 32
            case .a192CBCHS384: 48
            case .a256CBCHS512: 64
            case .a128GCM: 16
            case .a192GCM: 24
            case .a256GCM: 32
            }
        }

        /// Throws `incorrectSize` unless `key`, used as the CEK itself (`dir`), is `keyByteCount` long.
        func checkDirectKey(_ key: UnsafeRawBufferPointer) throws(CryptoError) {
            guard key.count == keyByteCount else {
                throw .incorrectSize(
                    what: "JWE dir key for \(self)",
                    expected: "\(keyByteCount) bytes",
                    actual: key.count
                )
            }
        }

        /// The HMAC hash of the CBC algorithms; nil for GCM.
        var macAlgorithm: HashAlgorithm? {
            switch self {
            case .a128CBCHS256: .sha256
            case .a192CBCHS384: .sha384
            case .a256CBCHS512: .sha512
            case .a128GCM, .a192GCM, .a256GCM: nil
            }
        }

        /// The IV length: 16 bytes for CBC, 12 for GCM.
        var ivByteCount: Int { macAlgorithm == nil ? 12 : 16 }

        /// The authentication tag length: half the CEK for CBC-HMAC, 16 bytes for GCM.
        var tagByteCount: Int { macAlgorithm == nil ? 16 : keyByteCount / 2 }

        public var description: String { rawValue }
    }
}
