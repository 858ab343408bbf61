import NIOCore
import NIOSSL
import SecTLS

/// swift-nio-ssl's errors as SecTLS's typed ones. swift-nio-ssl drops the reason a verification
/// callback failed (it only tells BoringSSL "failed"): the reason recorded by SecKit's callback
/// takes the place of BoringSSL's `CERTIFICATE_VERIFY_FAILED`.
enum TLSErrorTranslation {
    /// `error` as a `TLSError` where it is one of TLS's own; other errors (I/O, channel) unchanged.
    static func translate(
        _ error: any Error,
        recordedFailure: TLSError?,
        presentedIdentity: Bool,
        certificateRequested: Bool,
        duringHandshake: Bool
    ) -> any Error {
        if let error = error as? TLSError { return error }
        let reasons: [String]
        switch error {
        case NIOSSLError.handshakeFailed(let failure), NIOSSLError.shutdownFailed(let failure):
            reasons = Self.reasons(failure)
        case let failure as BoringSSLError:
            reasons = Self.reasons(failure)
        case NIOSSLError.uncleanShutdown:
            return duringHandshake
                ? TLSError.handshakeFailed("the peer closed the connection")
                : TLSError.connectionBroken("unclean shutdown")
        default:
            return error
        }
        if let recordedFailure, reasons.contains(where: { $0.contains("CERTIFICATE_VERIFY_FAILED") }) {
            return recordedFailure
        }
        if reasons.contains(where: { $0.contains("CERTIFICATE_VERIFY_FAILED") }) {
            // BoringSSL verified (AsyncHTTPClient): it keeps its reason to itself.
            return TLSError.certificateVerificationFailed(
                CertificateVerificationFailure(
                    reason: .other,
                    code: 1,  // X509_V_ERR_UNSPECIFIED
                    message: "swift-nio-ssl (BoringSSL) refused the certificate chain",
                    depth: nil
                )
            )
        }
        if reasons.contains(where: { $0.contains("CERTIFICATE_REQUIRED") }) {
            return TLSError.clientCertificateRequired
        }
        if let alert = alerts.first(where: { alert in reasons.contains { $0.contains(alert.key) } }) {
            if certificateRequested && !presentedIdentity && alert.key == "ALERT_HANDSHAKE_FAILURE" {
                return TLSError.clientCertificateRequired
            }
            if (certificateRequested || !duringHandshake) && presentedIdentity && alert.key != "ALERT_HANDSHAKE_FAILURE"
            {
                return TLSError.clientCertificateRejected(alert.value)
            }
            return duringHandshake
                ? TLSError.handshakeFailed("the peer sent the alert \(alert.value)")
                : TLSError.connectionBroken("the peer sent the alert \(alert.value)")
        }
        let reason = reasons.isEmpty ? "\(error)" : reasons.joined(separator: "; ")
        return duringHandshake ? TLSError.handshakeFailed(reason) : TLSError.connectionBroken(reason)
    }

    private static func reasons(_ error: BoringSSLError) -> [String] {
        switch error {
        case .sslError(let stack), .unknownError(let stack), .invalidSNIName(let stack), .failedToSetALPN(let stack):
            stack.map(\.description)
        case .zeroReturn: ["the peer closed the connection"]
        case .syscallError: ["the connection broke"]
        default: ["\(error)"]
        }
    }

    /// BoringSSL's reason names of the alerts about certificates, with OpenSSL's text for each.
    private static let alerts: KeyValuePairs<String, String> = [
        "ALERT_HANDSHAKE_FAILURE": "handshake failure",
        "ALERT_BAD_CERTIFICATE": "bad certificate",
        "ALERT_UNSUPPORTED_CERTIFICATE": "unsupported certificate",
        "ALERT_CERTIFICATE_REVOKED": "certificate revoked",
        "ALERT_CERTIFICATE_EXPIRED": "certificate expired",
        "ALERT_CERTIFICATE_UNKNOWN": "certificate unknown",
        "ALERT_UNKNOWN_CA": "unknown CA",
        "ALERT_ACCESS_DENIED": "access denied",
        "ALERT_DECRYPT_ERROR": "decrypt error",
    ]
}
