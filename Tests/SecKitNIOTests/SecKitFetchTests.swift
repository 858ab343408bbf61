import Foundation
import SecTLS
import TestSupport
import Testing

/// The `seckit-fetch` example end to end: against `openssl s_server` and the `seckit-mtls-server`
/// example, every documented exit code, and secrets only from sources.
@Suite(.enabled(if: BuiltExecutable.path("seckit-fetch") != nil, "needs the seckit-fetch example built"))
struct SecKitFetchTests {
    let fixture = TestPKI.shared

    func fetch(_ arguments: [String], environment: [String: String] = [:]) throws -> ProcessResult {
        try ProcessRunner.run(
            BuiltExecutable.path("seckit-fetch")!,
            arguments + ["--timeout", "30"],
            environment: environment,
            currentDirectory: fixture.path(".")
        )
    }

    func pin(_ name: String) throws -> String { try fixture.certificate(name).publicKeyPin.description }

    @Test func aPinnedGetWithAnEncryptedKeyFromTheEnvironment() throws {
        let server = try fixture.server(["-tls1_3", "-Verify", "1", "-verify_return_error", "-CAfile", "ca-chain.pem"])
        defer { server.stop() }
        let result = try fetch(
            [
                "https://127.0.0.1:\(server.port)/", "--ca", "ca.pem", "--pin", try pin("leaf-rsa"),
                "--cert", "client-chain.pem", "--key", "client-encrypted.key", "--key-password", "env:KEY_PASS",
            ],
            environment: ["KEY_PASS": TestPKI.keyPassphrase]
        )
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutText.contains("SecKit Test Client"))
        let p12 = try fetch(
            [
                "https://127.0.0.1:\(server.port)/", "--ca", "ca.pem", "--p12", "client.p12", "--p12-password",
                "env:P12_PASS",
            ],
            environment: ["P12_PASS": TestPKI.p12Passphrase]
        )
        #expect(p12.status == 0 && p12.stdoutText.contains("SecKit Test Client"), "\(p12.stderr)")
        // An encrypted PKCS#12 file without a passphrase: the identity cannot be read.
        let noPassphrase = try fetch(["https://127.0.0.1:\(server.port)/", "--ca", "ca.pem", "--p12", "client.p12"])
        #expect(noPassphrase.status == 2 && noPassphrase.stderr.contains("passphrase"), "\(noPassphrase.stderr)")
    }

    @Test func exitCodesOfRefusals() throws {
        let server = try fixture.server(["-tls1_3"])
        defer { server.stop() }
        let url = "https://127.0.0.1:\(server.port)/"
        let other = try pin("other")
        let wrongPin = try fetch([url, "--ca", "ca.pem", "--pin", other])
        #expect(wrongPin.status == 3 && wrongPin.stdout.isEmpty)
        #expect(wrongPin.stderr.hasPrefix("seckit-fetch: pin mismatch") && wrongPin.stderr.contains(other))
        let untrusted = try fetch([url, "--ca", "rogue-ca.pem"])
        #expect(untrusted.status == 4, "\(untrusted.stderr)")

        let mutual = try fixture.server(["-tls1_3", "-Verify", "1", "-verify_return_error", "-CAfile", "ca-chain.pem"])
        defer { mutual.stop() }
        let noCertificate = try fetch(["https://127.0.0.1:\(mutual.port)/", "--ca", "ca.pem"])
        #expect(noCertificate.status == 5, "\(noCertificate.stderr)")
        let rogue = try fetch([
            "https://127.0.0.1:\(mutual.port)/", "--ca", "ca.pem", "--cert", "rogue-client.pem", "--key",
            "rogue-client.key",
        ])
        #expect(rogue.status == 5 && rogue.stderr.contains("unknown CA"), "\(rogue.stderr)")

        let refused = try fetch(["https://127.0.0.1:\(try TLSTestServer.freePort())/", "--ca", "ca.pem"])
        #expect(refused.status == 6, "\(refused.stderr)")
    }

    @Test func usageErrorsAndSecretsOnlyFromSources() throws {
        for arguments in [
            ["ftp://127.0.0.1:1/"],
            ["https://127.0.0.1:1/", "--pin-only"],
            ["https://127.0.0.1:1/", "--pin", "sha256/short"],
            ["https://127.0.0.1:1/", "--cert", "client.pem"],
            // A passphrase on the command line is refused: it would be visible in the process list.
            [
                "https://127.0.0.1:1/", "--cert", "client.pem", "--key", "client-encrypted.key", "--key-password",
                "hunter2",
            ],
            ["https://127.0.0.1:1/", "--user", "alice", "--password", "hunter2"],
            // A password in the URL: refused, and not repeated in the message.
            ["https://alice:hunter2@127.0.0.1:1/"],
        ] {
            let result = try fetch(arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("hunter2"))
        }
    }

    @Test func anHTTPErrorStatusHasItsOwnCode() throws {
        let server = try MutualTLSServerProcess.start(fixture)
        defer { server.stop() }
        let base = "https://127.0.0.1:\(server.port)"
        let identity = ["--ca", "ca.pem", "--cert", "client-chain.pem", "--key", "client.key"]
        let found = try fetch(["\(base)/"] + identity)
        #expect(found.status == 0, "\(found.stderr)")
        #expect(found.stdoutText.contains("\"subject\":\"CN=SecKit Test Client\""))
        let missing = try fetch(["\(base)/missing"] + identity)
        #expect(missing.status == 22 && missing.stderr.contains("HTTP status 404"), "\(missing.stderr)")
    }

    /// Every challenge seckit-fetch cannot answer exits 7 (docs/SecKitNIO.md), with the reason and
    /// without an answer sent; a 401 without `--user` or `--keychain` is an HTTP status (22).
    @Test(arguments: [
        (HostileAuthServer.Form.unknownAlgorithm, "Digest algorithm not supported"),
        (.noRealm, "Digest challenge without a realm"),
        (.authIntOnly, "only qop=auth-int"),
        (.bearer, "no Basic or Digest challenge"),
    ])
    func aChallengeThatCannotBeAnsweredExitsSeven(_ form: HostileAuthServer.Form, _ reason: String) throws {
        let server = try HostileAuthServer.start(
            form,
            certificate: fixture.path("chain.pem"),
            key: fixture.path("leaf-rsa.key")
        )
        defer { server.stop() }
        let result = try fetch(
            [server.url("/"), "--ca", "ca.pem", "--user", "alice", "--password", "env:HTTP_PASSWORD"],
            environment: ["HTTP_PASSWORD": "wonderland"]
        )
        #expect(result.status == 7 && result.stderr.contains(reason), "\(result.status): \(result.stderr)")
        let anonymous = try fetch([server.url("/"), "--ca", "ca.pem"])
        #expect(anonymous.status == 22 && anonymous.stderr.contains("HTTP status 401"), "\(anonymous.stderr)")
        #expect(server.authorizations == [nil, nil], "no answer sent")
    }
}

/// The `seckit-mtls-server` example on a free port, stopped by `stop()`.
struct MutualTLSServerProcess {
    let process: Process
    let port: Int

    static func start(_ fixture: TestPKI, extraArguments: [String] = []) throws -> MutualTLSServerProcess {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltExecutable.path("seckit-mtls-server")!)
        process.currentDirectoryURL = fixture.url(".")
        process.arguments =
            ["--port", "0", "--cert", "chain.pem", "--key", "leaf-rsa.key", "--client-ca", "ca-chain.pem"]
            + extraArguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // "listening on 127.0.0.1:PORT" once it accepts connections.
        var line = ""
        while !line.hasSuffix("\n") {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            guard !byte.isEmpty else {
                process.waitUntilExit()
                throw ExampleServerError(description: "seckit-mtls-server exited with \(process.terminationStatus)")
            }
            line += String(decoding: byte, as: UTF8.self)
        }
        guard let port = Int(line.split(separator: ":").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "")
        else {
            process.terminate()
            throw ExampleServerError(description: "unexpected first line: \(line)")
        }
        return MutualTLSServerProcess(process: process, port: port)
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}

struct ExampleServerError: Error, CustomStringConvertible {
    let description: String
}
