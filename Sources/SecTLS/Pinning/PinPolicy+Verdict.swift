import SecCrypto

extension PinPolicy {
    /// The policy's verdict on one connection's pin evaluation, the one step every client of SecTLS
    /// passes through (`TLSClient`, `ServerCertificateVerifier` for SecKitNIO and curl, and
    /// `LeafPinCheck` for AsyncHTTPClient): a mismatch is reported to `reportURI` in the background
    /// (enforced or report-only alike), then the connection is refused when the policy says so.
    ///
    /// - Parameters:
    ///   - evaluation: the connection's evaluation.
    ///   - port: the TCP port connected to; nil when the caller does not know it (no report is sent).
    ///   - servedChain: the certificates the server sent, read only for a report.
    ///   - refuseMismatch: true to refuse any mismatch, even of a report-only set (pin-only trust).
    ///   - now: the time pin set expiry is judged at.
    /// - Throws: ``TLSError/pinMismatch(_:)`` when the evaluation refuses the connection;
    ///   ``TLSError/noBackupPin(host:)`` under the strict backup-pin rule.
    package func judge(
        _ evaluation: PinEvaluation,
        port: Int?,
        servedChain: () -> [X509Certificate],
        refuseMismatch: Bool = false,
        at now: Date
    ) throws(TLSError) {
        if let port {
            PinFailureReporter.shared.report(evaluation, policy: self, port: port, servedChain: servedChain)
        }
        if evaluation.refusesConnection || (refuseMismatch && evaluation.outcome == .mismatched) {
            throw .pinMismatch(evaluation)
        }
        if backupPinRule == .strict, evaluation.warnings.contains(.noBackupPin), let pinSet = evaluation.pinSet,
            pinSet.mode == .enforce, !pinSet.isExpired(at: now)
        {
            throw .noBackupPin(host: evaluation.host)
        }
    }
}
