import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import SecKitGRPC
import SecKitNIO
import SecTLS
import TestSupport
import Testing

/// SecKitGRPC's client (`ClientTLSContext.connectGRPC`) against grpcio's TLS server: calls go
/// through with the right pin; a wrong pin and an unknown CA are refused in the handshake with
/// SecTLS's typed reasons, before any HTTP/2 frame.
@Suite struct GRPCClientTests {
    let fixture = TestPKI.shared

    /// One Get to the peer with `configuration`; the response's text.
    func get(_ peer: AnnouncingServer, _ configuration: TLSClientConfiguration, text: String) async throws -> String {
        let connection = try await ClientTLSContext(grpc: configuration).connectGRPC(host: "127.0.0.1", port: peer.port)
        return try await withGRPCClient(transport: connection) { client in
            try await EchoMethod.call(client, text)
        }
    }

    @Test func theRightPinCalls() async throws {
        let peer = try GRPCEchoPeer.serve(fixture)
        defer { peer.stop() }
        let leaf = try fixture.pin("leaf-rsa")
        let configuration = try fixture.clientConfiguration(pins: [leaf, try fixture.pin("other")])
        let connection = try await ClientTLSContext(grpc: configuration).connectGRPC(host: "127.0.0.1", port: peer.port)
        #expect(connection.verified.pinEvaluation.outcome == .matched(pin: leaf, depth: 0))
        #expect(connection.verified.chain == (try TestPKI.serverChain.map(fixture.certificate)))
        let answers = try await withGRPCClient(transport: connection) { client in
            // Several calls share the one verified connection.
            [try await EchoMethod.call(client, "héllo ✓"), try await EchoMethod.call(client, "")]
        }
        #expect(answers == ["héllo ✓", ""])
    }

    @Test func aWrongPinIsRefusedWithBothPinLists() async throws {
        let peer = try GRPCEchoPeer.serve(fixture)
        defer { peer.stop() }
        let other = try fixture.pin("other")
        await #expect {
            try await get(peer, try fixture.clientConfiguration(pins: [other]), text: "never sent")
        } throws: { error in
            guard case TLSError.pinMismatch(let evaluation) = error else { return false }
            return evaluation.chainPins.count == 3 && evaluation.expectedPins == [other]
        }
    }

    @Test func anUnknownCAIsRefusedWithOpenSSLsReason() async throws {
        let peer = try GRPCEchoPeer.serve(fixture)
        defer { peer.stop() }
        let configuration = try fixture.clientConfiguration(trust: .caFile(fixture.path("rogue-ca.pem")))
        await #expect {
            try await get(peer, configuration, text: "never sent")
        } throws: { error in
            guard case TLSError.certificateVerificationFailed(let failure) = error else { return false }
            return failure.reason == .unknownIssuer
        }
    }

    @Test func aContextWithoutALPNIsRefused() async throws {
        let context = try ClientTLSContext(configuration: try fixture.clientConfiguration())
        await #expect {
            try await context.connectGRPC(host: "127.0.0.1", port: 9)
        } throws: { error in
            guard case TLSError.invalidConfiguration(let reason) = error else { return false }
            return reason.contains("ALPN h2")
        }
    }
}
