import Foundation
import Hummingbird
import SecKitHummingbird
import SecKitNIO
import SecTLS
import TestSupport
import Testing

/// Servers that require client certificates (`ServerTLSContext`), in a Hummingbird application and
/// in a plain SwiftNIO server, against real clients: `curl` and `openssl s_client`, under TLS 1.2
/// and 1.3. What a server says about a client is compared with what the openssl CLI says about the
/// client's certificate.
@Suite struct MutualTLSServerTests {
    let fixture = TestPKI.shared
    typealias Identity = MutualTLSClientTools.Identity

    /// The server `leaf-rsa` (with its chain) requiring clients under `ca.pem`, with `allowedPins`.
    func serverContext(allowedPins: [Pin]? = nil) throws -> ServerTLSContext {
        try ServerTLSContext(
            identity: fixture.serverIdentity(),
            clientVerifier: fixture.clientVerifier(allowedPins: allowedPins)
        )
    }

    /// The subject and `sha256/…` pin of `<name>.pem`, one per line, as the openssl CLI prints them:
    /// what the servers under test answer for that client.
    func expectedAnswer(_ name: String) throws -> String {
        "\(try fixture.opensslName("subject", of: "\(name).pem"))\n\(try fixture.opensslPublicKeyPin("\(name).pem"))\n"
    }

