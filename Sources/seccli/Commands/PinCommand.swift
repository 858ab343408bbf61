import ArgumentParser
import SecKit

extension SecCLI {
    struct PinCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pin",
            abstract: "Print the certificates and public-key pins of a TLS server or a certificate file, and check expected pins.",
            discussion: """
                For each certificate from depth 0: subject, issuer, notAfter, the SHA-256 and SHA-1 \
                fingerprints as 'openssl x509 -fingerprint' prints them, and its RFC 7469 pin \
                (sha256/<base64> of the public key); then pin lines ready to paste for curl \
                (--pinnedpubkey) and OkHttp (CertificatePinner). With --expect, the pins are checked.

                Exit codes: 0 success (an expected pin matched, when --expect is given); 2 a file \
                (certificate, key, PKCS#12) cannot be read or parsed; 3 no expected pin matches; \
                64 usage error.
                """
        )

        @Option(name: .customLong("file"), help: ArgumentHelp(
            "Read the certificates of this PEM (one or more) or DER file instead of connecting.", valueName: "file"))
        var file: String?

        @OptionGroup var expected: ExpectedPinOptions

        @Option(help: ArgumentHelp(
            "With --file: the host name in the OkHttp lines (default: the first certificate's first DNS name).",
            valueName: "name"))
        var servername: String?

        @Flag(help: "Print one JSON object (shape in docs/seccli.md).")
        var json = false

        func validate() throws {
            guard file != nil else { throw ValidationError("give --file FILE") }
        }

        func run() throws {
            guard let file else { return }
            let certificates = try CertificateFile.load(file)
            let pins = try expected.pins()
            let report = PinReport(
                certificates: certificates,
                host: servername ?? Self.defaultHost(certificates[0]),
                connection: nil,
                check: pins.isEmpty ? nil : PinReport.Check(expected: pins, certificates: certificates))
            try emit(report)
        }

        /// Prints `report`; a failed `--expect` check then exits 3 with one line on standard error.
        private func emit(_ report: PinReport) throws {
            print(json ? try report.json() : report.text, terminator: "")
            if let check = report.check, check.match == nil {
                throw Failure(message: "pin mismatch: no expected pin (\(check.expected.count) given) matches any of the \(report.certificates.count) certificates",
                              exitCode: .pinMismatch)
            }
        }

        /// The first DNS name of `certificate`, else `HOST`.
        static func defaultHost(_ certificate: Certificate) -> String {
            for name in certificate.subjectAlternativeNames { if case .dns(let dns) = name { return dns } }
            return "HOST"
        }
    }
}
