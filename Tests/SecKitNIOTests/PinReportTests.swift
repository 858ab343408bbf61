import Foundation
import NIOCore
import SecKitHTTPClient
import SecKitNIO
import SecTLS
import TestSupport
import Testing

/// RFC 7469 pin-failure reports from SecKitNIO's client and from AsyncHTTPClient configured by
/// SecKit, against `openssl s_server` and the Python collector of Tests/Peers: every field, enforced
/// and report-only, and a collector that never answers.
@Suite(.timeLimit(.minutes(3))) struct PinReportTests {
    let fixture = TestPKI.shared

    func configuration(
        pins: [Pin],
        mode: PinSet.Mode = .enforce,
        report: PinReportURI
    ) throws -> TLSClientConfiguration {
        var configuration = try fixture.clientConfiguration()
        configuration.pinPolicy = PinPolicy(
            [
                try PinSet(
                    host: "127.0.0.1",
                    pins: pins,
                    expires: Date(timeIntervalSince1970: 1_900_000_000),
                    mode: mode
                )
            ],
            reportURI: report
        )
        return configuration
    }

    func expected(port: Int, served: [String], validated: [String], since start: Date) throws -> ExpectedPinReport {
        ExpectedPinReport(
            hostname: "127.0.0.1",
            port: port,
            effectiveExpirationDate: "2030-03-17T17:46:40Z",
            served: served,
            validated: validated,
            knownPins: ["pin-sha256=\"\(try fixture.certificate("other").publicKeyPin.base64)\""],
            notBefore: start
        )
    }

    /// `GET /` through AsyncHTTPClient configured with `configuration` (HTTPClientTests' request).
    func get(_ server: TLSTestServer, _ configuration: TLSClientConfiguration) async throws -> String {
        try await HTTPClientTests().get(server, configuration)
    }

    @Test(arguments: [PinSet.Mode.enforce, .reportOnly])
    func secKitNIOReportsAMismatch(mode: PinSet.Mode) async throws {
        let server = try fixture.server()
        defer { server.stop() }
        let collector = try PinReportCollector.start()
        defer { collector.stop() }
        let start = Date()
        let configuration = try configuration(
            pins: [try fixture.pin("other")],
            mode: mode,
            report: try PinReportURI(collector.url("/r"))
        )
        let context = try ClientTLSContext(configuration: configuration)
        if mode == .enforce {
            await #expect { try await context.connect(host: "127.0.0.1", port: server.port) } throws: {
                isPinMismatch($0)
            }
        } else {
            let connection = try await context.connect(host: "127.0.0.1", port: server.port)
            #expect(connection.verified.pinEvaluation.warnings.contains(.reportOnlyMismatch))
            try await connection.channel.executeThenClose { _, _ in }
        }
        let requests = collector.waitForRequests(1)
        try #require(requests.count == 1)
        let problems = requests[0].problems(
            against: try expected(
                port: server.port,
                served: ["leaf-rsa", "intermediate"],
                validated: TestPKI.serverChain,
                since: start
            ),
            fixture: fixture
        )
        #expect(problems.isEmpty, "\(problems)")
    }

    /// AsyncHTTPClient shows SecKit only the server's certificate: it is both chains of the report.
    @Test(arguments: [PinSet.Mode.enforce, .reportOnly])
    func asyncHTTPClientReportsAMismatch(mode: PinSet.Mode) async throws {
        let server = try fixture.server()
        defer { server.stop() }
        let collector = try PinReportCollector.start()
        defer { collector.stop() }
        let start = Date()
        let configuration = try configuration(
            pins: [try fixture.pin("other")],
            mode: mode,
            report: try PinReportURI(collector.url("/r"))
        )
        if mode == .enforce {
            await #expect { try await get(server, configuration) } throws: { isPinMismatch($0) }
        } else {
            #expect(try await get(server, configuration).contains("s_server"))
        }
        let requests = collector.waitForRequests(1)
        try #require(requests.count == 1)
        let problems = requests[0].problems(
            against: try expected(port: server.port, served: ["leaf-rsa"], validated: ["leaf-rsa"], since: start),
            fixture: fixture
        )
        #expect(problems.isEmpty, "\(problems)")
    }

    /// A collector that accepts and never answers: both clients fail or connect as without one, and
    /// return.
    @Test func aCollectorThatNeverAnswersChangesNothing() async throws {
        let server = try fixture.server()
        defer { server.stop() }
        let listener = try SilentListener()
        let uri = try PinReportURI("http://127.0.0.1:\(listener.port)/r", timeout: .seconds(2))
        let enforced = try configuration(pins: [try fixture.pin("other")], report: uri)
        await #expect { try await get(server, enforced) } throws: { isPinMismatch($0) }
        await #expect {
            try await ClientTLSContext(configuration: enforced).connect(host: "127.0.0.1", port: server.port)
        } throws: { isPinMismatch($0) }
        let reportOnly = try configuration(pins: [try fixture.pin("other")], mode: .reportOnly, report: uri)
        #expect(try await get(server, reportOnly).contains("s_server"))
        #expect(PinFailureReport.waitForPendingReports(timeout: .seconds(30 * ProcessRunner.timeoutScale)))
        #expect(listener.hasPendingConnection())
    }
}
