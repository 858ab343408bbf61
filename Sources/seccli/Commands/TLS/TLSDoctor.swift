import ArgumentParser
import SecKit

extension SecCLI.TLSCommand {
    struct TLSDoctor: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "doctor",
            abstract: "Explain why a TLS or mutual TLS connection to a server fails, and how to fix it.",
            discussion: """
                Connects to HOST (port 443 unless given; IPv6 as [::1]:8443) the way 'seccli pin' does and \
                reports, one finding a line: the TLS versions the server accepts (each probed); the chain \
                as sent (its order, a missing intermediate judged against --ca or the system CAs, a root \
                sent needlessly, expired or not yet valid certificates with their dates); whether the \
                certificate covers the server name (DNS and IP subjectAltNames); its key usage and extended \
                key usage; which --pin matched; whether the server asks for a client certificate and from \
                which CAs (under TLS 1.3 and 1.2); whether the client identity (--cert/--key, --p12 or \
                --identity) comes from one of them, its expiry and extended key usage; then the outcome of \
                a real connection with these options. Each finding has a stable code (--json lists them). \
                Exits 0 when a verified (and, with --pin, pinned) connection with the identity succeeds; \
                otherwise with the exit code 'seccli pin' gives the first blocking problem, after the report.

                \(ExitStatus.help(for: "tls"))
                """
        )

        @Argument(help: ArgumentHelp("The server: HOST[:PORT], [IPV6]:PORT.", valueName: "host[:port]"))
        var server: String

        @Option(
            name: .customLong("pin"),
            help: ArgumentHelp(
                "A pin the chain must satisfy (repeatable; any one matching is enough), in any notation 'seccli pin --expect' reads.",
                valueName: "pin"
            )
        )
        var pinTexts: [String] = []

        @OptionGroup var connection: TLSClientOptions
        @OptionGroup var identity: ClientIdentityOptions
        @OptionGroup var storedIdentity: StoredIdentityOptions

        @Flag(help: "Print one JSON object: every finding with its code (shape in docs/seccli.md).")
        var json = false

        func validate() throws {
            _ = try ServerAddress(parsing: server)
            _ = try pins()
            if storedIdentity.name != nil && (identity.p12 != nil || identity.cert != nil) {
                throw ValidationError("--identity excludes --p12 and --cert")
            }
            if connection.pinOnly && pinTexts.isEmpty {
                throw ValidationError("--pin-only needs at least one --pin PIN")
            }
        }

        private func pins() throws -> [Pin] {
            try pinTexts.enumerated().map { index, text in
                do { return try Pin(parsing: text) } catch {
                    throw ValidationError("--pin\(pinTexts.count > 1 ? " #\(index + 1)" : ""): \(error)")
                }
            }
        }

        func run() throws {
            let address = try ServerAddress(parsing: server)
            let clientIdentity = try storedIdentity.identity() ?? identity.identity()
            let configuration = try connection.configuration(
                host: address.host,
                pins: try pins(),
                identity: clientIdentity
            )
            let diagnosis = try TLSDiagnosis.diagnose(
                host: address.host,
                port: address.port,
                configuration: configuration,
                alternatives: Self.storedIdentities
            )
            let report = DoctorReport(diagnosis: diagnosis, identityName: identityName)
            print(json ? try report.json() : report.text, terminator: "")
            if let blocking = diagnosis.firstBlockingFinding {
                throw Failure(message: "\(blocking.code): \(blocking.message)", exitCode: ExitStatus(blocking.problem))
            }
        }

        /// The identities `seccli identity import` stored, by their summaries (no key is read).
        static func storedIdentities() throws -> [TLSDiagnosis.IdentitySummary] {
            try StoreOptions.parse([]).identityStore().list().identities.map {
                TLSDiagnosis.IdentitySummary(
                    name: "the stored identity \($0.name)",
                    subject: $0.subject,
                    issuer: $0.issuer,
                    notAfter: $0.notAfter
                )
            }
        }

        /// How the report names the client identity.
        private var identityName: String? {
            if let name = storedIdentity.name { return "the stored identity \(name)" }
            if let p12 = identity.p12 { return "the identity \(p12)" }
            return identity.cert.map { "the identity \($0)" }
        }
    }
}

extension ExitStatus {
    /// `seccli pin`'s code for a blocking problem of a diagnosis.
    init(_ problem: TLSDiagnosis.Finding.Problem?) {
        switch problem {
        case .pin: self = .pinMismatch
        case .verification: self = .verificationFailed
        case .clientCertificate: self = .clientCertificateRefused
        case .connection, nil: self = .connectionFailed
        }
    }
}
