import SecCrypto

/// Why a TLS connection to a server fails, or would: the protocol versions it accepts, the chain
/// it sends (order, missing intermediates, a needless root, validity), the host names it covers,
/// its key usages, the pins that match, and, for mutual TLS, the CA names it asks for and whether
/// the client identities fit them; then a real connection with the configuration as given.
///
/// Each finding has a stable `code`; a finding with a `problem` blocks the connection.
///
/// ```swift
/// var configuration = TLSClientConfiguration(trustRoots: .caFile("ca.pem"))
/// configuration.pinPolicy = try PinPolicy(host: "api.example.com", pins: [pin])
/// let diagnosis = try TLSDiagnosis.diagnose(host: "api.example.com", port: 443, configuration: configuration)
/// for finding in diagnosis.findings { print(finding) }
/// if let problem = diagnosis.firstBlockingFinding { print("fix first:", problem.message) }
/// ```
public struct TLSDiagnosis: Sendable {
    /// One fact about the server or the client's configuration.
    public struct Finding: Hashable, Sendable, CustomStringConvertible {
        public enum Severity: String, Hashable, Sendable {
            /// As it should be.
            case ok
            /// A fact worth knowing.
            case info
            /// Works here, but is fragile or fails elsewhere (another client, next month).
            case warning
            /// The connection fails because of it (`problem` says how).
            case blocking
        }

        /// What a blocking finding stops, in the terms of `TLSError` (and `seccli pin`'s exit codes).
        public enum Problem: String, Hashable, Sendable {
            /// No connection or handshake (`connectionFailed`, `handshakeFailed`, `timedOut`, …).
            case connection
            /// The certificate does not verify (`certificateVerificationFailed`).
            case verification
            /// No pin matches (`pinMismatch`, `noBackupPin`).
            case pin
            /// The server requires a client certificate, or refuses ours.
            case clientCertificate

            /// The problem a connection error is.
            ///
            /// - Parameter error: what `TLSClient.connect` threw.
            public init(_ error: TLSError) {
                switch error {
                case .certificateVerificationFailed: self = .verification
                case .pinMismatch, .noBackupPin: self = .pin
                case .clientCertificateRequired, .clientCertificateRejected, .clientNotAllowed:
                    self = .clientCertificate
                default: self = .connection
                }
            }
        }

        /// A stable identifier (`chain.incomplete`, `host.mismatch`, `client-auth.ca-names`, …).
        public let code: String
        public let severity: Severity
        /// What it blocks; nil unless `severity` is `.blocking`.
        public let problem: Problem?
        /// One line: what was found and, for a problem, how to fix it. May quote the server's
        /// certificates: escape it before printing (`UntrustedText`).
        public let message: String

        init(_ code: String, _ severity: Severity, _ message: String, problem: Problem? = nil) {
            self.code = code
            self.severity = severity
            self.problem = severity == .blocking ? problem ?? .connection : nil
            self.message = message
        }

        public var description: String { "\(severity.rawValue) \(code): \(message)" }
    }

    /// A client identity known by its certificate's names and expiry, without its key (the summary
    /// of an identity kept in a store): checked against the server's CA names as an alternative.
    public struct IdentitySummary: Sendable {
        /// How the findings name it (`the stored identity alice`).
        public let name: String
        /// The client certificate's subject and issuer, RFC 2253 (`X509Certificate.subject`).
        public let subject: String
        public let issuer: String
        public let notAfter: Date

        /// A summary of an identity's certificate.
        ///
        /// - Parameters:
        ///   - name: how the findings name it.
        ///   - subject: the certificate's subject, RFC 2253.
        ///   - issuer: the certificate's issuer, RFC 2253, compared with the server's CA names.
        ///   - notAfter: the end of the certificate's validity period.
        public init(name: String, subject: String, issuer: String, notAfter: Date) {
            self.name = name
            self.subject = subject
            self.issuer = issuer
            self.notAfter = notAfter
        }
    }

    public let host: String
    public let port: Int
    /// The name sent in SNI and verified (lower-case).
    public let serverName: String
    /// The protocol versions the server accepted (`TLSv1.3`, `TLSv1.2`, and any older one), newest first.
    public let acceptedVersions: [String]
    /// The certificates the server sent at its newest version, in its order.
    public let sentChain: [X509Certificate]
    /// The chain verification built to a trusted CA; empty when it did not verify.
    public let verifiedChain: [X509Certificate]
    /// The CA names the server asks client certificates from, by version; nil when it asks for none.
    public let requestedCANames: [String: [String]]?
    /// Every finding, in the order the checks ran.
    public let findings: [Finding]

    /// The first finding that blocks the connection; nil when a connection succeeds with every check.
    public var firstBlockingFinding: Finding? { findings.first { $0.severity == .blocking } }

    /// Diagnoses `host`:`port` with `configuration` (trust, pins, server name, timeouts and client
    /// identity, as a `TLSClient` would connect), at `now`.
    ///
    /// - Parameters:
    ///   - host: the server's name or address.
    ///   - port: its port.
    ///   - configuration: how the client connects; its `clientIdentity` is the identity checked and sent.
    ///   - alternatives: other identities (stored ones), asked for only when the server asks for a
    ///     client certificate; the ones from a CA it names are reported. An error it throws is a finding.
    ///   - now: the time validity is judged at.
    /// - Returns: the findings.
    /// - Throws: `invalidConfiguration` for a configuration no client can use (unreadable CA file, a
    ///   maximum version below the minimum, a name with control characters); the server's problems,
    ///   unreachable included, are findings.
    public static func diagnose(
        host: String,
        port: Int,
        configuration: TLSClientConfiguration,
        alternatives: (() throws -> [IdentitySummary])? = nil,
        at now: Date = Date()
    ) throws(TLSError) -> TLSDiagnosis {
        try TLSClient.checkEndpoint(host: host, port: port, scheme: "tls", configuration: configuration)
        try configuration.checkVersionRange()
        let trustStore = configuration.trustRoots == .pinsOnly ? nil : try TrustStore(configuration.trustRoots)
        var diagnosis = DiagnosisBuilder(
            host: host,
            port: port,
            serverName: HostPattern.normalize(configuration.serverName ?? host),
            configuration: configuration,
            trustStore: trustStore,
            now: now
        )
        try diagnosis.run(alternatives: alternatives)
        return diagnosis.result
    }
}
