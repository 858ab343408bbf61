import Foundation
import NIOCore
import SecKitNIO
import SecKitVapor
import SecTLS
import TestSupport
import Testing
import Vapor

/// A Vapor application behind `useMutualTLS` follows `ServerTLSContext.reload` as SecKitNIO's own
/// servers do: curl clients see the new certificate and the new client CA from the reload on, a
/// connection established before goes on with the old certificate, and a reload that fails
/// changes nothing.
@Suite struct VaporReloadTests {
    let fixture = TestPKI.shared

    /// `curl https://127.0.0.1:PORT/` under TLS `version` with `identity`, trusting only `caFile`.
    func curl(
        port: Int,
        identity: MutualTLSClientTools.Identity,
        trusting caFile: String,
        version: TLSVersion
    ) async throws -> ProcessResult {
        try await MutualTLSClientTools.curl(
            port: port,
            identity: identity,
            version: version,
            extraOptions: ["--cacert", caFile]
        )
    }

    /// The certificate moves from an RSA key to an EC key: under TLS 1.2 too, where the server
    /// picks the signature scheme from its preferences, the new key signs.
    @Test(arguments: [TLSVersion.tls12, .tls13])
    func theServerCertificateAndClientCARotateForNewConnectionsOnly(version: TLSVersion) async throws {
        let context = try ServerTLSContext(
            identity: try fixture.serverIdentity(),
            clientVerifier: try fixture.clientVerifier(),
            // No idle timeout: the established connection waits across other handshakes, which a
            // loaded machine running the whole suite can stretch past a minute.
            limits: ServerConnectionLimits(
                handshakeTimeout: .seconds(10 * ProcessRunner.timeoutScale),
                idleTimeout: nil
            )
        )
        let oldClient = try ClientTLSContext(
            configuration: try fixture.clientConfiguration(
                identity: try ClientIdentity(
                    certificateFile: fixture.path("client-chain.pem"),
                    keyFile: fixture.path("client.key")
                )
            )
        )
        try await VaporMutualTLSTests.withVaporServer(context) { port, clients in
            let established = try await oldClient.connect(host: "127.0.0.1", port: port)
            let before = try await curl(port: port, identity: .client, trusting: "ca.pem", version: version)
            #expect(before.status == 0, "\(before.stderr)")
            let untrusted = try await curl(port: port, identity: .client, trusting: "rogue-ca.pem", version: version)
            #expect(untrusted.status != 0 && untrusted.stdout.isEmpty)

            // The certificate moves to a new CA, and clients of the new client CA are the ones admitted.
            try context.reload(
                identity: try ClientIdentity(
                    certificateFile: fixture.path("rogue-server.pem"),
                    keyFile: fixture.path("rogue-server.key")
                ),
                clientVerifier: try ClientCertificateVerifier(clientCA: .caFile(fixture.path("rogue-ca.pem")))
            )
            let newCA = try await curl(port: port, identity: .rogue, trusting: "rogue-ca.pem", version: version)
            #expect(newCA.status == 0, "\(newCA.stderr)")
            #expect(newCA.stdoutText.hasPrefix("\(try fixture.certificate("rogue-client").subject)\n"))
            let oldCA = try await curl(port: port, identity: .rogue, trusting: "ca.pem", version: version)
            #expect(oldCA.status != 0 && oldCA.stdout.isEmpty, "the old CA's trust no longer suffices")
            let oldClientCA = try await curl(port: port, identity: .client, trusting: "rogue-ca.pem", version: version)
            #expect(oldClientCA.status != 0 && oldClientCA.stdout.isEmpty)
            #expect(oldClientCA.stderr.contains("alert certificate unknown"), "\(oldClientCA.stderr)")

            // A reload whose identity does not load throws before anything changes.
            #expect(throws: TLSError.keyMismatch) {
                try context.reload(
                    identity: try ClientIdentity(
                        certificateFile: fixture.path("chain.pem"),
                        keyFile: fixture.path("rogue-server.key")
                    ),
                    clientVerifier: try fixture.clientVerifier()
                )
            }
            let kept = try await curl(port: port, identity: .rogue, trusting: "rogue-ca.pem", version: version)
            #expect(kept.status == 0, "\(kept.stderr)")

            // The connection of before the reload still talks, with the old certificate, for its old client.
            #expect(established.verified.chain[0] == (try fixture.certificate("leaf-rsa")))
            let answer = try await established.channel.executeThenClose { inbound, outbound in
                try await outbound.write(
                    ByteBuffer(string: "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                )
                var text = ""
                for try await chunk in inbound { text += String(buffer: chunk) }
                return text
            }
            #expect(answer.hasPrefix("HTTP/1.1 200 OK"), "\(answer)")
            let client = try fixture.certificate("client")
            #expect(answer.contains("\r\n\r\n\(client.subject)\n\(client.publicKeyPin)\n"), "\(answer)")
            #expect(clients.all.map(\.publicKeyPin).last == client.publicKeyPin)
        }
    }

    /// The CA names of the CertificateRequest follow a reload too, so that a client that picks its
    /// certificate by them (a browser, Go) picks one of the new client CA: `openssl s_client`
    /// prints the list it received (it sends no certificate, so the TLS 1.3 server refuses it
    /// after the client's side of the handshake is done).
    @Test func theCertificateRequestNamesTheClientCAOfTheLastReload() async throws {
        let context = try ServerTLSContext(
            identity: try fixture.serverIdentity(),
            clientVerifier: try fixture.clientVerifier()
        )
        try await VaporMutualTLSTests.withVaporServer(context) { port, _ in
            let before = try await MutualTLSClientTools.sClient(port: port, identity: nil, version: .tls13)
            #expect(Self.acceptableCANames(before.stdoutText) == ["C=DE, O=SecKit Test, CN=SecKit Test CA"])

            try context.reload(
                identity: context.identity,
                clientVerifier: try ClientCertificateVerifier(clientCA: .caFile(fixture.path("rogue-ca.pem")))
            )
            let after = try await MutualTLSClientTools.sClient(port: port, identity: nil, version: .tls13)
            #expect(Self.acceptableCANames(after.stdoutText) == ["CN=Rogue Test CA"], "\(after.stdoutText)")
        }
    }

    /// The lines of s_client's "Acceptable client certificate CA names" section, written
    /// `C=DE, CN=…` (OpenSSL 3.0 writes `C = DE`, later versions `C=DE`).
    static func acceptableCANames(_ output: String) -> [String] {
        let lines = output.split(separator: "\n").map { $0.replacingOccurrences(of: " = ", with: "=") }
        guard let header = lines.firstIndex(of: "Acceptable client certificate CA names") else { return [] }
        return Array(
            lines[(header + 1)...].prefix { !$0.hasPrefix("Requested") && !$0.hasPrefix("Client Certificate") }
        )
    }
}
