/// Errors thrown by SecTLS. Messages are one readable line; they never echo long input (a pasted
/// certificate or pin is reported by its length and the position of the problem, not repeated).
public enum TLSError: Error, Equatable, Sendable, CustomStringConvertible {
    /// PEM text is not well formed: an unterminated block, mismatched labels, bad base64, or
    /// something other than white space after the last block. The string says which.
    case malformedPEM(String)
    /// The input holds no certificate (for example a PEM file with only a private key, or empty text).
    case noCertificates
    /// The bytes are not one DER-encoded X.509 certificate; the string says why.
    case malformedCertificate(String)
    /// Text is not a fingerprint SecTLS understands; the string says why.
    case invalidFingerprint(String)
    /// Text is not a pin SecTLS understands; the string says why.
    case invalidPin(String)
    /// The input uses something SecTLS does not offer (a `sha1/` public-key pin, an MD5 fingerprint).
    case unsupported(String)
    /// OpenSSL reported an unexpected failure; the string is OpenSSL's own reason.
    case backendFailure(String)

    public var description: String {
        switch self {
        case .malformedPEM(let reason): return "PEM: \(reason)"
        case .noCertificates: return "no certificate found in the input"
        case .malformedCertificate(let reason): return "certificate: \(reason)"
        case .invalidFingerprint(let reason): return "fingerprint: \(reason)"
        case .invalidPin(let reason): return "pin: \(reason)"
        case .unsupported(let reason): return reason
        case .backendFailure(let reason): return "OpenSSL: \(reason)"
        }
    }
}
