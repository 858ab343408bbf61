import Foundation
import TestSupport
import Testing

/// The `seckit-grpc-echo` example end to end: `serve` asked by grpcio and by `call`, and `call`
/// against grpcio's server, with the exit codes of seckit-fetch.
@Suite struct GRPCEchoExampleTests {
    let fixture = TestPKI.shared

    func serve(_ extraArguments: [String] = []) throws -> AnnouncingServer {
        try AnnouncingServer(
            try BuiltExecutable.require("seckit-grpc-echo"),
            ["serve", "--port", "0", "--cert", "chain.pem", "--key", "leaf-rsa.key", "--client-ca", "ca-chain.pem"]
                + extraArguments,
            in: fixture.url(".")
        )
    }

    func call(_ arguments: [String]) async throws -> ProcessResult {
        let executable = try BuiltExecutable.require("seckit-grpc-echo")
        let directory = fixture.directory
        return try await ProcessRunner.offThePool {
            try ProcessRunner.run(executable, ["call"] + arguments, currentDirectory: directory)
        }
    }

    @Test func serveAnswersWithTheTextAndTheClientsPin() async throws {
        let server = try serve()
        defer { server.stop() }
        let pin = try fixture.opensslPublicKeyPin("client.pem")
        let grpcio = try await GRPCEchoPeer.call(port: server.port, identity: "client", text: "héllo", fixture)
        #expect(grpcio.status == 0, "\(grpcio.stderr)")
        #expect(grpcio.stdoutText == "héllo from \(pin)\n")

        let own = try await call([
            "--target", "127.0.0.1:\(server.port)", "--text", "hi", "--ca", "ca.pem", "--cert", "client.pem",
            "--key", "client.key", "--pin", try fixture.opensslPublicKeyPin("leaf-rsa.pem"),
        ])
        #expect(own.status == 0, "\(own.stderr)")
        #expect(own.stdoutText == "hi from \(pin)\n")

        let anonymous = try await call(["--target", "127.0.0.1:\(server.port)", "--text", "hi", "--ca", "ca.pem"])
        #expect(anonymous.status == 5 && anonymous.stdout.isEmpty, "\(anonymous.stderr)")
    }

    @Test func serveAdmitsOnlyItsClientPins() async throws {
        let server = try serve(["--client-pin", try fixture.opensslPublicKeyPin("client-ec.pem")])
        defer { server.stop() }
        let admitted = try await GRPCEchoPeer.call(port: server.port, identity: "client-ec", text: "x", fixture)
        #expect(admitted.stdoutText == "x from \(try fixture.opensslPublicKeyPin("client-ec.pem"))\n")
        let refused = try await call([
            "--target", "127.0.0.1:\(server.port)", "--text", "x", "--ca", "ca.pem", "--cert", "client.pem",
            "--key", "client.key",
        ])
        #expect(refused.status == 5 && refused.stdout.isEmpty, "\(refused.stderr)")
    }

    @Test func callChecksGRPCIOsServer() async throws {
        let peer = try GRPCEchoPeer.serve(fixture)
        defer { peer.stop() }
        let target = ["--target", "127.0.0.1:\(peer.port)", "--text", "ping"]
        let pinned = try await call(
            target + ["--ca", "ca.pem", "--pin", try fixture.opensslPublicKeyPin("leaf-rsa.pem")]
        )
        #expect(pinned.status == 0 && pinned.stdoutText == "ping\n", "\(pinned.stderr)")

        let wrongPin = try await call(
            target + ["--ca", "ca.pem", "--pin", try fixture.opensslPublicKeyPin("other.pem")]
        )
        #expect(wrongPin.status == 3 && wrongPin.stdout.isEmpty)
        #expect(wrongPin.stderr.contains(try fixture.opensslPublicKeyPin("leaf-rsa.pem")), "\(wrongPin.stderr)")

        let unknownCA = try await call(target + ["--ca", "rogue-ca.pem"])
        #expect(unknownCA.status == 4 && unknownCA.stdout.isEmpty, "\(unknownCA.stderr)")
    }

    @Test func badOptionsAndFilesExitWithTheirCodes() async throws {
        let usage = [
            ["--target", "127.0.0.1", "--text", "x"],
            ["--target", "127.0.0.1:1", "--text", "x", "--pin", "sha256/nope"],
            ["--target", "127.0.0.1:1", "--text", "x", "--cert", "client.pem"],
        ]
        for arguments in usage {
            let result = try await call(arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
        }
        let missing = try await call([
            "--target", "127.0.0.1:1", "--text", "x", "--cert", "none.pem", "--key", "none.key",
        ])
        #expect(missing.status == 2, "\(missing.stderr)")
        // Nothing listens on port 1.
        let refused = try await call(["--target", "127.0.0.1:1", "--text", "x", "--ca", "ca.pem"])
        #expect(refused.status == 6, "\(refused.stderr)")

        let executable = try BuiltExecutable.require("seckit-grpc-echo")
        let unreadable = try ProcessRunner.run(
            executable,
            ["serve", "--port", "0", "--cert", "none.pem", "--key", "none.key", "--client-ca", "ca.pem"],
            currentDirectory: fixture.directory
        )
        #expect(unreadable.status == 2 && unreadable.stderr.hasPrefix("seckit-grpc-echo: "), "\(unreadable.stderr)")
        let badPin = try ProcessRunner.run(
            executable,
            [
                "serve", "--port", "0", "--cert", "chain.pem", "--key", "leaf-rsa.key", "--client-ca", "ca.pem",
                "--client-pin", "sha1/AAAA",
            ],
            currentDirectory: fixture.directory
        )
        #expect(badPin.status == 64, "\(badPin.stderr)")
    }
}
