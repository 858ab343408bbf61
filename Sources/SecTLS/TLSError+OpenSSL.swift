internal import COpenSSL
import SecCrypto

extension TLSError {
    /// A `.backendFailure` naming `operation`, with OpenSSL's queued reasons (the queue is emptied).
    static func openSSL(_ operation: String) -> TLSError {
        let reasons = drainOpenSSLErrors()
        return .backendFailure(reasons.isEmpty ? "\(operation) failed" : "\(operation) failed: \(reasons.joined(separator: "; "))")
    }
}
