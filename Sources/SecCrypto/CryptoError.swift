/// Errors thrown by SecCrypto. Messages are one readable line and never contain key material.
public enum CryptoError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Text that should have been hex or base64 was not; the string says where and why.
    case invalidEncoding(String)
    /// A key, IV or similar value has the wrong size.
    case incorrectSize(what: String, expected: String, actual: Int)
    /// Decryption failed: wrong key or password, or truncated, corrupted or tampered input.
    /// Deliberately says no more (no padding oracle).
    case decryptionFailed
    /// An authentication tag or MAC did not verify: wrong key, or the data or tag was altered.
    case authenticationFailure
    /// Input is not in the expected format (a missing header, an impossible length).
    case malformedInput(String)
    /// A parameter is outside what SecKit accepts (for example too few PBKDF2 iterations).
    case invalidParameter(String)
    /// The input asks for an algorithm or feature SecKit does not offer or refuses (JWE `alg: none`,
    /// an unknown critical header, compression); the string names it.
    case unsupported(String)
    /// An authentic token is outside its validity window (older than its time-to-live, or dated
    /// too far in the future); the string says which.
    case expired(String)
    /// None of the given keys is the one the input names (a JWE `kid`), or no key was given.
    case keyNotFound(String)
    /// A key has been used as often as is safe (AES-GCM: 2^32 seals with random nonces, NIST SP
    /// 800-38D §8.3); the string says so. Seal with a new key.
    case keyUsageLimitReached(String)
    /// A CSPRNG (OpenSSL's, or the kernel's for a Diffie-Hellman exponent) could not produce bytes.
    case randomGenerationFailed
    /// OpenSSL reported an unexpected failure; the string is OpenSSL's own reason.
    case backendFailure(String)

    public var description: String {
        switch self {
        case .invalidEncoding(let reason): return reason
        case .incorrectSize(let what, let expected, let actual):
            return "\(what) must be \(expected), got \(actual) bytes"
        case .decryptionFailed: return "decryption failed: wrong key or password, or corrupted input"
        case .authenticationFailure: return "authentication failed: wrong key, or the data was altered"
        case .invalidParameter(let reason): return reason
        case .malformedInput(let reason): return reason
        case .unsupported(let reason): return reason
        case .expired(let reason): return reason
        case .keyNotFound(let reason): return reason
        case .keyUsageLimitReached(let reason): return reason
        case .randomGenerationFailed: return "the random generator failed"
        case .backendFailure(let reason): return "OpenSSL: \(reason)"
        }
    }
}
