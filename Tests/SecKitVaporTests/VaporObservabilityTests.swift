import InMemoryLogging
import Logging
import Metrics
import MetricsTestKit
import SecKitNIO
import SecKitVapor
import SecTLS
import TestSupport
import Testing
import Vapor

/// What a Vapor application behind `useMutualTLS` logs and counts of its clients, through the
/// context's logger and metrics factory, captured with swift-log's `InMemoryLogHandler` and
/// swift-metrics' `TestMetrics` while curl clients connect: the same messages, levels, metadata
/// and metric names as SecKitNIO's own servers, and no secret of the test anywhere.
@Suite struct VaporObservabilityTests {
    let fixture = TestPKI.shared

    @Test func verifiedAndRefusedClientsAreLoggedAndCounted() async throws {
        let (logger, logs) = CapturedObservability.logger()
        let metrics = TestMetrics()
        let allowed = try fixture.pin("client-ec")
        let context = try ServerTLSContext(
            identity: try fixture.serverIdentity(),
            clientVerifier: try fixture.clientVerifier(allowedPins: [allowed]),
            logger: logger,
            metricsFactory: metrics
        )
        try await VaporMutualTLSTests.withVaporServer(context) { port, _ in
            let admitted = try await MutualTLSClientTools.curl(port: port, identity: .clientEC, version: .tls13)
            let notAllowed = try await MutualTLSClientTools.curl(port: port, identity: .client, version: .tls13)
            let rogue = try await MutualTLSClientTools.curl(port: port, identity: .rogue, version: .tls12)
            let none = try await MutualTLSClientTools.curl(port: port, identity: nil, version: .tls13)
            #expect(admitted.status == 0, "\(admitted.stderr)")
            #expect(notAllowed.status != 0 && rogue.status != 0 && none.status != 0)
        }

        // Counted when the client's certificate is verified, by the same names as SecKitNIO's
        // servers; a handshake without a certificate never reaches the callback, so no `failed`.
        let handshakes = "seckit_tls_handshakes_total"
        #expect(
            metrics.counterTotal(label: handshakes, dimensions: [("side", "server"), ("outcome", "verified")]) == 1
        )
        #expect(metrics.counterTotal(label: handshakes, dimensions: [("side", "server"), ("outcome", "refused")]) == 2)
        #expect(metrics.counterTotal(label: handshakes, dimensions: [("side", "server"), ("outcome", "failed")]) == 0)
        let failures = "seckit_tls_verification_failures_total"
        #expect(
            metrics.counterTotal(label: failures, dimensions: [("side", "server"), ("reason", "client_not_allowed")])
                == 1
        )
        #expect(
            metrics.counterTotal(label: failures, dimensions: [("side", "server"), ("reason", "unknown_issuer")]) == 1
        )

        let entries = logs.entries
        let verified = try #require(entries.first { $0.message == "TLS handshake verified" })
        #expect(verified.level == .debug)
        #expect(verified.metadata["tls.side"] == "server")
        #expect(verified.metadata["tls.client.pin"] == "\(allowed)")
        #expect(verified.metadata["tls.client.subject"] == "\(try fixture.certificate("client-ec").subject)")
        let refusedPin = try #require(entries.first { $0.metadata["tls.reason"] == "client_not_allowed" })
        #expect(refusedPin.level == .warning && refusedPin.message == "TLS client refused")
        #expect(refusedPin.metadata["tls.pins.observed"] == .array(["\(try fixture.pin("client"))"]))
        #expect(refusedPin.metadata["tls.pins.expected"] == .array(["\(allowed)"]))
        let refusedCA = try #require(entries.first { $0.metadata["tls.reason"] == "unknown_issuer" })
        #expect(refusedCA.level == .warning && refusedCA.message == "TLS client refused")
        #expect(refusedCA.metadata["tls.pins.observed"] == .array(["\(try fixture.pin("rogue-client"))"]))
        #expect(refusedCA.metadata["tls.pins.expected"] == .array(["\(allowed)"]))

        try context.reload(identity: context.identity, clientVerifier: context.clientVerifier)
        #expect(logs.entries.contains { $0.message == "TLS server settings reloaded" && $0.level == .notice })

        let text = CapturedObservability.everything(logs, metrics)
        for secret in try fixture.secrets() { #expect(!text.contains(secret)) }
    }
}
