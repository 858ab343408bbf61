import AsyncHTTPClient
import Foundation
import InMemoryLogging
import Logging
import Metrics
import MetricsTestKit
import NIOCore
import SecKitHTTPClient
import SecKitNIO
import SecTLS
import TestSupport
import Testing

/// What SecKitNIO's contexts log and count, captured with swift-log's `InMemoryLogHandler` and
/// swift-metrics' `TestMetrics`, against real peers (`curl`, `openssl s_server`); and their
/// rotation at run time. No secret of the test (a key, a passphrase) ever appears in a log or a
/// metric.
@Suite struct ObservabilityTests {
    let fixture = TestPKI.shared
    typealias Identity = MutualTLSClientTools.Identity

    func serverContext(
        certificate: String = "chain.pem",
        key: String = "leaf-rsa.key",
        allowedPins: [Pin]? = nil,
        logger: Logger,
        metrics: TestMetrics
    ) throws -> ServerTLSContext {
        try ServerTLSContext(
            identity: try ClientIdentity(certificateFile: fixture.path(certificate), keyFile: fixture.path(key)),
            clientVerifier: try ClientCertificateVerifier(
                clientCA: .caFile(fixture.path("ca.pem")),
                allowedPins: allowedPins
            ),
            // No idle timeout: the rotation test keeps a connection open across other handshakes,
            // which a loaded machine running the whole suite can stretch past a minute.
            limits: ServerConnectionLimits(
                handshakeTimeout: .seconds(10 * ProcessRunner.timeoutScale),
                idleTimeout: nil
            ),
            logger: logger,
            metricsFactory: metrics
        )
    }

    func counter(_ metrics: TestMetrics, _ label: String, _ dimensions: [(String, String)]) -> Int64 {
        metrics.counterTotal(label: label, dimensions: dimensions)
    }

    // MARK: - Server

