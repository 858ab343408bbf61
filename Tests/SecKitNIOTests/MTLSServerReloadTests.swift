import Foundation
import SecTLS
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `seckit-mtls-server`'s signals: SIGHUP reloads its files without a restart (issue #30: no
/// request of a loop of curl requests fails while the certificate moves to a new CA), a reload
/// that fails keeps the running set, and SIGTERM answers the requests in flight before it exits.
@Suite struct MTLSServerReloadTests {
    let fixture = TestPKI.shared

    /// The server on copies of `chain.pem` and `leaf-rsa.key` in `scratch` (which a test replaces),
    /// clients under `ca-chain.pem`, its log in `server.log`.
    func start(in scratch: Scratch) throws -> AnnouncingServer {
        try FileManager.default.copyItem(atPath: fixture.path("chain.pem"), toPath: scratch.path("server.pem"))
        try FileManager.default.copyItem(atPath: fixture.path("leaf-rsa.key"), toPath: scratch.path("server.key"))
        let log = try scratch.write("server.log", "")
        return try AnnouncingServer(
            try BuiltExecutable.require("seckit-mtls-server"),
            [
                "--port", "0", "--cert", scratch.path("server.pem"), "--key", scratch.path("server.key"),
                "--client-ca", fixture.path("ca-chain.pem"), "--log-level", "debug",
                // Never idle: the drain test holds a request half sent, and the whole suite on a loaded
                // machine can keep its task from running for longer than the default minute.
                "--idle-timeout", "0",
            ],
            in: fixture.url("."),
            errors: URL(fileURLWithPath: log)
        )
    }

    /// Replaces `name` in `scratch` at once (a rename), as a deployment tool swaps files.
    func replace(_ name: String, in scratch: Scratch, with bytes: [UInt8]) throws {
        let temporary = try scratch.write(name + ".new", bytes)
        #expect(rename(temporary, scratch.path(name)) == 0)
    }

    /// `curl GET /` with the fixture's client certificate, trusting `caFile` only.
    func curl(port: Int, trusting caFile: String) throws -> ProcessResult {
        try ProcessRunner.run(
            "curl",
            [
                "--silent", "--show-error", "--fail", "--max-time", "\(20 * ProcessRunner.timeoutScale)", "--cacert",
                caFile,
                "--cert",
                "client-chain.pem", "--key", "client.key", "https://127.0.0.1:\(port)/",
            ],
            currentDirectory: fixture.directory
        )
    }

    @Test(.tags(.slow)) func aLoopOfRequestsSeesNoFailureWhileTheCertificateMovesToANewCA() async throws {
        let scratch = try Scratch.untilExit("mtls-reload")
        let server = try start(in: scratch)
        defer { server.stop() }
        let both = try scratch.write(
            "both-cas.pem",
            Array(try fixture.bytes("ca.pem")) + Array(try fixture.bytes("rogue-ca.pem"))
        )
        let oldCA = fixture.path("ca.pem")
        let newCA = fixture.path("rogue-ca.pem")
        let port = server.port

        // Requests trusting both CAs, one after the other, for 20 seconds.
        let loop = Task.detached { () throws -> [ProcessResult] in
            var results: [ProcessResult] = []
            let end = ContinuousClock.now + .seconds(20)
            while ContinuousClock.now < end { results.append(try curl(port: port, trusting: both)) }
            return results
        }

        #expect(try curl(port: port, trusting: oldCA).status == 0)
        #expect(try curl(port: port, trusting: newCA).status != 0)
        try await Task.sleep(for: .seconds(5))

        try replace("server.pem", in: scratch, with: Array(try fixture.bytes("rogue-server.pem")))
        try replace("server.key", in: scratch, with: Array(try fixture.bytes("rogue-server.key")))
        #expect(kill(server.process.processIdentifier, SIGHUP) == 0)
        try await eventually { try curl(port: port, trusting: newCA).status == 0 }
        #expect(try curl(port: port, trusting: oldCA).status != 0, "the old CA's trust no longer suffices")

        // A reload of files that do not load keeps the running set, and the log says why.
        try replace("server.pem", in: scratch, with: Array("not a certificate\n".utf8))
        #expect(kill(server.process.processIdentifier, SIGHUP) == 0)
        try await eventually {
            try String(contentsOfFile: scratch.path("server.log"), encoding: .utf8).contains("reload failed")
        }
        #expect(try curl(port: port, trusting: newCA).status == 0)

        let results = try await loop.value
        #expect(results.count >= 10)
        for result in results { #expect(result.status == 0, "\(result.stderr)") }
        let log = try String(contentsOfFile: scratch.path("server.log"), encoding: .utf8)
        #expect(log.contains("TLS server settings reloaded"))
        #expect(
            !log.contains(
                try String(contentsOfFile: fixture.path("rogue-server.key"), encoding: .utf8).split(separator: "\n")[1]
            )
        )
    }

    /// SIGTERM stops accepting connections, answers the request in flight, and exits 0.
    @Test func sigtermAnswersTheRequestInFlight() async throws {
        let scratch = try Scratch.untilExit("mtls-drain")
        let server = try start(in: scratch)
        defer { server.stop() }
        let configuration = try fixture.clientConfiguration(
            identity: try ClientIdentity(
                certificateFile: fixture.path("client-chain.pem"),
                keyFile: fixture.path("client.key")
            )
        )
        let connection = try await TLSClient(configuration: configuration).connect(host: "127.0.0.1", port: server.port)
        defer { connection.close() }
        // The head and half of the body: the request is in the handler, which waits for the rest.
        try await connection.write(
            Array("POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10\r\n\r\nhello".utf8)
        )
        // Time for the server to read the head, scaled: on a loaded machine running the whole suite,
        // a signal that came before would find no request in flight, and the server would rightly exit.
        try await Task.sleep(for: .milliseconds(500) * ProcessRunner.timeoutScale)
        #expect(kill(server.process.processIdentifier, SIGTERM) == 0)
        try await Task.sleep(for: .milliseconds(500))
        #expect(server.process.isRunning, "the server waits for the request in flight")
        try await connection.write(Array("world".utf8))
        var answer: [UInt8] = []
        while !String(decoding: answer, as: UTF8.self).hasSuffix("helloworld") {
            let chunk = try await connection.read()
            if chunk.isEmpty { break }
            answer += chunk
        }
        let text = String(decoding: answer, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 200 OK"), "\(text)")
        #expect(text.hasSuffix("\r\n\r\nhelloworld"))
        try await eventually { !server.process.isRunning }
        #expect(server.process.terminationStatus == 0)
    }
}
