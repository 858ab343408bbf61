import Foundation
import NIOConcurrencyHelpers
import SecKitNIO
import SecKitVapor
import SecTLS
import TestSupport
import Testing
import Vapor

/// A Vapor application behind `useMutualTLS`, against real clients: `curl` and `openssl s_client`,
/// under TLS 1.2 and 1.3. What the handler sees of a client (`req.secKitClient`) is compared with
/// what the openssl CLI says about the client's certificate.
@Suite struct VaporMutualTLSTests {
    let fixture = TestPKI.shared
    typealias Identity = MutualTLSClientTools.Identity

    /// The server `leaf-rsa` (with its chain) requiring clients under `ca.pem`, with `allowedPins`.
    func serverContext(allowedPins: [Pin]? = nil) throws -> ServerTLSContext {
        try ServerTLSContext(
            identity: fixture.serverIdentity(),
            clientVerifier: fixture.clientVerifier(allowedPins: allowedPins)
        )
    }

    /// The subject, `sha256/…` pin and subjectAltNames of `<name>.pem`, one per line, as the
    /// openssl CLI prints them: what the handler answers for that client.
    func expectedAnswer(_ name: String) throws -> String {
        // "X509v3 Subject Alternative Name:" then the names on one indented line.
        let extensionText = try fixture.openssl(["x509", "-in", "\(name).pem", "-noout", "-ext", "subjectAltName"])
        let sans = extensionText.split(separator: "\n").last?.trimmingCharacters(in: .whitespaces) ?? ""
        return "\(try fixture.opensslName("subject", of: "\(name).pem"))\n"
            + "\(try fixture.opensslPublicKeyPin("\(name).pem"))\n\(sans)\n"
    }

    /// Runs a Vapor application with `useMutualTLS(context)` on a free port of 127.0.0.1 whose
    /// `GET /` answers `req.secKitClient`'s subject, pin and SANs (and records the client), calls
    /// `body` with the port and the clients the handler saw, and stops the application.
    static func withVaporServer(
        _ context: ServerTLSContext,
        _ body: @Sendable (Int, VerifiedClients) async throws -> Void
    ) async throws {
        let app = try await Application.make(.testing)
        app.logger.logLevel = .critical
        app.http.server.configuration.logger.logLevel = .critical
        app.http.useMutualTLS(context)
        let clients = VerifiedClients()
        app.get { req -> String in
            guard let client = req.secKitClient else { return "no verified client\n" }
            clients.append(client)
            let sans = client.subjectAlternativeNames.map(\.description).joined(separator: ", ")
            return "\(client.subject)\n\(client.publicKeyPin)\n\(sans)\n"
        }
        do {
            try await app.server.start(address: .hostname("127.0.0.1", port: 0))
            let port = try #require(app.http.server.shared.localAddress?.port)
            try await body(port, clients)
        } catch {
            await app.server.shutdown()
            try await app.asyncShutdown()
            throw error
        }
        await app.server.shutdown()
        try await app.asyncShutdown()
    }

    // MARK: - Accepted clients

