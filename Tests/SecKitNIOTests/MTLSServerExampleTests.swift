import Foundation
import SecTLS
import TestSupport
import Testing

/// The `seckit-mtls-server` example end to end: started as a process, asked by `curl`.
@Suite struct MTLSServerExampleTests {
    let fixture = TestPKI.shared
    typealias Identity = MutualTLSClientTools.Identity

    /// What `GET /` answers.
    struct ClientReport: Decodable, Equatable {
        var subject: String
        var publicKeyPin: String
        var subjectAlternativeNames: [String]
        var issuer: String
    }

    /// The server's certificate, key and client CA options (leaf-rsa with its chain, clients under `ca.pem`).
    var serverOptions: [String] {
        [
            "--cert", fixture.path("chain.pem"), "--key", fixture.path("leaf-rsa.key"), "--client-ca",
            fixture.path("ca.pem"),
        ]
    }

    func report(_ result: ProcessResult) throws -> ClientReport {
        try JSONDecoder().decode(ClientReport.self, from: Data(result.stdout))
    }

    /// What the server should report for `<name>.pem`, from the openssl CLI.
    func expectedReport(_ name: String) throws -> ClientReport {
        ClientReport(
            subject: try fixture.opensslName("subject", of: "\(name).pem"),
            publicKeyPin: try fixture.opensslPublicKeyPin("\(name).pem"),
            subjectAlternativeNames: try fixture.opensslSubjectAlternativeNames("\(name).pem"),
            issuer: try fixture.opensslName("issuer", of: "\(name).pem")
        )
    }

    @Test(arguments: [TLSVersion.tls12, .tls13])
    func answersTheVerifiedClientAsJSON(version: TLSVersion) async throws {
        let server = try MutualTLSServerProcess.start(fixture)
        defer { server.stop() }
        let admitted = try await MutualTLSClientTools.curl(port: server.port, identity: .client, version: version)
        #expect(admitted.status == 0, "\(admitted.stderr)")
        let expected = try expectedReport("client")
        #expect(try report(admitted) == expected)
        #expect(admitted.stdoutText.contains(#""publicKeyPin":"\#(expected.publicKeyPin)""#))

        for identity in [Identity.rogue, nil] {
            let refused = try await MutualTLSClientTools.curl(port: server.port, identity: identity, version: version)
            #expect(refused.status != 0 && refused.stdout.isEmpty)
        }
    }

    @Test func admitsOnlyTheKeysOfItsClientPins() async throws {
        let server = try MutualTLSServerProcess.start(
            fixture,
            extraArguments: ["--client-pin", try fixture.opensslPublicKeyPin("client-ec.pem")]
        )
        defer { server.stop() }
        let admitted = try await MutualTLSClientTools.curl(port: server.port, identity: .clientEC, version: .tls13)
        #expect(admitted.status == 0, "\(admitted.stderr)")
        #expect(try report(admitted) == (try expectedReport("client-ec")))

        let refused = try await MutualTLSClientTools.curl(port: server.port, identity: .client, version: .tls13)
        #expect(refused.status != 0 && refused.stdout.isEmpty)
    }

    /// Half-open handshakes, silent sockets and idle connections are closed, and one peer holds at
    /// most so many connections (issue #27: all were still open after 180 s).
    @Test func closesStalledAndIdleConnectionsAndCapsEachPeer() async throws {
        let server = try MutualTLSServerProcess.start(
            fixture,
            extraArguments: ["--handshake-timeout", "1", "--idle-timeout", "2"]
        )
        defer { server.stop() }
        let silent = try RawTCPConnection(port: server.port)
        let partial = try RawTCPConnection(port: server.port)
        // The first bytes of a ClientHello record, and no more.
        try partial.send([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03])
        #expect(silent.closedByServer(within: .seconds(30)))
        #expect(partial.closedByServer(within: .seconds(30)))

        // After a complete mutual TLS handshake, a client that sends nothing is closed when idle.
        var configuration = try fixture.clientConfiguration()
        configuration.clientIdentity = try ClientIdentity(
            certificateFile: fixture.path("client.pem"),
            keyFile: fixture.path("client.key")
        )
        let connection = try await TLSClient(configuration: configuration).connect(host: "127.0.0.1", port: server.port)
        defer { connection.close() }
        #expect(try await connection.readToEnd().isEmpty, "the server ended the idle connection")

        let capped = try MutualTLSServerProcess.start(
            fixture,
            extraArguments: ["--handshake-timeout", "60", "--max-connections-per-peer", "2"]
        )
        defer { capped.stop() }
        let held = [try RawTCPConnection(port: capped.port), try RawTCPConnection(port: capped.port)]
        let third = try RawTCPConnection(port: capped.port)
        #expect(third.closedByServer(within: .seconds(30)), "a third connection of the peer is closed on accept")
        #expect(!held[0].closedByServer(within: .milliseconds(200)), "the first two stay open")
        withExtendedLifetime(held) {}
    }

    /// Bad options end the server at once with one line on standard error and nothing on standard output.
    @Test(arguments: [
        (["--client-pin", "sha256/not a pin"], Int32(64), "seckit-mtls-server: pin:"),
        (["--client-pin", "sha1/" + String(repeating: "A", count: 27) + "="], 64, "seckit-mtls-server: pin: SHA-1"),
        // Pins are checked before any file is read: a bad pin wins over a missing certificate.
        (["--cert", "/nonexistent/server.pem", "--client-pin", "sha256/x"], 64, "seckit-mtls-server: pin:"),
        (["--cert", "/nonexistent/server.pem"], 2, "seckit-mtls-server: client identity:"),
        (["--client-ca", "/nonexistent/ca.pem"], 2, "seckit-mtls-server: TLS configuration:"),
        (["--port", "70000"], 64, "Error: --port must be 0...65535"),
    ])
    func refusesBadOptions(arguments: [String], status: Int32, message: String) throws {
        // Later options win: the bad one replaces the good one of serverOptions.
        let result = try ProcessRunner.run(
            try BuiltExecutable.require("seckit-mtls-server"),
            ["--port", "0"] + serverOptions + arguments,
            timeout: .seconds(10)
        )
        #expect(result.status == status, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
    }
}
