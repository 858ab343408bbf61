/// The cipher a `CipherContext` runs: one of `CipherAlgorithm`'s (which `CipherStream`, seccli and the
/// openssl enc container offer), or ChaCha20-Poly1305, which only `ChaChaPoly` uses.
enum ContextCipher: Equatable, Sendable, CustomStringConvertible {
    case algorithm(CipherAlgorithm)
    case chaCha20Poly1305

    /// Key length in bytes.
    var keyByteCount: Int {
        switch self {
        case .algorithm(let algorithm): algorithm.keyByteCount
        case .chaCha20Poly1305: 32
        }
    }

    /// The default IV or nonce length in bytes.
    var ivByteCount: Int {
        switch self {
        case .algorithm(let algorithm): algorithm.ivByteCount
        case .chaCha20Poly1305: 12
        }
    }

    /// The IV or nonce lengths OpenSSL takes: GCM 1 to 128 bytes, every other cipher exactly one.
    var ivRange: ClosedRange<Int> {
        isAESGCM ? CipherContext.gcmIVRange : ivByteCount...ivByteCount
    }

    /// "IV" for CBC, "nonce" for the AEADs, in error messages.
    var ivName: String { isAEAD ? "nonce" : "IV" }

    /// The accepted IV lengths, in error messages.
    var ivSizeText: String { isAESGCM ? "1 to 128 bytes (12 recommended)" : "\(ivByteCount) bytes" }

    /// AES-GCM, whatever the key length.
    var isAESGCM: Bool {
        if case .algorithm(let algorithm) = self { return algorithm.isGCM }
        return false
    }

    /// Authenticated encryption with a tag (GCM, ChaCha20-Poly1305): a stream, no padding.
    var isAEAD: Bool { self == .chaCha20Poly1305 || isAESGCM }

    /// The output `update` may write beyond its input: a block for CBC, nothing for the AEAD streams.
    var outputSlack: Int {
        switch self {
        case .algorithm(let algorithm): algorithm.isGCM ? 0 : algorithm.blockByteCount
        case .chaCha20Poly1305: 0
        }
    }

    var description: String {
        switch self {
        case .algorithm(let algorithm): algorithm.rawValue
        case .chaCha20Poly1305: "chacha20-poly1305"
        }
    }
}
