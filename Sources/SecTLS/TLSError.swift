import SecCrypto
import SecIO

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
    /// A host pattern (`example.com`, `*.example.com`, `**.example.com`) is not well formed.
    case invalidHostPattern(String)
    /// A `TLSClientConfiguration` or pin set that cannot work (pin-only trust without pins, an unreadable CA file, …).
    case invalidConfiguration(String)
    /// The endpoint is not on the configured allow-list; nothing was sent.
    case endpointNotAllowed(host: String, port: Int, scheme: String)
    /// The host name did not resolve; the string is the resolver's reason.
    case hostNotFound(host: String, reason: String)
    /// No TCP connection could be made (refused, unreachable); the string names the address and reason.
    case connectionFailed(String)
    /// A phase did not finish within its limit (`TLSTimeouts`).
    case timedOut(TLSPhase)
    /// The TLS handshake failed for a reason other than certificates (no common version or cipher,
    /// an alert from the server, the connection closed); the string is OpenSSL's reason.
    case handshakeFailed(String)
    /// The server's certificate chain did not verify.
    case certificateVerificationFailed(CertificateVerificationFailure)
    /// The chain verified, but no pin of the enforced pin set matched it; the evaluation lists every
    /// chain pin and every expected pin.
    case pinMismatch(PinEvaluation)
    /// Strict backup-pin rule: every pin of the host's pin set is in the current chain (RFC 7469 §2.5).
    case noBackupPin(host: String)
    /// The server demands a client certificate and none was configured (under TLS 1.3: alert 116,
    /// certificate_required).
    case clientCertificateRequired
    /// The server refused our client certificate; the string is the alert (`bad certificate`, `unknown CA`, …).
    case clientCertificateRejected(String)
    /// A client certificate verified, but its key is not on the server's allow-list of client pins.
    case clientNotAllowed(PublicKeyPin)
    /// A client certificate or private key could not be read; the string says which and why.
    case invalidClientIdentity(String)
    /// The private key or PKCS#12 file is encrypted and no passphrase was given.
    case passphraseRequired(String)
    /// The passphrase does not open the private key or PKCS#12 file.
    case wrongPassphrase(String)
    /// The private key does not belong to the client certificate.
    case keyMismatch
    /// Reading or writing the established connection failed; the string says why.
    case connectionBroken(String)
    /// The task that awaited the connect, read or write was cancelled, and it stopped (the async
    /// variants of `TLSClient.connect` and of `TLSConnection`'s calls). A connection whose read or
    /// write was cancelled may be in the middle of a record: close it.
    case cancelled

    public var description: String {
        switch self {
        case .malformedPEM(let reason): return "PEM: \(reason)"
        case .noCertificates: return "no certificate found in the input"
        case .malformedCertificate(let reason): return "certificate: \(reason)"
        case .invalidFingerprint(let reason): return "fingerprint: \(reason)"
        case .invalidPin(let reason): return "pin: \(reason)"
        case .unsupported(let reason): return reason
        case .backendFailure(let reason): return "OpenSSL: \(reason)"
        case .invalidHostPattern(let reason): return "host pattern: \(reason)"
        case .invalidConfiguration(let reason): return "TLS configuration: \(reason)"
        case .endpointNotAllowed(let host, let port, let scheme):
            return "\(scheme)://\(host):\(port) is not on the endpoint allow-list"
        case .hostNotFound(let host, let reason): return "cannot resolve \(host): \(reason)"
        case .connectionFailed(let reason): return "cannot connect: \(reason)"
        case .timedOut(let phase): return "\(phase) timed out"
        case .handshakeFailed(let reason): return "TLS handshake failed: \(reason)"
        case .certificateVerificationFailed(let failure): return "certificate verification failed: \(failure)"
        case .pinMismatch(let evaluation): return "pin mismatch: \(evaluation)"
        case .noBackupPin(let host):
            return
                "\(host): every pin is in the current chain and the policy demands a backup pin (RFC 7469 section 2.5)"
        case .clientCertificateRequired: return "the server requires a client certificate and none was given"
        case .clientCertificateRejected(let alert): return "the server rejected the client certificate (\(alert))"
        case .clientNotAllowed(let pin): return "the client certificate's key \(pin) is not on the allow-list"
        case .invalidClientIdentity(let reason): return "client identity: \(reason)"
        case .passphraseRequired(let what): return "\(what) is encrypted: a passphrase is needed"
        case .wrongPassphrase(let what): return "wrong passphrase for \(what)"
        case .keyMismatch: return "the private key does not match the client certificate"
        case .connectionBroken(let reason): return "connection: \(reason)"
        case .cancelled: return "the TLS operation was cancelled"
        }
    }
}

/// A phase of a connection with its own time limit.
public enum TLSPhase: String, Hashable, Sendable, CustomStringConvertible {
    case connect, handshake, read, write

    public var description: String {
        switch self {
        case .connect: "TCP connect"
        case .handshake: "TLS handshake"
        case .read: "read"
        case .write: "write"
        }
    }
}

extension TLSError: BlockingOperationError {
    package static func noThread(_ reason: String) -> TLSError { .backendFailure("cannot start a thread: \(reason)") }
}

extension TLSError {
    /// A `.backendFailure` naming `operation`, with OpenSSL's queued errors (the queue is emptied).
    static func openSSL(_ operation: String) -> TLSError {
        .backendFailure(OpenSSLError.failureMessage(operation))
    }
}
