/// Why the server's certificate was refused, as OpenSSL's verifier reported it.
public struct CertificateVerificationFailure: Hashable, Sendable, CustomStringConvertible {
    public enum Reason: Hashable, Sendable {
        /// A certificate of the chain is past its notAfter date.
        case expired
        /// A certificate of the chain is before its notBefore date.
        case notYetValid
        /// The chain does not lead to a trusted CA (unknown CA, missing intermediate).
        case unknownIssuer
        /// A self-signed certificate that is not trusted.
        case selfSigned
        /// The certificate is not for the host name (or IP address) connected to.
        case hostnameMismatch
        /// Any other verification error (bad signature, wrong purpose, revoked, …); see `message`.
        case other
    }

    public let reason: Reason
    /// OpenSSL's `X509_V_ERR_*` code.
    public let code: Int
    /// OpenSSL's text for the code (`certificate has expired`).
    public let message: String
    /// Depth of the certificate that failed (0 = the server's own), when known.
    public let depth: Int?
    /// The chain the server sent (depth 0 first), for inspection; possibly empty.
    public let peerChain: [X509Certificate]

    /// A failure of these parts.
    ///
    /// - Parameters:
    ///   - reason: the kind of failure.
    ///   - code: OpenSSL's `X509_V_ERR_*` code.
    ///   - message: OpenSSL's text for the code.
    ///   - depth: the depth of the certificate that failed (0 = the server's own); nil when unknown.
    ///   - peerChain: the chain the server sent, depth 0 first; empty (the default) when unknown.
    public init(reason: Reason, code: Int, message: String, depth: Int?, peerChain: [X509Certificate] = []) {
        self.reason = reason
        self.code = code
        self.message = message
        self.depth = depth
        self.peerChain = peerChain
    }

    public var description: String { message + (depth.map { " (depth \($0))" } ?? "") }
}
