import Logging
import Metrics
import NIOCore
import SecTLS

/// The end of the connection a context runs, as the `side` label and `tls.side` metadata say it.
package enum TLSSide: String, Sendable {
    case client, server
}

/// Reports one context's handshakes to the application's swift-log logger and to the
/// swift-metrics backend it bootstrapped (SecKit bootstraps neither; a context may be given
/// another factory, as swift-metrics' own `factory:` parameters allow). The metrics of every
/// outcome are made once, with the context, so that a handshake only increments and records.
///
/// Labels have few values, none chosen by a peer: `side`, `outcome` and `reason`. A host name,
/// a subject or a pin goes to the log's metadata only, never into a label. Logs carry pins and
/// OpenSSL's reasons, never a key, a passphrase or a certificate's unverified text.
package struct HandshakeObserver: Sendable {
    package let logger: Logger
    package let side: TLSSide
    private let verified: Outcome
    private let refused: Outcome
    private let failed: Outcome

    /// A counter and a duration per outcome.
    private struct Outcome: Sendable {
        let count: Counter
        let duration: Metrics.Timer

        init(side: TLSSide, outcome: String, factory: any MetricsFactory) {
            let dimensions = [("side", side.rawValue), ("outcome", outcome)]
            count = Counter(label: HandshakeMetricLabel.handshakes, dimensions: dimensions, factory: factory)
            duration = Metrics.Timer(label: HandshakeMetricLabel.duration, dimensions: dimensions, factory: factory)
        }

        /// Counts one handshake, and times it when its start is known.
        func record(since start: NIODeadline?) {
            count.increment()
            if let start { duration.recordNanoseconds((NIODeadline.now() - start).nanoseconds) }
        }
    }

    private let factory: any MetricsFactory

    package init(side: TLSSide, logger: Logger, metricsFactory: any MetricsFactory) {
        self.side = side
        self.logger = logger
        self.factory = metricsFactory
        verified = Outcome(side: side, outcome: "verified", factory: metricsFactory)
        refused = Outcome(side: side, outcome: "refused", factory: metricsFactory)
        failed = Outcome(side: side, outcome: "failed", factory: metricsFactory)
    }

    /// When a handshake starts: now.
    //
    // This and the two reports below stay out of line: the NIO handshake bench attributes their
    // cost by symbol (docs/performance-journal.md, 2026-11-28).
    @inline(never)
    package func started() -> NIODeadline { .now() }

    /// A handshake that SecKit's verification passed: counted and timed, logged at debug.
    ///
    /// - Parameters:
    ///   - start: when the connection was opened or accepted (nil: not known, not timed).
    ///   - peer: the peer's address.
    ///   - metadata: what the handshake verified, for the log (computed only when it logs).
    @inline(never)
    package func succeeded(
        since start: NIODeadline?,
        peer: SocketAddress?,
        metadata: @autoclosure () -> Logger.Metadata
    ) {
        verified.record(since: start)
        logger.debug(
            "TLS handshake verified",
            metadata: metadata().merging(["tls.side": "\(side.rawValue)", "tls.peer": "\(peer.logDescription)"]) { $1 }
        )
    }

    /// A handshake that ended without a verified peer. `refusal` is the failure SecKit's own
    /// verification recorded (the peer's certificate or pin was refused): counted by reason and
    /// logged at warning with the observed and expected pins. Anything else (no certificate, an
    /// alert, a timeout, a closed connection) is logged at notice.
    ///
    /// - Parameters:
    ///   - start: when the connection was opened or accepted (nil: not known, not timed).
    ///   - peer: the peer's address.
    ///   - host: the server name a client connected for.
    ///   - error: what the handshake ended with, as SecTLS types it when it is TLS's own.
    ///   - refusal: the failure SecKit's verification recorded, if it ran and refused.
    ///   - expectedPins: the pins the peer had to match (the client allow-list on a server).
    @inline(never)
    package func ended(
        since start: NIODeadline?,
        peer: SocketAddress?,
        host: String? = nil,
        error: any Error,
        refusal: TLSError?,
        expectedPins: [Pin]? = nil
    ) {
        guard let refusal else {
            failed.record(since: start)
            logger.notice(
                "TLS handshake failed",
                metadata: metadata(peer: peer, host: host, error: error, reason: (error as? TLSError)?.metricReason)
            )
            return
        }
        refused.record(since: start)
        Counter(
            label: HandshakeMetricLabel.verificationFailures,
            dimensions: [("side", side.rawValue), ("reason", refusal.metricReason)],
            factory: factory
        ).increment()
        logger.warning(
            side == .server ? "TLS client refused" : "TLS server refused",
            metadata: refusalMetadata(peer: peer, host: host, refusal: refusal, expectedPins: expectedPins)
        )
    }

    private func metadata(peer: SocketAddress?, host: String?, error: any Error, reason: String?) -> Logger.Metadata {
        var metadata: Logger.Metadata = [
            "tls.side": "\(side.rawValue)",
            "tls.peer": "\(peer.logDescription)",
            "tls.error": "\(error)",
        ]
        if let host { metadata["tls.host"] = "\(host)" }
        if let reason { metadata["tls.reason"] = "\(reason)" }
        return metadata
    }

    private func refusalMetadata(
        peer: SocketAddress?,
        host: String?,
        refusal: TLSError,
        expectedPins: [Pin]?
    ) -> Logger.Metadata {
        var metadata = metadata(peer: peer, host: host, error: refusal, reason: refusal.metricReason)
        let pins = refusal.pins
        if let observed = pins.observed { metadata["tls.pins.observed"] = .array(observed.map { "\($0)" }) }
        if let expected = pins.expected ?? expectedPins {
            metadata["tls.pins.expected"] = .array(expected.map { "\($0)" })
        }
        if let host = pins.host, metadata["tls.host"] == nil { metadata["tls.host"] = "\(host)" }
        return metadata
    }
}

