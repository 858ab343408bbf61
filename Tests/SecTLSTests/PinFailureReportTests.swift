import Foundation
import SecTLS
import TestSupport
import Testing

/// RFC 7469 pin-failure reports from `TLSClient`, against `openssl s_server` and the Python
/// collector of Tests/Peers: every field (both chains parsed by `openssl x509`), enforced and
/// report-only pin sets, the rate limit, and collectors that never answer or refuse.
@Suite(.timeLimit(.minutes(3))) struct PinFailureReportTests {
    let fixture = TestPKI.shared

    /// A configuration trusting the fixture's CA with one pin set of `pins` for `host`.
    func configuration(
        host: String = "127.0.0.1",
        pins: [Pin],
        mode: PinSet.Mode = .enforce,
        expires: Date? = nil,
        report: PinReportURI
    ) throws -> TLSClientConfiguration {
        var configuration = try fixture.clientConfiguration()
        configuration.pinPolicy = PinPolicy(
            [try PinSet(host: host, pins: pins, expires: expires, mode: mode)],
            reportURI: report
        )
        return configuration
    }

    /// An HTTPS collector with the fixture's localhost certificate, verified against its CA.
    func httpsCollector() throws -> (PinReportCollector, PinReportURI) {
        let collector = try PinReportCollector.start(
            certificate: fixture.path("chain.pem"),
            key: fixture.path("leaf-rsa.key")
        )
        return (collector, try PinReportURI(collector.url("/hpkp"), caFile: fixture.path("ca.pem")))
    }

    @Test func anEnforcedMismatchIsRefusedAndReportedWithEveryField() throws {
        let server = try fixture.server(["-tls1_3"])
        defer { server.stop() }
        let (collector, uri) = try httpsCollector()
        defer { collector.stop() }
        let pins = [try fixture.pin("other"), try fixture.pin("rogue-ca")]
        let expires = Date(timeIntervalSince1970: 1_900_000_000)
        let start = Date()
        #expect {
            try TLSClient(configuration: try configuration(pins: pins, expires: expires, report: uri))
                .connect(host: "127.0.0.1", port: server.port)
        } throws: { error in
            guard case TLSError.pinMismatch(let evaluation) = error else { return false }
            return evaluation.outcome == .mismatched
        }
        let requests = collector.waitForRequests(1)
        try #require(requests.count == 1)
        #expect(requests[0].path == "/hpkp")
        let problems = requests[0].problems(
            against: ExpectedPinReport(
                hostname: "127.0.0.1",
                port: server.port,
                effectiveExpirationDate: "2030-03-17T17:46:40Z",
                served: ["leaf-rsa", "intermediate"],
                validated: TestPKI.serverChain,
                knownPins: try ["other", "rogue-ca"].map {
                    "pin-sha256=\"\(try fixture.certificate($0).publicKeyPin.base64)\""
                },
                notBefore: start
            ),
            fixture: fixture
        )
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test func aReportOnlyMismatchConnectsAndIsReported() throws {
        let server = try fixture.server(["-tls1_2"])
        defer { server.stop() }
        let collector = try PinReportCollector.start()
        defer { collector.stop() }
        let start = Date()
        let pin = try fixture.pin("other")
        // `**.localhost`: the pins cover localhost and the names below it (include-subdomains).
        let connection = try TLSClient(
            configuration: try configuration(
                host: "**.localhost",
                pins: [pin],
                mode: .reportOnly,
                report: try PinReportURI(collector.url("/r"))
            )
        ).connect(host: "localhost", port: server.port)
        #expect(connection.pinEvaluation.warnings.contains(.reportOnlyMismatch))
        connection.close()
        let requests = collector.waitForRequests(1)
        try #require(requests.count == 1)
        let problems = requests[0].problems(
            against: ExpectedPinReport(
                hostname: "localhost",
                port: server.port,
                includeSubdomains: true,
                served: ["leaf-rsa", "intermediate"],
                validated: TestPKI.serverChain,
                knownPins: ["pin-sha256=\"\(try fixture.certificate("other").publicKeyPin.base64)\""],
                notBefore: start
            ),
            fixture: fixture
        )
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test func aFailureIsReportedOnceAndAnotherFailureAgain() throws {
        let collector = try PinReportCollector.start()
        defer { collector.stop() }
        let configuration = try configuration(
            pins: [try fixture.pin("other")],
            mode: .reportOnly,
            report: try PinReportURI(collector.url("/r"))
        )
        let client = try TLSClient(configuration: configuration)
        var server = try fixture.server()
        let port = server.port
        for _ in 0..<2 { try client.connect(host: "127.0.0.1", port: port).close() }
        #expect(collector.waitForRequests(1).count == 1)
        #expect(PinFailureReport.waitForPendingReports(timeout: .seconds(10)))
        // The same failure again, from another client of the same policy: still one report.
        try TLSClient(configuration: configuration).connect(host: "127.0.0.1", port: port).close()
        #expect(PinFailureReport.waitForPendingReports(timeout: .seconds(10)))
        #expect(collector.requests.count == 1)
        // Another chain on the same host and port fails another way: a second report.
        server.stop()
        server = try fixture.server(cert: "leaf-ec", port: port)
        defer { server.stop() }
        try client.connect(host: "127.0.0.1", port: port).close()
        let requests = collector.waitForRequests(2)
        try #require(requests.count == 2)
        let validated = (requests[1].json?["validated-certificate-chain"] as? [String])?.first
        #expect(validated == (try fixture.certificate("leaf-ec").pemRepresentation))
    }

    /// A collector that accepts the connection and never answers, and a port that refuses it: the
    /// enforced failure is still `pinMismatch`, report-only still connects and carries data, and
    /// each call returns (the suite's time limit would stop it otherwise).
    @Test(arguments: [true, false])
    func aDeadCollectorChangesNothing(silent: Bool) throws {
        let server = try fixture.server()
        defer { server.stop() }
        let listener = try SilentListener()
        let port = silent ? listener.port : try TLSTestServer.freePort()
        let uri = try PinReportURI("http://127.0.0.1:\(port)/r", timeout: .seconds(2))
        let pins = [try fixture.pin("other")]
        #expect(throws: TLSError.self) {
            try TLSClient(configuration: try configuration(pins: pins, report: uri))
                .connect(host: "127.0.0.1", port: server.port)
        }
        let connection = try TLSClient(
            configuration: try configuration(host: "localhost", pins: pins, mode: .reportOnly, report: uri)
        ).connect(host: "localhost", port: server.port)
        try connection.write(Array("GET / HTTP/1.0\r\n\r\n".utf8))
        #expect(String(decoding: try connection.readToEnd(), as: UTF8.self).contains("200 ok"))
        connection.close()
        // The posts were made, and given up after their timeout.
        #expect(PinFailureReport.waitForPendingReports(timeout: .seconds(30 * ProcessRunner.timeoutScale)))
        if silent { #expect(listener.hasPendingConnection()) }
    }

    @Test func reportURIsAreChecked() throws {
        for text in ["ftp://collector/r", "collector/r", "https://", "https:///r", "https://a b/r", "http://x\n/r"] {
            #expect(throws: TLSError.self, "\(text)") { try PinReportURI(text) }
        }
        #expect(throws: TLSError.self) { try PinReportURI("https://collector/r", timeout: .zero) }
        #expect(try PinReportURI("HTTPS://collector.example/r").url == "HTTPS://collector.example/r")
    }

    @Test func aMatchOrAnExpiredPinSetSendsNoReport() throws {
        let server = try fixture.server()
        defer { server.stop() }
        let collector = try PinReportCollector.start()
        defer { collector.stop() }
        let uri = try PinReportURI(collector.url("/r"))
        try TLSClient(configuration: try configuration(pins: [try fixture.pin("intermediate")], report: uri))
            .connect(host: "127.0.0.1", port: server.port).close()
        try TLSClient(
            configuration: try configuration(
                pins: [try fixture.pin("other")],
                expires: Date(timeIntervalSinceNow: -60),
                report: uri
            )
        ).connect(host: "127.0.0.1", port: server.port).close()
        #expect(PinFailureReport.waitForPendingReports(timeout: .seconds(10)))
        #expect(collector.requests.isEmpty)
    }
}
