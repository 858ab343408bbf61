import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import SecKitGRPC
import SecKitNIO
import SecTLS
import TestSupport
import Testing

/// SecKitGRPC's mutual TLS server transport with grpcio as its client: the allowed client's
/// subject, SANs and key pin reach the handler; a client of another CA, a client of the right CA
/// whose key is not on the allow-list, and a client without a certificate reach no handler.
@Suite struct GRPCServerTests {
    let fixture = TestPKI.shared

    /// Runs a `MutualTLSServerTransport` on a free port of 127.0.0.1 (leaf-rsa with its chain;
    /// clients under `ca-chain.pem`, with `allowedPins` when given) whose Get answers with the
    /// verified client's subject, SANs and pin, one per line; `body` gets the port.
    func withServer<Result: Sendable>(
        allowedPins: [Pin]? = nil,
        _ body: @escaping @Sendable (Int) async throws -> Result
    ) async throws -> Result {
        let context = try ServerTLSContext(
            grpcIdentity: try ClientIdentity(
                certificateFile: fixture.path("chain.pem"),
                keyFile: fixture.path("leaf-rsa.key")
            ),
            clientVerifier: try ClientCertificateVerifier(
                clientCA: .caFile(fixture.path("ca-chain.pem")),
                allowedPins: allowedPins
            )
        )
        let transport = try MutualTLSServerTransport(host: "127.0.0.1", port: 0, context: context)
        let service = EchoMethod.Service { _, context in
            guard let client = context.verifiedClient else { throw RPCError(code: .unauthenticated, message: "none") }
            return [
                client.subject, client.subjectAlternativeNames.map(\.description).joined(separator: ","),
                client.publicKeyPin.description,
            ].joined(separator: "\n")
        }
        let server = GRPCServer(transport: transport, services: [service])
        return try await withThrowingTaskGroup(of: Result?.self) { group in
            group.addTask {
                try await server.serve()
                return nil
            }
            defer { server.beginGracefulShutdown() }
            let port = try #require(try await transport.listeningAddress.ipv4?.port)
            return try await body(port)
        }
    }

    /// What the handler should answer for `<name>.pem`, from the openssl CLI.
    func expectedAnswer(_ name: String) throws -> String {
        [
            try fixture.opensslName("subject", of: "\(name).pem"),
            try fixture.opensslSubjectAlternativeNames("\(name).pem").joined(separator: ","),
            try fixture.opensslPublicKeyPin("\(name).pem"),
        ].joined(separator: "\n") + "\n"
    }

    @Test func theVerifiedClientReachesTheHandler() async throws {
        let fixture = fixture
        let (rsa, ec) = try await withServer { port in
            (
                try await GRPCEchoPeer.call(port: port, identity: "client", text: "hi", fixture),
                try await GRPCEchoPeer.call(port: port, identity: "client-ec", text: "hi", fixture)
            )
        }
        #expect(rsa.status == 0, "\(rsa.stderr)")
        #expect(rsa.stdoutText == (try expectedAnswer("client")))
        #expect(ec.status == 0, "\(ec.stderr)")
        #expect(ec.stdoutText == (try expectedAnswer("client-ec")))
    }

    @Test func clientsOfAnotherCAOrWithoutACertificateReachNoHandler() async throws {
        let fixture = fixture
        let (rogue, anonymous) = try await withServer { port in
            (
                try await GRPCEchoPeer.call(port: port, identity: "rogue-client", text: "hi", fixture),
                try await GRPCEchoPeer.call(port: port, identity: nil, text: "hi", fixture)
            )
        }
        for refused in [rogue, anonymous] {
            #expect(refused.status == 1 && refused.stdout.isEmpty)
            #expect(refused.stderr.contains("status UNAVAILABLE"), "\(refused.stderr)")
        }
    }

    @Test func onlyTheKeysOfTheAllowListAreAdmitted() async throws {
        let fixture = fixture
        let (admitted, refused) = try await withServer(allowedPins: [try fixture.pin("client-ec")]) { port in
            (
                try await GRPCEchoPeer.call(port: port, identity: "client-ec", text: "hi", fixture),
                try await GRPCEchoPeer.call(port: port, identity: "client", text: "hi", fixture)
            )
        }
        #expect(admitted.status == 0, "\(admitted.stderr)")
        #expect(admitted.stdoutText == (try expectedAnswer("client-ec")))
        #expect(refused.status == 1 && refused.stdout.isEmpty)
        #expect(refused.stderr.contains("status UNAVAILABLE"), "\(refused.stderr)")
    }

    /// SecKit on both ends: the client's identity, verified by the server, and the server's pin.
    @Test func aSecKitClientWithItsIdentityCalls() async throws {
        let fixture = fixture
        let answer = try await withServer { port in
            let configuration = try fixture.clientConfiguration(
                pins: [try fixture.pin("leaf-rsa"), try fixture.pin("other")],
                identity: try ClientIdentity(
                    certificateFile: fixture.path("client.pem"),
                    keyFile: fixture.path("client.key")
                )
            )
            let connection = try await ClientTLSContext(grpc: configuration).connectGRPC(host: "127.0.0.1", port: port)
            return try await withGRPCClient(transport: connection) { try await EchoMethod.call($0, "hi") }
        }
        #expect(answer + "\n" == (try expectedAnswer("client")))
    }

    @Test func aContextWithoutALPNIsRefused() throws {
        let context = try ServerTLSContext(
            identity: try ClientIdentity(
                certificateFile: fixture.path("chain.pem"),
                keyFile: fixture.path("leaf-rsa.key")
            ),
            clientVerifier: try ClientCertificateVerifier(clientCA: .caFile(fixture.path("ca-chain.pem")))
        )
        #expect(throws: TLSError.self) { try MutualTLSServerTransport(host: "127.0.0.1", port: 0, context: context) }
    }
}