/// The metric labels (names) SecKit's TLS contexts report under.
enum HandshakeMetricLabel {
    /// Counter: handshakes by `side` and `outcome` (verified, refused, failed).
    static let handshakes = "seckit_tls_handshakes_total"
    /// Timer: from the accepted or opened connection to the handshake's end, by `side` and `outcome`.
    static let duration = "seckit_tls_handshake_duration_seconds"
    /// Counter: certificates and pins SecKit's verification refused, by `side` and `reason`.
    static let verificationFailures = "seckit_tls_verification_failures_total"
}

extension TLSError {
    /// The `reason` label: one of a fixed set of values, whatever a peer sends.
    var metricReason: String {
        switch self {
        case .pinMismatch(let evaluation): evaluation.outcome == .hostNotCovered ? "host_not_pinned" : "pin_mismatch"
        case .noBackupPin: "no_backup_pin"
        case .certificateVerificationFailed(let failure):
            switch failure.reason {
            case .expired: "expired"
            case .notYetValid: "not_yet_valid"
            case .unknownIssuer: "unknown_issuer"
            case .selfSigned: "self_signed"
            case .hostnameMismatch: "hostname_mismatch"
            case .other: "certificate_invalid"
            }
        case .clientNotAllowed: "client_not_allowed"
        case .clientCertificateRequired: "client_certificate_required"
        case .clientCertificateRejected: "client_certificate_rejected"
        case .malformedCertificate, .noCertificates: "malformed_certificate"
        case .timedOut: "timeout"
        case .handshakeFailed: "handshake_failed"
        case .connectionBroken: "connection_broken"
        default: "other"
        }
    }

    /// The pins a refusal is about: those the peer showed, those it had to match, and the host
    /// they were looked up for.
    fileprivate var pins: (observed: [PublicKeyPin]?, expected: [Pin]?, host: String?) {
        switch self {
        case .pinMismatch(let evaluation): (evaluation.chainPins, evaluation.expectedPins, evaluation.host)
        case .clientNotAllowed(let pin): ([pin], nil, nil)
        case .certificateVerificationFailed(let failure):
            (failure.peerChain.isEmpty ? nil : failure.peerChain.map(\.publicKeyPin), nil, nil)
        case .noBackupPin(let host): (nil, nil, host)
        default: (nil, nil, nil)
        }
    }
}

extension Logger {
    /// The default of SecKit's `logger` parameters, as AsyncHTTPClient's `HTTPClient.loggingDisabled`
    /// is of its own: a logger that logs nothing, until the application passes its own.
    public static let secKitDisabled = Logger(label: "SecKit-do-not-log") { _ in SwiftLogNoOpLogHandler() }
}

extension Optional where Wrapped == SocketAddress {
    /// The peer's address for the log (`ip:port`), `?` when there is none.
    package var logDescription: String {
        guard let address = self else { return "?" }
        guard let ip = address.ipAddress, let port = address.port else { return "\(address)" }
        return address.protocol == .inet6 ? "[\(ip)]:\(port)" : "\(ip):\(port)"
    }
}
