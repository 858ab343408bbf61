import Foundation
import NIOCore
import SecCrypto
import SecKitNIO
import SecTLS
import TestSupport
import Testing

/// SecKitNIO's client (swift-nio-ssl handshakes verified by SecTLS) against real `openssl s_server`
/// processes on 127.0.0.1: the chain, pins, typed failures, every client identity form, and mutual
/// TLS refusals under TLS 1.2 and 1.3.
@Suite struct NIOClientTests {
    let fixture = TestPKI.shared

    func connect(
        _ server: TLSTestServer,
        _ configuration: TLSClientConfiguration,
        host: String = "127.0.0.1"
    ) async throws -> ClientTLSConnection {
        try await ClientTLSContext(configuration: configuration).connect(host: host, port: server.port)
    }

    /// `GET /` over the connection and everything s_server -www answers (it then closes). A server
    /// that ends the connection instead (a TLS 1.3 server refusing the client certificate after the
    /// handshake) fails the write; its reason is the inbound stream's error.
    func statusPage(_ connection: ClientTLSConnection) async throws -> String {
        try await connection.channel.executeThenClose { inbound, outbound in
            try? await outbound.write(ByteBuffer(string: "GET / HTTP/1.0\r\n\r\n"))
            var page = ""
            for try await chunk in inbound { page += String(buffer: chunk) }
            return page
        }
    }

    @Test(arguments: ["-tls1_2", "-tls1_3"])
    func verifiesTheChainAndCarriesData(version: String) async throws {
        let server = try fixture.server([version])
        defer { server.stop() }
        let connection = try await connect(
            server,
            try fixture.clientConfiguration(pins: [try fixture.pin("intermediate")])
        )
        #expect(connection.verified.chain == (try TestPKI.serverChain.map(fixture.certificate)))
        #expect(connection.verified.pinEvaluation.outcome == .matched(pin: try fixture.pin("intermediate"), depth: 1))
        let page = try await statusPage(connection)
        #expect(page.hasPrefix("HTTP/1.0 200 ok"))
        #expect(page.contains(version == "-tls1_2" ? "TLSv1.2" : "TLSv1.3"))
    }

