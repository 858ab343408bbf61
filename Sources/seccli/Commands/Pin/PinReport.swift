import SecKit

#if canImport(Glibc)
import Glibc
#endif

/// What `seccli pin` prints: the certificates from depth 0 with their fingerprints and pins, pin
/// lines ready to paste into curl and OkHttp, and the outcome of the `--expect` check.
struct PinReport {
    /// The chain (or the file's certificates), depth 0 first.
    var certificates: [X509Certificate]
    /// The host name the OkHttp lines pin.
    var host: String
    /// The connection the chain came from; nil for `--file`.
    var connection: Connection?
    /// The `--expect` check; nil when no pin was expected.
    var evaluation: PinEvaluation?

    struct Connection: Encodable {
        var host: String
        var port: Int
        /// The IP address connected to.
        var address: String
        var serverName: String
        var protocolVersion: String
        var cipher: String
        /// `system`, `ca-file` or `pin-only`.
        var trust: String
        var clientCertificateRequested: Bool
    }

    // MARK: - Text

    /// The report as lines. Names from the server or the file (host, subject, issuer, the OkHttp
    /// host taken from a DNS name) go through `UntrustedText`: OpenSSL escapes a name's C0 controls
    /// but not C1 ones or U+2028, and a DNS name is not escaped at all.
    var text: String {
        let safe = UntrustedText.escaped
        var lines: [String] = []
        if let connection {
            lines.append(
                "connected to \(safe(connection.host, false)) port \(connection.port) (\(connection.address)), server name \(safe(connection.serverName, false)): "
                    + "\(connection.protocolVersion), \(connection.cipher), trust: \(connection.trust)"
                    + (connection.clientCertificateRequested ? ", client certificate requested" : "")
            )
            lines.append("")
        }
        for (depth, certificate) in certificates.enumerated() {
            lines += [
                "depth \(depth)",
                "subject=\(safe(certificate.subject, false))",
                "issuer=\(safe(certificate.issuer, false))",
                "notAfter=\(Self.opensslDate(certificate.notAfter))",
                certificate.fingerprint(.sha256).description,
                certificate.fingerprint(.sha1).description,
                "pin: \(certificate.publicKeyPin)",
                "",
            ]
        }
        lines.append("# curl (checks the server's own key, depth 0; add a backup key's pin after a ';')")
        lines.append("--pinnedpubkey '\(curlPins)'")
        lines.append("# OkHttp CertificatePinner.Builder() (any certificate of the chain may match)")
        lines += okHttpPins.map { ".add(\(UntrustedText.quoted(host)), \"\($0)\")" }
        if let evaluation {
            lines.append("")
            lines.append("pin check: \(safe(evaluation.description, false))")
            lines += evaluation.warnings.map { "pin warning: \(safe($0.description, false))" }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// curl's `--pinnedpubkey` value: curl compares only the server certificate's key.
    private var curlPins: String { certificates.first.map(\.publicKeyPin.curlForm) ?? "" }

    /// One OkHttp pin per distinct key of the chain, depth 0 first.
    private var okHttpPins: [String] {
        var seen: Set<PublicKeyPin> = []
        return certificates.map(\.publicKeyPin).filter { seen.insert($0).inserted }.map(\.description)
    }

    /// `Dec  2 09:12:04 2026 GMT`, as `openssl x509 -enddate` prints it (`ASN1_TIME_print`).
    static func opensslDate(_ date: Date) -> String {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        // gmtime_r, not Calendar: FoundationEssentials without ICU has no named time zones.
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var c = tm()
        gmtime_r(&seconds, &c)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return
            "\(months[Int(c.tm_mon)]) \(c.tm_mday < 10 ? " " : "")\(c.tm_mday) \(two(c.tm_hour)):\(two(c.tm_min)):\(two(c.tm_sec)) \(Int(c.tm_year) + 1900) GMT"
    }

    // MARK: - JSON

    /// The `--json` document (shape documented in docs/seccli.md).
    func json() throws -> String {
        try JSONOutput.text(Document(self)) + "\n"
    }

    private struct Document: Encodable {
        struct Entry: Encodable {
            var depth: Int
            var subject: String
            var issuer: String
            var serialNumber: String
            var notBefore: String
            var notAfter: String
            var sha256Fingerprint: String
            var sha1Fingerprint: String
            var pin: String
        }
        struct OkHttp: Encodable {
            var host: String
            var pins: [String]
        }
        struct Expected: Encodable {
            var pins: [String]
            var matched: Bool
            var matchedPin: String?
            var depth: Int?
            var warnings: [String]
        }
        var connection: Connection?
        var certificates: [Entry]
        var curlPinnedPubkey: String
        var okHttp: OkHttp
        var expected: Expected?

        init(_ report: PinReport) {
            connection = report.connection
            certificates = report.certificates.enumerated().map { depth, certificate in
                Entry(
                    depth: depth,
                    subject: certificate.subject,
                    issuer: certificate.issuer,
                    serialNumber: certificate.serialNumber,
                    notBefore: certificate.notBefore.formatted(.iso8601),
                    notAfter: certificate.notAfter.formatted(.iso8601),
                    sha256Fingerprint: certificate.fingerprint(.sha256).colonHexString,
                    sha1Fingerprint: certificate.fingerprint(.sha1).colonHexString,
                    pin: certificate.publicKeyPin.description
                )
            }
            curlPinnedPubkey = report.curlPins
            okHttp = OkHttp(host: report.host, pins: report.okHttpPins)
            expected = report.evaluation.map { evaluation in
                var match: (pin: Pin, depth: Int)?
                if case .matched(let pin, let depth) = evaluation.outcome { match = (pin, depth) }
                return Expected(
                    pins: evaluation.expectedPins.map(\.description),
                    matched: match != nil,
                    matchedPin: match?.pin.description,
                    depth: match?.depth,
                    warnings: evaluation.warnings.map(\.description)
                )
            }
        }
    }
}
