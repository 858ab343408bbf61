internal import COpenSSL

/// OpenSSL objects for every case of an algorithm enum, made together when the table is first
/// used and kept for the process: fetched `EVP_MD`s and `EVP_CIPHER`s (OpenSSL 3 looks an
/// algorithm up by name on every init unless given one fetched explicitly) and HMAC templates.
struct AlgorithmTable<Algorithm: CaseIterable & Equatable & Sendable>: @unchecked Sendable {
    // The objects are never changed after the table is made: fetched algorithms are immutable and
    // templates are only duplicated, so sharing them between threads is safe.
    /// Each algorithm with its object, or with OpenSSL's reason when it could not be made. A few
    /// cases searched in order: `==` compares case tags, where hashing would hash the raw-value string.
    private let entries: [(algorithm: Algorithm, object: Result<OpaquePointer, CryptoError>)]

    /// Makes the object for each algorithm with `make`; one that fails stops the process at its first use.
    init(of kind: String, _ make: (Algorithm) -> OpaquePointer?) {
        entries = Algorithm.allCases.map { algorithm in
            // A failure's errors are taken off the queue now, for its message, not left to the next operation.
            (
                algorithm,
                make(algorithm).map { .success($0) } ?? .failure(.openSSL("making the \(kind) for \(algorithm)"))
            )
        }
    }

    subscript(algorithm: Algorithm) -> OpaquePointer {
        switch entries.first(where: { $0.algorithm == algorithm })!.object {
        case .success(let object): return object
        // Only a broken OpenSSL installation or configuration lacks one of SecKit's algorithms.
        case .failure(let error): fatalError(error.description)
        }
    }
}

extension HashAlgorithm {
    private static let fetched = AlgorithmTable<HashAlgorithm>(of: "EVP_MD") { EVP_MD_fetch(nil, $0.openSSLName, nil) }

    /// The fetched `EVP_MD` for this algorithm.
    var evpMD: OpaquePointer { Self.fetched[self] }

    /// OpenSSL's name for the digest (used as the HMAC `digest` parameter).
    var openSSLName: String {
        switch self {
        case .md5: "MD5"
        case .sha1: "SHA1"
        case .sha224: "SHA224"
        case .sha256: "SHA256"
        case .sha384: "SHA384"
        case .sha512: "SHA512"
        case .sha512_256: "SHA512-256"
        }
    }
}

extension CipherAlgorithm {
    // OpenSSL's names are the `openssl enc` names (the raw values), in any case.
    private static let fetched = AlgorithmTable<CipherAlgorithm>(of: "EVP_CIPHER") {
        EVP_CIPHER_fetch(nil, $0.rawValue, nil)
    }

    /// The fetched `EVP_CIPHER` for this algorithm.
    var evpCipher: OpaquePointer { Self.fetched[self] }
}

/// The ciphers outside `CipherAlgorithm` that a `CipherContext` runs (`ContextCipher`).
private enum OtherCipher: String, CaseIterable, Sendable {
    case chaCha20Poly1305 = "ChaCha20-Poly1305"

    static let fetched = AlgorithmTable<OtherCipher>(of: "EVP_CIPHER") { EVP_CIPHER_fetch(nil, $0.rawValue, nil) }
}

extension ContextCipher {
    /// The fetched `EVP_CIPHER`.
    var evpCipher: OpaquePointer {
        switch self {
        case .algorithm(let algorithm): algorithm.evpCipher
        case .chaCha20Poly1305: OtherCipher.fetched[.chaCha20Poly1305]
        }
    }
}

/// The AES key-wrap ciphers (RFC 3394, default IV), by key-encryption-key size.
enum KeyWrapCipher: String, CaseIterable, Sendable {
    case aes128 = "AES-128-WRAP"
    case aes192 = "AES-192-WRAP"
    case aes256 = "AES-256-WRAP"

    private static let fetched = AlgorithmTable<KeyWrapCipher>(of: "EVP_CIPHER") {
        EVP_CIPHER_fetch(nil, $0.rawValue, nil)
    }

    /// The cipher for a key-encryption key of `byteCount` bytes; nil for sizes AES does not have.
    init?(keyByteCount byteCount: Int) {
        switch byteCount {
        case 16: self = .aes128
        case 24: self = .aes192
        case 32: self = .aes256
        default: return nil
        }
    }

    /// The fetched `EVP_CIPHER`.
    var evpCipher: OpaquePointer { Self.fetched[self] }
}
