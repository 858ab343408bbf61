import SecKit

/// What `seccli tls doctor` prints: a heading, one line per finding, and the verdict; or the same as JSON.
struct DoctorReport {
    var diagnosis: TLSDiagnosis
    /// How the findings name the client identity (they say "the client identity").
    var identityName: String?

    /// Each finding's message, with the identity's name; escaped when printed as text.
    private func message(_ finding: TLSDiagnosis.Finding) -> String {
        guard let identityName else { return finding.message }
        return finding.message.replacing("the client identity", with: identityName)
    }

    /// `ok  ` / `info` / `warn` / `FAIL`, so that problems stand out in a column.
    private static func label(_ severity: TLSDiagnosis.Finding.Severity) -> String {
        switch severity {
        case .ok: "ok  "
        case .info: "info"
        case .warning: "warn"
        case .blocking: "FAIL"
        }
    }

    /// The verdict line.
    private var verdict: String {
        guard let blocking = diagnosis.firstBlockingFinding else {
            return "verdict: the connection succeeds with every check"
        }
        return "verdict: blocked by \(blocking.code) (exit \(ExitStatus(blocking.problem).rawValue))"
    }

    var text: String {
        let safe = { (text: String) in UntrustedText.escaped(text) }
        var lines = [
            "tls doctor: \(safe(diagnosis.host)) port \(diagnosis.port), server name \(safe(diagnosis.serverName))"
        ]
        lines += diagnosis.findings.map { "\(Self.label($0.severity)) \($0.code): \(safe(message($0)))" }
        lines.append(verdict)
        return lines.joined(separator: "\n") + "\n"
    }

    func json() throws -> String { try JSONOutput.text(Document(self)) + "\n" }

    private struct Document: Encodable {
        struct Certificate: Encodable {
            var position: Int
            var subject: String
            var issuer: String
            var notBefore: String
            var notAfter: String
            var pin: String
            var sha256Fingerprint: String
        }
        struct Finding: Encodable {
            var code: String
            var severity: String
            var problem: String?
            var message: String
        }
        var host: String
        var port: Int
        var serverName: String
        var acceptedVersions: [String]
        var sentChain: [Certificate]
        var verifiedChain: [Certificate]
        /// The CA names the server asks client certificates from, by version; null when it asks for none.
        var clientCertificateCANames: [String: [String]]?
        var findings: [Finding]
        var succeeds: Bool
        var exitCode: Int32

        init(_ report: DoctorReport) {
            let diagnosis = report.diagnosis
            func entries(_ chain: [X509Certificate]) -> [Certificate] {
                chain.enumerated().map { position, certificate in
                    Certificate(
                        position: position,
                        subject: certificate.subject,
                        issuer: certificate.issuer,
                        notBefore: certificate.notBefore.formatted(.iso8601),
                        notAfter: certificate.notAfter.formatted(.iso8601),
                        pin: certificate.publicKeyPin.description,
                        sha256Fingerprint: certificate.fingerprint(.sha256).colonHexString
                    )
                }
            }
            host = diagnosis.host
            port = diagnosis.port
            serverName = diagnosis.serverName
            acceptedVersions = diagnosis.acceptedVersions
            sentChain = entries(diagnosis.sentChain)
            verifiedChain = entries(diagnosis.verifiedChain)
            clientCertificateCANames = diagnosis.requestedCANames
            findings = diagnosis.findings.map {
                Finding(
                    code: $0.code,
                    severity: $0.severity.rawValue,
                    problem: $0.problem?.rawValue,
                    message: report.message($0)
                )
            }
            let blocking = diagnosis.firstBlockingFinding
            succeeds = blocking == nil
            exitCode = blocking.map { ExitStatus($0.problem).rawValue } ?? 0
        }
    }
}
