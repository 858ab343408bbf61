import Foundation
import SecKitNIO
import SecKitVapor
import SecTLS
import TestSupport
import Testing
import Vapor

/// Vapor's HTTP client (`app.client`, `req.client`) configured by `useSecKit`, against real
/// `openssl s_server -www` processes: pinned servers answer, a wrong pin fails the call with
/// SecTLS's typed reason, an untrusted server is refused.
@Suite struct VaporClientTests {
    let fixture = TestPKI.shared

    /// A Vapor application (not started) whose client uses `configuration`; stopped after `body`.
    func withApplication(
        _ configuration: TLSClientConfiguration,
        _ body: (Application) async throws -> Void
    ) async throws {
        let app = try await Application.make(.testing)
        app.logger.logLevel = .critical
        do {
            try app.http.client.useSecKit(configuration)
            try await body(app)
        } catch {
            try await app.asyncShutdown()
            throw error
        }
        try await app.asyncShutdown()
    }

    @Test(arguments: ["-tls1_2", "-tls1_3"])
    func aPinnedServerAnswers(version: String) async throws {
        let server = try fixture.server([version])
        defer { server.stop() }
        try await withApplication(try fixture.clientConfiguration(pins: [try fixture.pin("leaf-rsa")])) { app in
            let response = try await app.client.get(URI(string: "https://127.0.0.1:\(server.port)/"))
            #expect(response.status == .ok)
            let body = response.body.map { String(buffer: $0) } ?? ""
            #expect(body.contains("s_server"), "\(body)")
        }
    }

    @Test(arguments: ["-tls1_2", "-tls1_3"])
    func aWrongPinFailsWithTheTypedReason(version: String) async throws {
        let server = try fixture.server([version])
        defer { server.stop() }
        let other = try fixture.pin("other")
        let leafPin = try fixture.certificate("leaf-rsa").publicKeyPin
        try await withApplication(try fixture.clientConfiguration(pins: [other])) { app in
            await #expect {
                try await app.client.get(URI(string: "https://127.0.0.1:\(server.port)/"))
            } throws: { error in
                guard case TLSError.pinMismatch(let evaluation) = error else { return false }
                return evaluation.expectedPins == [other] && evaluation.chainPins == [leafPin]
            }
        }
    }

    /// With a `ClientTLSContext`, the pins of Vapor's client rotate: a reload applies from the
    /// next connection (s_server -www closes each one).
    @Test func thePinsOfAContextRotate() async throws {
        let server = try fixture.server(["-tls1_3"])
        defer { server.stop() }
        let context = try ClientTLSContext(
            configuration: try fixture.clientConfiguration(pins: [try fixture.pin("other")])
        )
        let app = try await Application.make(.testing)
        app.logger.logLevel = .critical
        do {
            try app.http.client.useSecKit(context)
            let url = URI(string: "https://127.0.0.1:\(server.port)/")
            await #expect(throws: TLSError.self) { try await app.client.get(url) }
            var rotated = context.configuration
            rotated.pinPolicy = try PinPolicy(host: "127.0.0.1", pins: [try fixture.pin("leaf-rsa")])
            try context.reload(configuration: rotated)
            #expect(try await app.client.get(url).status == .ok)
        } catch {
            try await app.asyncShutdown()
            throw error
        }
        try await app.asyncShutdown()
    }

    @Test func aServerOfAnotherCAIsRefused() async throws {
        let server = try fixture.server()
        defer { server.stop() }
        let trust = TrustRoots.caFile(fixture.path("rogue-ca.pem"))
        try await withApplication(try fixture.clientConfiguration(trust: trust)) { app in
            await #expect {
                try await app.client.get(URI(string: "https://127.0.0.1:\(server.port)/"))
            } throws: { error in
                guard let error = TLSError(translating: error, clientIdentityConfigured: false),
                    case .certificateVerificationFailed = error
                else { return false }
                return true
            }
        }
    }

    /// Vapor makes its client at the first use and then only logs that a new configuration is
    /// ignored; `useSecKit` refuses instead, since the pins would not apply.
    @Test func aClientAlreadyUsedIsNotSilentlyLeftUnpinned() async throws {
        let app = try await Application.make(.testing)
        app.logger.logLevel = .critical
        _ = app.http.client.shared
        #expect(throws: TLSError.self) {
            try app.http.client.useSecKit(try fixture.clientConfiguration(pins: [try fixture.pin("leaf-rsa")]))
        }
        try await app.asyncShutdown()
    }

    /// `req.client` in a handler of a mutual TLS application: curl, with its client certificate,
    /// asks the Vapor application, whose handler fetches a pinned s_server's page.
    @Test func aHandlerCallsOutThroughThePinnedClient() async throws {
        let upstream = try fixture.server(["-tls1_3"])
        defer { upstream.stop() }
        let app = try await Application.make(.testing)
        app.logger.logLevel = .critical
        app.http.server.configuration.logger.logLevel = .critical
        app.http.useMutualTLS(
            try ServerTLSContext(identity: fixture.serverIdentity(), clientVerifier: fixture.clientVerifier())
        )
        try app.http.client.useSecKit(try fixture.clientConfiguration(pins: [try fixture.pin("leaf-rsa")]))
        let upstreamURL = "https://127.0.0.1:\(upstream.port)/"
        app.get("relay") { req async throws -> String in
            let client = try #require(req.secKitClient)
            let response = try await req.client.get(URI(string: upstreamURL))
            let body = response.body.map { String(buffer: $0) } ?? ""
            return "\(client.subject) \(body.contains("s_server") ? "got the upstream page" : body)\n"
        }
        try await app.server.start(address: .hostname("127.0.0.1", port: 0))
        let port = try #require(app.http.server.shared.localAddress?.port)
        let curl = try await ProcessRunner.offThePool { [fixture] in
            try ProcessRunner.run(
                "curl",
                [
                    // The handler's call out waits for the cooperative pool, which the whole suite on
                    // two cores can starve for minutes: no bound under five.
                    "--silent", "--show-error", "--fail", "--max-time", "\(300 * ProcessRunner.timeoutScale)",
                    "--cacert",
                    "ca.pem", "--cert",
                    "client-chain.pem", "--key", "client.key", "https://127.0.0.1:\(port)/relay",
                ],
                currentDirectory: fixture.directory
            )
        }
        await app.server.shutdown()
        try await app.asyncShutdown()
        #expect(curl.status == 0, "\(curl.stderr)")
        #expect(curl.stdoutText == "\(try fixture.opensslName("subject", of: "client.pem")) got the upstream page\n")
    }
}
