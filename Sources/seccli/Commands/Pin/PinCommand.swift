import ArgumentParser
import SecKit

extension SecCLI {
    struct PinCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pin",
            abstract:
                "Print the certificates and public-key pins of a TLS server or a certificate file, and check expected pins.",
            discussion: """
                Connects to HOST (port 443 unless given; IPv6 as [::1]:8443), verifies the server's \
                chain (system CAs, --ca, or with --pin-only the --expect pins alone) and host name, and \
                prints for each certificate of the verified chain from depth 0: subject, issuer, notAfter, \
                the SHA-256 and SHA-1 fingerprints as 'openssl x509 -fingerprint' prints them, and its \
                RFC 7469 pin (sha256/<base64> of the public key); then pin lines ready to paste for curl \
                (--pinnedpubkey) and OkHttp (CertificatePinner). --file does the same offline for the \
                certificates of a PEM or DER file. With --expect, at least one given pin must match a \
                certificate of the chain. Passphrases come from a source (env:VAR, file:PATH, fd:N, stdin, keyring:SERVICE/ACCOUNT), \
                never from the command line. --identity NAME logs in with a client identity stored with \
                'seccli identity import'. --report-uri URL posts an RFC 7469 pin-failure report (JSON) \
                to URL when no --expect pin matches (verified with the system's CAs, or --report-ca); the \
                outcome and exit code are the same whether or not it arrives.

                \(ExitStatus.help(for: "pin"))
                """
        )

        @Argument(help: ArgumentHelp("The server: HOST[:PORT], [IPV6]:PORT.", valueName: "host[:port]"))
        var server: String?

        @Option(
            name: .customLong("file"),
            help: ArgumentHelp(
                "Read the certificates of this PEM (one or more) or DER file instead of connecting.",
                valueName: "file"
            )
        )
        var file: String?

        @OptionGroup var expected: ExpectedPinOptions

        @Option(
            name: .customLong("report-uri"),
            help: ArgumentHelp(
                "Post an RFC 7469 pin-failure report to this http(s) URL when no --expect pin matches.",
                valueName: "url"
            )
        )
        var reportURI: String?

        @Option(
            name: .customLong("report-ca"),
            help: ArgumentHelp(
                "The CA certificates (PEM) of an https --report-uri collector, instead of the system's.",
                valueName: "file"
            )
        )
        var reportCA: String?
        @OptionGroup var connection: TLSClientOptions
        @OptionGroup var identity: ClientIdentityOptions
        @OptionGroup var storedIdentity: StoredIdentityOptions

        @Flag(help: "Print one JSON object (shape in docs/seccli.md).")
        var json = false

        func validate() throws {
            switch (server, file) {
            case (nil, nil): throw ValidationError("give HOST[:PORT] to connect to, or --file FILE")
            case (.some, .some): throw ValidationError("give HOST[:PORT] or --file FILE, not both")
            case (.some(let server), nil): _ = try ServerAddress(parsing: server)
            case (nil, .some): try Self.applicability.validate(self)
            }
            if storedIdentity.name != nil && (identity.p12 != nil || identity.cert != nil) {
                throw ValidationError("--identity excludes --p12 and --cert")
            }
            if connection.pinOnly && expected.texts.isEmpty {
                throw ValidationError("--pin-only needs at least one --expect PIN")
            }
            if reportURI != nil && expected.texts.isEmpty {
                throw ValidationError("--report-uri needs at least one --expect PIN")
            }
            if reportCA != nil && reportURI == nil { throw ValidationError("--report-ca needs --report-uri") }
            _ = try reportCollector()
        }

        /// The `--report-uri` collector, if any.
        func reportCollector() throws -> PinReportURI? {
            guard let reportURI else { return nil }
            do { return try PinReportURI(reportURI, caFile: reportCA) } catch {
                throw ValidationError("--report-uri: \(error)")
            }
        }

        func run() throws {
            if let file {
                try inspect(file: file)
            } else if let server {
                try connect(to: ServerAddress(parsing: server))
            }
        }

        /// The options that only apply when connecting, refused with `--file`.
        static let applicability: OptionApplicability<Self> = {
            let connectionOnly: [(String, @Sendable (Self) -> Bool)] = [
                ("--ca", { $0.connection.caFile != nil }), ("--pin-only", { $0.connection.pinOnly }),
                ("--timeout", { $0.connection.timeout != nil }), ("--cert", { $0.identity.cert != nil }),
                ("--key", { $0.identity.key != nil }), ("--key-password", { $0.identity.keyPassword != nil }),
                ("--p12", { $0.identity.p12 != nil }), ("--p12-password", { $0.identity.p12Password != nil }),
                ("--identity", { $0.storedIdentity.name != nil }),
                ("--report-uri", { $0.reportURI != nil }), ("--report-ca", { $0.reportCA != nil }),
            ]
            return OptionApplicability(
                rules: connectionOnly.map { .init($0, given: $1, appliesTo: { $0.file == nil }, "HOST[:PORT]") },
                describe: { _ in "pin --file (no connection)" }
            )
        }()

        /// `--file`: the file's certificates, checked against the expected pins for the OkHttp host.
        private func inspect(file: String) throws {
            let certificates = try CertificateFile.load(file)
            let host = connection.servername ?? Self.defaultHost(certificates[0])
            let pins = try expected.pins()
            let evaluation =
                pins.isEmpty
                ? nil : PinEvaluation.evaluate(certificates, host: host, policy: try PinPolicy(host: host, pins: pins))
            try emit(PinReport(certificates: certificates, host: host, connection: nil, evaluation: evaluation))
        }

        /// HOST: connect, verify, check the pins; the verified chain is printed.
        private func connect(to address: ServerAddress) throws {
            let report = try reportCollector()
            let configuration = try connection.configuration(
                host: address.host,
                pins: try expected.pins(),
                identity: try storedIdentity.identity() ?? identity.identity(),
                reportURI: report
            )
            let established: TLSConnection
            do {
                established = try TLSClient(configuration: configuration).connect(
                    host: address.host,
                    port: address.port
                )
            } catch .pinMismatch(let evaluation) {
                // The report is posted on a thread of its own, which would end with the process.
                if let report { _ = PinFailureReport.waitForPendingReports(timeout: report.timeout) }
                // The chain verified but no pin matched: show it, so the right pins can be seen.
                try emit(
                    PinReport(
                        certificates: evaluation.chain,
                        host: evaluation.host,
                        connection: nil,
                        evaluation: evaluation
                    )
                )
                return
            }
            established.close()
            let summary = PinReport.Connection(
                host: established.host,
                port: established.port,
                address: established.remoteAddress,
                serverName: established.serverName,
                protocolVersion: established.protocolVersion.description,
                cipher: established.cipher,
                trust: connection.trustName,
                clientCertificateRequested: established.clientCertificateRequested
            )
            let evaluation = established.pinEvaluation
            try emit(
                PinReport(
                    certificates: established.verifiedChain,
                    host: established.serverName,
                    connection: summary,
                    evaluation: evaluation.outcome == .notPinned ? nil : evaluation
                )
            )
        }

        /// Prints `report`; a failed `--expect` check then exits 3 with one line on standard error.
        private func emit(_ report: PinReport) throws {
            print(json ? try report.json() : report.text, terminator: "")
            if let evaluation = report.evaluation, evaluation.outcome == .mismatched {
                throw Failure(message: TLSError.pinMismatch(evaluation).description, exitCode: .pinMismatch)
            }
        }

        /// The first DNS name of `certificate`, else `HOST`.
        static func defaultHost(_ certificate: X509Certificate) -> String {
            for name in certificate.subjectAlternativeNames { if case .dns(let dns) = name { return dns } }
            return "HOST"
        }
    }
}