    @Test func aServerLogsAndCountsVerifiedAndRefusedClients() async throws {
        let (logger, logs) = CapturedObservability.logger()
        let metrics = TestMetrics()
        let allowed = try fixture.pin("client-ec")
        let context = try serverContext(allowedPins: [allowed], logger: logger, metrics: metrics)
        let server = try await PlainNIOMutualTLSServer.start(context: context)
        let admitted = try await MutualTLSClientTools.curl(port: server.port, identity: .clientEC, version: .tls13)
        let notAllowed = try await MutualTLSClientTools.curl(port: server.port, identity: .client, version: .tls13)
        let rogue = try await MutualTLSClientTools.curl(port: server.port, identity: .rogue, version: .tls12)
        let none = try await MutualTLSClientTools.curl(port: server.port, identity: nil, version: .tls13)
        try await server.stop()
        #expect(admitted.status == 0, "\(admitted.stderr)")
        #expect(notAllowed.status != 0 && rogue.status != 0 && none.status != 0)

        // The handshakes end on the server's event loop, possibly after curl has exited.
        let handshakes = "seckit_tls_handshakes_total"
        try await eventually {
            counter(metrics, handshakes, [("side", "server"), ("outcome", "verified")])
                + counter(metrics, handshakes, [("side", "server"), ("outcome", "refused")])
                + counter(metrics, handshakes, [("side", "server"), ("outcome", "failed")]) == 4
        }
        #expect(counter(metrics, handshakes, [("side", "server"), ("outcome", "verified")]) == 1)
        #expect(counter(metrics, handshakes, [("side", "server"), ("outcome", "refused")]) == 2)
        #expect(counter(metrics, handshakes, [("side", "server"), ("outcome", "failed")]) == 1)
        let failures = "seckit_tls_verification_failures_total"
        #expect(counter(metrics, failures, [("side", "server"), ("reason", "client_not_allowed")]) == 1)
        #expect(counter(metrics, failures, [("side", "server"), ("reason", "unknown_issuer")]) == 1)
        let durations = try metrics.expectTimer(
            "seckit_tls_handshake_duration_seconds",
            [("side", "server"), ("outcome", "verified")]
        )
        #expect(durations.values.count == 1 && durations.values[0] > 0)

        let entries = logs.entries
        let verified = try #require(entries.first { $0.message == "TLS handshake verified" })
        #expect(verified.level == .debug)
        #expect(verified.metadata["tls.client.pin"] == "\(allowed)")
        let refusedPin = try #require(entries.first { $0.metadata["tls.reason"] == "client_not_allowed" })
        #expect(refusedPin.level == .warning && refusedPin.message == "TLS client refused")
        #expect(refusedPin.metadata["tls.pins.observed"] == .array(["\(try fixture.pin("client"))"]))
        #expect(refusedPin.metadata["tls.pins.expected"] == .array(["\(allowed)"]))
        #expect(refusedPin.metadata["tls.peer"]?.description.hasPrefix("127.0.0.1:") == true)
        let refusedCA = try #require(entries.first { $0.metadata["tls.reason"] == "unknown_issuer" })
        #expect(refusedCA.level == .warning)
        #expect(refusedCA.metadata["tls.pins.observed"] == .array(["\(try fixture.pin("rogue-client"))"]))
        let noCertificate = try #require(entries.first { $0.message == "TLS handshake failed" })
        #expect(noCertificate.level == .notice)

        let text = CapturedObservability.everything(logs, metrics)
        for secret in try fixture.secrets() { #expect(!text.contains(secret)) }
    }

    /// The default logger logs nothing, and nothing is bootstrapped: the handshakes still work.
    @Test func theDefaultLoggerIsSilent() async throws {
        let context = try ServerTLSContext(
            identity: try ClientIdentity(
                certificateFile: fixture.path("chain.pem"),
                keyFile: fixture.path("leaf-rsa.key")
            ),
            clientVerifier: try ClientCertificateVerifier(clientCA: .caFile(fixture.path("ca.pem")))
        )
        let server = try await PlainNIOMutualTLSServer.start(context: context)
        let admitted = try await MutualTLSClientTools.curl(port: server.port, identity: .client, version: .tls13)
        try await server.stop()
        #expect(admitted.status == 0, "\(admitted.stderr)")
    }

    // MARK: - Client

    @Test func aClientLogsTheObservedAndExpectedPinsOfARefusedServer() async throws {
        let server = try fixture.server(["-tls1_3"])
        defer { server.stop() }
        let (logger, logs) = CapturedObservability.logger()
        let metrics = TestMetrics()
        let wrong = try fixture.pin("other")
        let configuration = try fixture.clientConfiguration(pins: [wrong])
        let context = try ClientTLSContext(configuration: configuration, logger: logger, metricsFactory: metrics)

        await #expect(throws: TLSError.self) { try await context.connect(host: "127.0.0.1", port: server.port) }
        let refusal = try #require(logs.entries.first { $0.message == "TLS server refused" })
        #expect(refusal.level == .warning)
        #expect(refusal.metadata["tls.reason"] == "pin_mismatch")
        #expect(refusal.metadata["tls.host"] == "127.0.0.1")
        #expect(refusal.metadata["tls.pins.expected"] == .array(["\(wrong)"]))
        let observed = try ["leaf-rsa", "intermediate", "ca"].map { "\(try fixture.certificate($0).publicKeyPin)" }
        #expect(refusal.metadata["tls.pins.observed"] == .array(observed.map { .string($0) }))
        #expect(
            counter(
                metrics,
                "seckit_tls_verification_failures_total",
                [("side", "client"), ("reason", "pin_mismatch")]
            )
                == 1
        )

        // Rotation: the right pin from now on; the next connection passes.
        var rotated = context.configuration
        rotated.pinPolicy = try PinPolicy(host: "127.0.0.1", pins: [try fixture.pin("leaf-rsa")])
        try context.reload(configuration: rotated)
        let connection = try await context.connect(host: "127.0.0.1", port: server.port)
        try await connection.channel.executeThenClose { _, _ in }
        #expect(
            counter(metrics, "seckit_tls_handshakes_total", [("side", "client"), ("outcome", "verified")]) == 1
        )
        #expect(logs.entries.contains { $0.message == "TLS client settings reloaded" && $0.level == .notice })