    @Test(arguments: [TLSVersion.tls12, .tls13], [Identity.client, .clientEC])
    func theHandlerSeesTheVerifiedClient(version: TLSVersion, identity: Identity) async throws {
        let expected = try expectedAnswer(identity.name)
        let chain = try [identity.name, "intermediate", "ca"].map(fixture.certificate)
        try await Self.withVaporServer(try serverContext()) { port, clients in
            let curl = try await MutualTLSClientTools.curl(port: port, identity: identity, version: version)
            #expect(curl.status == 0, "\(curl.stderr)")
            #expect(curl.stdoutText == expected)

            let sClient = try await MutualTLSClientTools.sClient(port: port, identity: identity, version: version)
            #expect(sClient.status == 0, "\(sClient.stderr)")
            #expect(sClient.stdoutText.contains(" 200 OK\r\n"))
            #expect(sClient.stdoutText.contains("\r\n\r\n\(expected)"))

            let seen = clients.all
            #expect(seen.count == 2)
            for client in seen { #expect(client.chain == chain) }
        }
    }

    /// Vapor hands the verified chain only to HTTP/1.1 requests, so the server offers no HTTP/2: a
    /// client that asks for it is answered over HTTP/1.1, with its client.
    @Test func aClientAskingForHTTP2IsAnsweredOverHTTP11() async throws {
        let expected = try expectedAnswer("client")
        try await Self.withVaporServer(try serverContext()) { port, _ in
            let curl = try await MutualTLSClientTools.curl(
                port: port,
                identity: .client,
                version: .tls13,
                extraOptions: ["--http2", "--write-out", "%{http_version}"]
            )
            #expect(curl.status == 0, "\(curl.stderr)")
            #expect(curl.stdoutText == expected + "1.1")
        }
    }

    // MARK: - Refused clients

    @Test(arguments: [TLSVersion.tls12, .tls13])
    func refusesAClientOfAnotherCA(version: TLSVersion) async throws {
        try await Self.withVaporServer(try serverContext()) { port, clients in
            let curl = try await MutualTLSClientTools.curl(port: port, identity: .rogue, version: version)
            #expect(curl.status != 0 && curl.stdout.isEmpty)
            #expect(curl.stderr.contains("alert certificate unknown"), "\(curl.stderr)")

            let sClient = try await MutualTLSClientTools.sClient(port: port, identity: .rogue, version: version)
            #expect(sClient.status != 0)
            #expect(sClient.stderr.contains("alert certificate unknown"), "\(sClient.stderr)")
            #expect(!sClient.stdoutText.contains("200 OK"))
            #expect(clients.all.isEmpty)
        }
    }

    /// A client of the right CA whose key is not on the allow-list is refused; a listed one passes.
    @Test(arguments: [TLSVersion.tls12, .tls13])
    func theAllowListAdmitsOnlyItsKeys(version: TLSVersion) async throws {
        let context = try serverContext(allowedPins: [.publicKey(try fixture.opensslKeyPin("client-ec"))])
        let expected = try expectedAnswer("client-ec")
        try await Self.withVaporServer(context) { port, clients in
            let refused = try await MutualTLSClientTools.curl(port: port, identity: .client, version: version)
            #expect(refused.status != 0 && refused.stdout.isEmpty)
            #expect(refused.stderr.contains("alert certificate unknown"), "\(refused.stderr)")

            let admitted = try await MutualTLSClientTools.curl(port: port, identity: .clientEC, version: version)
            #expect(admitted.status == 0, "\(admitted.stderr)")
            #expect(admitted.stdoutText == expected)
            #expect(clients.all.map(\.publicKeyPin) == [try fixture.opensslKeyPin("client-ec")])
        }
    }

    /// TLS 1.3 clients learn it after their Finished (alert 116, certificate_required), TLS 1.2
    /// clients during the handshake (alert 40, handshake_failure).
    @Test(arguments: [(TLSVersion.tls12, "alert handshake failure"), (.tls13, "alert certificate required")])
    func refusesAClientWithoutCertificate(version: TLSVersion, alert: String) async throws {
        try await Self.withVaporServer(try serverContext()) { port, clients in
            let curl = try await MutualTLSClientTools.curl(port: port, identity: nil, version: version)
            #expect(curl.status != 0 && curl.stdout.isEmpty)
            #expect(curl.stderr.contains(alert), "\(curl.stderr)")

            let sClient = try await MutualTLSClientTools.sClient(port: port, identity: nil, version: version)
            #expect(sClient.status != 0)
            #expect(sClient.stderr.contains(alert), "\(sClient.stderr)")
            #expect(!sClient.stdoutText.contains("200 OK"))
            #expect(clients.all.isEmpty)
        }
    }

    /// Without `useMutualTLS` a request has no SecKit client, even over TLS with a client
    /// certificate that swift-nio-ssl verified itself.
    @Test func aServerWithoutMutualTLSHasNoSecKitClient() async throws {
        let app = try await Application.make(.testing)
        app.logger.logLevel = .critical
        app.http.server.configuration.logger.logLevel = .critical
        app.get { req in req.secKitClient.map { "\($0.subject)\n" } ?? "no verified client\n" }
        try await app.server.start(address: .hostname("127.0.0.1", port: 0))
        let port = try #require(app.http.server.shared.localAddress?.port)
        let curl = try await ProcessRunner.offThePool {
            try ProcessRunner.run("curl", ["--silent", "--show-error", "http://127.0.0.1:\(port)/"])
        }
        await app.server.shutdown()
        try await app.asyncShutdown()
        #expect(curl.status == 0, "\(curl.stderr)")
        #expect(curl.stdoutText == "no verified client\n")
    }
}

/// The clients the handler saw, in order.
final class VerifiedClients: Sendable {
    private let clients = NIOLockedValueBox<[VerifiedClient]>([])
    func append(_ client: VerifiedClient) { clients.withLockedValue { $0.append(client) } }
    var all: [VerifiedClient] { clients.withLockedValue { $0 } }
}