    @Test func aWrongPinIsRefusedWithBothPinLists() async throws {
        let server = try fixture.server()
        defer { server.stop() }
        let other = try fixture.pin("other")
        await #expect {
            try await connect(server, try fixture.clientConfiguration(pins: [other]))
        } throws: { error in
            guard case TLSError.pinMismatch(let evaluation) = error else { return false }
            return evaluation.chainPins.count == 3 && evaluation.expectedPins == [other]
        }
    }

    /// The pin set is looked up by the host asked for, canonicalised, never by the certificate's names.
    @Test(
        .enabled(if: TLSTestServer.ipv6LoopbackAvailable, "IPv6 is off here: no socket can be bound to ::1"),
        arguments: ["0:0:0:0:0:0:0:1", "0::1", "::1"]
    )
    func anAddressWrittenAnotherWayKeepsItsPins(host: String) async throws {
        let server = try fixture.server(address: "::1")
        defer { server.stop() }
        var configuration = try fixture.clientConfiguration()
        configuration.pinPolicy = try PinPolicy(host: "::1", pins: [try fixture.pin("other")])
        await #expect { try await connect(server, configuration, host: host) } throws: { isPinMismatch($0) }
        let policy = PinPolicy([try PinSet(host: "api.example.com", pins: [try fixture.pin("leaf-rsa")])])
        configuration.pinPolicy = policy
        await #expect {
            try await connect(server, configuration, host: host)
        } throws: { error in
            guard case TLSError.pinMismatch(let evaluation) = error else { return false }
            return evaluation.outcome == .hostNotCovered && evaluation.host == "::1"
        }
        configuration.pinPolicy = PinPolicy(policy.pinSets, unpinnedHosts: .allow)
        let connection = try await connect(server, configuration, host: host)
        #expect(connection.verified.pinEvaluation.outcome == .notPinned)
        #expect(try await statusPage(connection).hasPrefix("HTTP/1.0 200 ok"))
    }

    @Test func anAppendedCertificateCannotSatisfyAPin() async throws {
        // The server sends leaf, intermediate and an unrelated certificate; only the verified chain counts.
        let server = try fixture.server(chain: "appended-chain.pem")
        defer { server.stop() }
        await #expect {
            try await connect(server, try fixture.clientConfiguration(pins: [try fixture.pin("other")]))
        } throws: { isPinMismatch($0) }
        let connection = try await connect(server, try fixture.clientConfiguration(pins: [try fixture.pin("leaf-rsa")]))
        #expect(!connection.verified.chain.contains(try fixture.certificate("other")))
        try await connection.channel.channel.close()
    }

    @Test(.tags(.slow), arguments: TestPKI.refusedServers)
    func verificationFailuresCarryTheReason(refused: TestPKI.RefusedServer) async throws {
        let (server, configuration) = try fixture.start(refused)
        defer { server.stop() }
        await #expect {
            try await connect(server, configuration)
        } throws: { error in
            guard case TLSError.certificateVerificationFailed(let failure) = error else { return false }
            return failure.reason == refused.reason && !failure.peerChain.isEmpty && !failure.message.isEmpty
        }
    }

    @Test func pinOnlyTrustAcceptsASelfSignedServerWithItsPin() async throws {
        let server = try fixture.server(cert: "selfsigned", chain: nil, ["-tls1_3"])
        defer { server.stop() }
        let connection = try await connect(
            server,
            try fixture.clientConfiguration(pins: [try fixture.pin("selfsigned")], trust: .pinsOnly)
        )
        #expect(connection.verified.chain == [try fixture.certificate("selfsigned")])
        #expect(try await statusPage(connection).hasPrefix("HTTP/1.0 200 ok"))
        await #expect {
            try await connect(
                server,
                try fixture.clientConfiguration(pins: [try fixture.pin("other")], trust: .pinsOnly)
            )
        } throws: { isPinMismatch($0) }
    }

    // MARK: - Mutual TLS

    func mutualTLSServer(_ version: String, clientCA: String = "ca-chain.pem") throws -> TLSTestServer {
        try fixture.server([version, "-Verify", "1", "-verify_return_error", "-CAfile", clientCA])
    }

    @Test(arguments: ["-tls1_2", "-tls1_3"])
    func mutualTLSWorksWithEveryIdentityForm(version: String) async throws {
        let server = try mutualTLSServer(version)
        defer { server.stop() }
        for (name, identity) in try fixture.clientIdentities() {
            let connection = try await connect(server, try fixture.clientConfiguration(identity: identity))
            let page = try await statusPage(connection)
            #expect(page.hasPrefix("HTTP/1.0 200 ok"), "\(name)")
            // s_server's status page shows the client certificate it received.
            let subject = identity.certificate.subject.contains("EC") ? "SecKit Test EC Client" : "SecKit Test Client"
            #expect(page.contains("Client certificate") && page.contains(subject), "\(name)")
        }
    }

    /// The handshake, then `GET /`: a TLS 1.3 server judges the client certificate after the
    /// handshake, so its verdict arrives with the first read.
    func requestOverMutualTLS(_ server: TLSTestServer, identity: ClientIdentity?) async throws {
        let connection = try await connect(server, try fixture.clientConfiguration(identity: identity))
        _ = try await statusPage(connection)
    }

    @Test(arguments: ["-tls1_2", "-tls1_3"])
    func aMissingClientCertificateIsReported(version: String) async throws {
        let server = try mutualTLSServer(version)
        defer { server.stop() }
        await #expect(throws: TLSError.clientCertificateRequired) {
            try await requestOverMutualTLS(server, identity: nil)
        }
    }

    @Test(arguments: ["-tls1_2", "-tls1_3"])
    func aRejectedClientCertificateIsReported(version: String) async throws {
        let server = try mutualTLSServer(version)
        defer { server.stop() }
        let rogue = try ClientIdentity(
            certificateFile: fixture.path("rogue-client.pem"),
            keyFile: fixture.path("rogue-client.key")
        )
        await #expect {
            try await requestOverMutualTLS(server, identity: rogue)
        } throws: { error in
            guard case TLSError.clientCertificateRejected(let alert) = error else { return false }
            return alert == "unknown CA"
        }
    }

    // MARK: - Connecting

    @Test func connectionFailuresAreTyped() async throws {
        let closedPort = try TLSTestServer.freePort()
        let tls = try ClientTLSContext(configuration: try fixture.clientConfiguration())
        await #expect {
            try await tls.connect(host: "127.0.0.1", port: closedPort)
        } throws: { error in
            guard case TLSError.connectionFailed = error else { return false }
            return true
        }
        var allowList = try fixture.clientConfiguration()
        allowList.allowedEndpoints = EndpointAllowList([try .init(host: "example.com", port: 443)])
        await #expect(throws: TLSError.endpointNotAllowed(host: "127.0.0.1", port: closedPort, scheme: "tls")) {
            try await ClientTLSContext(configuration: allowList).connect(host: "127.0.0.1", port: closedPort)
        }
    }

    @Test func aCancelledTaskStopsAHandshakeThatHangs() async throws {
        // A listener that never answers: the kernel completes the TCP handshake, nobody speaks TLS.
        let listener = try SilentListener()
        let port = listener.port
        var patient = try fixture.clientConfiguration()
        patient.timeouts = .all(.seconds(900))
        let tls = try ClientTLSContext(configuration: patient)
        let task = Task { try await tls.connect(host: "127.0.0.1", port: port) }
        try await Task.sleep(for: .milliseconds(300))
        task.cancel()
        // `cancelled`, not `timedOut`: the cancellation ended it. (No wall-clock bound: the parallel
        // tests' blocking calls can hold the pool's threads, and the resumption, for minutes.)
        await #expect(throws: TLSError.cancelled) { try await task.value }

        var impatient = try fixture.clientConfiguration()
        impatient.timeouts = .all(.milliseconds(500))
        await #expect(throws: TLSError.timedOut(.handshake)) {
            try await ClientTLSContext(configuration: impatient).connect(host: "127.0.0.1", port: port)
        }
        withExtendedLifetime(listener) {}
    }
}