        // A configuration that cannot work is refused, and the current one stays.
        var broken = rotated
        broken.trustRoots = .caFile("/nonexistent/ca.pem")
        #expect(throws: TLSError.self) { try context.reload(configuration: broken) }
        #expect(context.configuration.trustRoots == rotated.trustRoots)
        let again = try await context.connect(host: "127.0.0.1", port: server.port)
        try await again.channel.executeThenClose { _, _ in }
    }

    /// AsyncHTTPClient's connections: a pin refusal logged with both pin lists and counted.
    @Test func asyncHTTPClientPinRefusalsAreLoggedAndCounted() async throws {
        let server = try fixture.server(["-tls1_3"])
        defer { server.stop() }
        let (logger, logs) = CapturedObservability.logger()
        let metrics = TestMetrics()
        let wrong = try fixture.pin("other")
        let client = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: try HTTPClient.Configuration(
                secKit: try fixture.clientConfiguration(pins: [wrong]),
                logger: logger,
                metricsFactory: metrics
            )
        )
        await #expect(throws: (any Error).self) {
            _ = try await client.execute(
                HTTPClientRequest(url: "https://127.0.0.1:\(server.port)/"),
                timeout: .seconds(30)
            )
        }
        try await client.shutdown()
        let refusal = try #require(logs.entries.first { $0.message == "TLS server refused" })
        #expect(refusal.metadata["tls.reason"] == "pin_mismatch")
        #expect(refusal.metadata["tls.pins.expected"] == .array(["\(wrong)"]))
        #expect(
            counter(metrics, "seckit_tls_handshakes_total", [("side", "client"), ("outcome", "refused")]) == 1
        )
    }

    // MARK: - Rotation

    /// A server's identity is replaced with one of another CA: new handshakes use it, and a
    /// connection opened before goes on with the old one.
    @Test func aServerRotatesItsIdentityForNewConnectionsOnly() async throws {
        let (logger, logs) = CapturedObservability.logger()
        let context = try serverContext(logger: logger, metrics: TestMetrics())
        let server = try await PlainNIOMutualTLSServer.start(context: context)
        defer { Task { try? await server.stop() } }
        let oldTrust = try fixture.clientConfiguration(
            identity: try ClientIdentity(
                certificateFile: fixture.path("client-chain.pem"),
                keyFile: fixture.path("client.key")
            )
        )
        var newTrust = oldTrust
        newTrust.trustRoots = .caFile(fixture.path("rogue-ca.pem"))
        let oldClient = try ClientTLSContext(configuration: oldTrust)
        let newClient = try ClientTLSContext(configuration: newTrust)

        let established = try await oldClient.connect(host: "127.0.0.1", port: server.port)
        await #expect(throws: TLSError.self) { try await newClient.connect(host: "127.0.0.1", port: server.port) }

        try context.reload(
            identity: try ClientIdentity(
                certificateFile: fixture.path("rogue-server.pem"),
                keyFile: fixture.path("rogue-server.key")
            ),
            clientVerifier: context.clientVerifier
        )
        #expect(logs.entries.contains { $0.message == "TLS server settings reloaded" })
        let fresh = try await newClient.connect(host: "127.0.0.1", port: server.port)
        #expect(fresh.verified.chain[0] == (try fixture.certificate("rogue-server")))
        try await fresh.channel.executeThenClose { _, _ in }
        await #expect(throws: TLSError.self) { try await oldClient.connect(host: "127.0.0.1", port: server.port) }

        // The connection of before the reload still talks, with the old certificate.
        #expect(established.verified.chain[0] == (try fixture.certificate("leaf-rsa")))
        let answer = try await established.channel.executeThenClose { inbound, outbound in
            try await outbound.write(ByteBuffer(string: "GET / HTTP/1.0\r\n\r\n"))
            var text = ""
            for try await chunk in inbound { text += String(buffer: chunk) }
            return text
        }
        #expect(answer.hasPrefix("HTTP/1.0 200 OK"), "\(answer)")
    }
}
