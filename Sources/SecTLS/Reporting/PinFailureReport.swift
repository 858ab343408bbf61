import SecCrypto

/// An RFC 7469 (section 3) pin validation failure report: what a `PinPolicy` with a `reportURI`
/// POSTs, as `application/json`, when no pin of the applying pin set matched a connection's chain
/// (enforced or report-only).
///
/// ```json
/// {
///   "date-time": "2026-11-28T10:12:44Z",
///   "hostname": "api.example.com",
///   "port": 443,
///   "effective-expiration-date": "2027-01-27T10:12:44Z",
///   "include-subdomains": false,
///   "noted-hostname": "api.example.com",
///   "served-certificate-chain": ["-----BEGIN CERTIFICATE-----\n…"],
///   "validated-certificate-chain": ["-----BEGIN CERTIFICATE-----\n…"],
///   "known-pins": ["pin-sha256=\"d6qzRu9zOECb90Uez27xWltNsj0e1Md7GkYYkVoZWmM=\""]
/// }
/// ```
public struct PinFailureReport: Hashable, Sendable {
    /// When the failure was seen.
    public let date: Date
    /// The host the connection was for (the server name).
    public let hostname: String
    /// The TCP port connected to.
    public let port: Int
    /// When the pin set stops being enforced (`PinSet.expires`); nil when it never does, written
    /// as JSON `null`.
    public let effectiveExpirationDate: Date?
    /// True when the pin set covers names below `notedHostname` (a `*.` or `**.` pattern).
    public let includeSubdomains: Bool
    /// The pin set's host name: its pattern without the wildcard.
    public let notedHostname: String
    /// The certificates the server sent, in the order it sent them.
    public let servedChain: [X509Certificate]
    /// The chain the pins were checked against, from the server's certificate up.
    public let validatedChain: [X509Certificate]
    /// The pin set's pins: public-key pins as `pin-sha256="<base64>"` (RFC 7469's form),
    /// certificate fingerprints as `openssl x509 -fingerprint` prints them (`SHA256 Fingerprint=AB:…`).
    public let knownPins: [String]

    /// The report of `evaluation`'s failure, on `port`, with the chain the server sent; nil when
    /// `evaluation` found no failure to report (a match, or no applying pin set).
    ///
    /// - Parameters:
    ///   - evaluation: a mismatched evaluation of a pin set.
    ///   - port: the TCP port connected to.
    ///   - servedChain: the certificates the server sent, as sent.
    ///   - date: when the failure was seen (now by default).
    public init?(
        _ evaluation: PinEvaluation,
        port: Int,
        servedChain: [X509Certificate],
        at date: Date = Date()
    ) {
        guard evaluation.outcome == .mismatched, let pinSet = evaluation.pinSet else { return nil }
        self.date = date
        self.hostname = evaluation.host
        self.port = port
        self.effectiveExpirationDate = pinSet.expires
        self.includeSubdomains = pinSet.host.kind != .exact
        self.notedHostname = pinSet.host.base
        self.servedChain = servedChain
        self.validatedChain = evaluation.chain
        self.knownPins = pinSet.pins.map { pin in
            switch pin {
            case .publicKey(let key): key.rfc7469Form
            case .certificate(let fingerprint): fingerprint.description
            }
        }
    }

    /// The report as RFC 7469's JSON object (UTF-8, keys sorted).
    ///
    /// - Returns: the JSON text's bytes.
    public func json() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Every member is a string, a number, a boolean, null or an array of strings: encoding
        // cannot fail.
        return (try? Array(encoder.encode(Wire(self)))) ?? []
    }

    /// RFC 3339 in UTC, whole seconds: `2026-11-28T10:12:44Z`.
    static func rfc3339(_ date: Date) -> String { date.formatted(.iso8601) }

    /// The JSON members, under the RFC's names.
    private struct Wire: Encodable {
        let report: PinFailureReport
        init(_ report: PinFailureReport) { self.report = report }

        enum CodingKeys: String, CodingKey {
            case dateTime = "date-time"
            case hostname
            case port
            case effectiveExpirationDate = "effective-expiration-date"
            case includeSubdomains = "include-subdomains"
            case notedHostname = "noted-hostname"
            case servedChain = "served-certificate-chain"
            case validatedChain = "validated-certificate-chain"
            case knownPins = "known-pins"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(PinFailureReport.rfc3339(report.date), forKey: .dateTime)
            try container.encode(report.hostname, forKey: .hostname)
            try container.encode(report.port, forKey: .port)
            try container.encode(
                report.effectiveExpirationDate.map(PinFailureReport.rfc3339),
                forKey: .effectiveExpirationDate
            )
            try container.encode(report.includeSubdomains, forKey: .includeSubdomains)
            try container.encode(report.notedHostname, forKey: .notedHostname)
            try container.encode(report.servedChain.map(\.pemRepresentation), forKey: .servedChain)
            try container.encode(report.validatedChain.map(\.pemRepresentation), forKey: .validatedChain)
            try container.encode(report.knownPins, forKey: .knownPins)
        }
    }
}

extension PinFailureReport {
    /// Waits until every report this process started has been sent or has failed, or until
    /// `timeout` passes: for a short-lived program that exits right after a pin failure (the
    /// reports are sent on threads of their own, which end with the process).
    ///
    /// - Parameter timeout: the longest to wait; each report's own `PinReportURI.timeout` bounds it
    ///   too.
    /// - Returns: true when no report is pending any more.
    public static func waitForPendingReports(timeout: Duration) -> Bool {
        PinFailureReporter.shared.waitForPendingReports(timeout: timeout)
    }
}