    /// Runs a Hummingbird application with `.mutualTLS(context:)` on a free port of 127.0.0.1 whose
    /// `GET /` answers `MutualTLS.verifiedClient`'s subject and pin, calls `body` with the port, and
    /// stops the application.
    func withHummingbirdServer(
        _ context: ServerTLSContext,
        _ body: @Sendable (Int) async throws -> Void
    ) async throws {
        let router = Router()
        router.get("/") { _, _ -> String in
            guard let client = MutualTLS.verifiedClient else { return "no verified client\n" }
            return "\(client.subject)\n\(client.publicKeyPin)\n"
        }
        let (ports, portReported) = AsyncStream.makeStream(of: Int.self)
        var app = Application(
            router: router,
            server: .mutualTLS(context: context),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in portReported.yield(channel.localAddress?.port ?? 0) }
        )
        // Stopping it by cancellation logs "CancellationError" at level error.
        app.logger.logLevel = .critical
        let server = app
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { portReported.finish() }
                try await server.run()
            }
            var iterator = ports.makeAsyncIterator()
            let port = try #require(await iterator.next(), "the Hummingbird application did not start")
            try await body(port)
            group.cancelAll()
        }
    }

    // MARK: - Accepted clients

    @Test(arguments: [TLSVersion.tls12, .tls13], [Identity.client, .clientEC])
    func hummingbirdHandlerSeesTheVerifiedClient(version: TLSVersion, identity: Identity) async throws {
        let expected = try expectedAnswer(identity.name)
        try await withHummingbirdServer(try serverContext()) { port in
            let curl = try await MutualTLSClientTools.curl(port: port, identity: identity, version: version)
            #expect(curl.status == 0, "\(curl.stderr)")
            #expect(curl.stdoutText == expected)

            let sClient = try await MutualTLSClientTools.sClient(port: port, identity: identity, version: version)
            #expect(sClient.status == 0, "\(sClient.stderr)")
            #expect(sClient.stdoutText.contains(" 200 OK\r\n"))
            #expect(sClient.stdoutText.contains("\r\n\r\n\(expected)"))
        }
    }

    /// The plain NIO server verifies through the same `ClientCertificateVerifier` as Hummingbird.
    @Test(arguments: [TLSVersion.tls12, .tls13])
    func plainNIOServerSeesTheVerifiedClient(version: TLSVersion) async throws {
        let server = try await PlainNIOMutualTLSServer.start(context: try serverContext())
        let expected = try expectedAnswer("client")

        let curl = try await MutualTLSClientTools.curl(port: server.port, identity: .client, version: version)
        let sClient = try await MutualTLSClientTools.sClient(port: server.port, identity: .client, version: version)
        try await server.stop()

        #expect(curl.status == 0, "\(curl.stderr)")
        #expect(curl.stdoutText == expected)
        #expect(sClient.status == 0, "\(sClient.stderr)")
        #expect(sClient.stdoutText.contains("HTTP/1.0 200 OK\r\n"))
        #expect(sClient.stdoutText.contains("\r\n\r\n\(expected)"))
        let peers = server.connections
        #expect(peers.count == 2)
        for peer in peers {
            #expect(peer.failure == nil)
            #expect(peer.client?.chain == (try ["client", "intermediate", "ca"].map(fixture.certificate)))
            #expect(peer.client?.publicKeyPin == (try fixture.opensslKeyPin("client")))
        }
    }

    // MARK: - Refused clients

    @Test(arguments: [TLSVersion.tls12, .tls13])
    func refusesAClientOfAnotherCA(version: TLSVersion) async throws {
        let context = try serverContext()
        let server = try await PlainNIOMutualTLSServer.start(context: context)
        let curl = try await MutualTLSClientTools.curl(port: server.port, identity: .rogue, version: version)
        try await server.stop()

        #expect(curl.status != 0 && curl.stdout.isEmpty)
        #expect(curl.stderr.contains("alert certificate unknown"), "\(curl.stderr)")
        let peer = try #require(server.connections.first)
        #expect(server.connections.count == 1 && peer.client == nil)
        guard case .certificateVerificationFailed(let failure) = peer.failure else {
            Issue.record("expected certificateVerificationFailed, got \(String(describing: peer.failure))")
            return
        }
        #expect(failure.reason == .unknownIssuer)
        #expect(failure.peerChain == [try fixture.certificate("rogue-client")])

        try await withHummingbirdServer(context) { port in
            let curl = try await MutualTLSClientTools.curl(port: port, identity: .rogue, version: version)
            #expect(curl.status != 0 && curl.stdout.isEmpty)
        }
    }

    @Test(arguments: [TLSVersion.tls12, .tls13])
    func allowListAdmitsOnlyItsKeys(version: TLSVersion) async throws {
        let server = try await PlainNIOMutualTLSServer.start(
            context: try serverContext(allowedPins: [.publicKey(try fixture.opensslKeyPin("client-ec"))])
        )
        let refused = try await MutualTLSClientTools.curl(port: server.port, identity: .client, version: version)
        let admitted = try await MutualTLSClientTools.curl(port: server.port, identity: .clientEC, version: version)
        try await server.stop()

        #expect(refused.status != 0 && refused.stdout.isEmpty)
        #expect(refused.stderr.contains("alert certificate unknown"), "\(refused.stderr)")
        #expect(admitted.status == 0, "\(admitted.stderr)")
        #expect(admitted.stdoutText == (try expectedAnswer("client-ec")))
        let peers = server.connections
        try #require(peers.count == 2)
        let refusedPin = try fixture.opensslKeyPin("client")
        let admittedPin = try fixture.opensslKeyPin("client-ec")
        #expect(peers[0].failure == .clientNotAllowed(refusedPin) && peers[0].client == nil)
        #expect(peers[1].failure == nil && peers[1].client?.publicKeyPin == admittedPin)
    }

    /// TLS 1.3 clients learn it after their Finished (alert 116, certificate_required), TLS 1.2
    /// clients during the handshake (alert 40, handshake_failure).
    @Test(arguments: [(TLSVersion.tls12, "alert handshake failure"), (.tls13, "alert certificate required")])
    func refusesAClientWithoutCertificate(version: TLSVersion, alert: String) async throws {
        try await withHummingbirdServer(try serverContext()) { port in
            let curl = try await MutualTLSClientTools.curl(port: port, identity: nil, version: version)
            #expect(curl.status != 0 && curl.stdout.isEmpty)
            #expect(curl.stderr.contains(alert), "\(curl.stderr)")

            let sClient = try await MutualTLSClientTools.sClient(port: port, identity: nil, version: version)
            #expect(sClient.status != 0)
            #expect(sClient.stderr.contains(alert), "\(sClient.stderr)")
            #expect(!sClient.stdoutText.contains("200 OK"))
        }
    }
}
