import Foundation
import SecTLS
import TestSupport
import Testing

/// The `seckit-fetch` example end to end: against `openssl s_server` and the `seckit-mtls-server`
/// example, every documented exit code, and secrets only from sources.
@Suite struct SecKitFetchTests {
    let fixture = TestPKI.shared

    func fetch(_ arguments: [String], environment: [String: String] = [:]) throws -> ProcessResult {
        try ProcessRunner.run(
            try BuiltExecutable.require("seckit-fetch"),
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

    /// The pin bypasses of issue #27: a host named only in the CN (swift-nio-ssl matched it, no pin
    /// set covered the certificate), and an IPv6 address written another way than the pin's host.
    @Test func noPinBypassByTheCNOrAnotherSpellingOfTheHost() throws {
        let cnOnly = try fixture.server(cert: "cn-only")
        defer { cnOnly.stop() }
        let refused = try fetch(["https://localhost:\(cnOnly.port)/", "--ca", "ca.pem", "--pin", try pin("other")])
        #expect(refused.status == 4 && refused.stdout.isEmpty, "\(refused.status): \(refused.stderr)")
        #expect(refused.stderr.contains("subjectAltName"), "\(refused.stderr)")
        guard TLSTestServer.ipv6LoopbackAvailable else { return }
        let server = try fixture.server(address: "::1")
        defer { server.stop() }
        for host in ["[0:0:0:0:0:0:0:1]", "[0::1]", "[::1]"] {
            let url = "https://\(host):\(server.port)/"
            let wrong = try fetch([url, "--ca", "ca.pem", "--pin", try pin("other")])
            #expect(wrong.status == 3 && wrong.stdout.isEmpty, "\(host): \(wrong.status): \(wrong.stderr)")
            let right = try fetch([url, "--ca", "ca.pem", "--pin", try pin("leaf-rsa")])
            #expect(right.status == 0, "\(host): \(right.stderr)")
        }
    }

    /// `--timeout` bounds the whole request, below one second too, wherever a server stalls: in
    /// the handshake, before the head, in the body after its first byte, in a 401's body (the
    /// authenticator reads it). Each ends as a connection failure, soon after the limit.
    @Test(.tags(.slow), arguments: ["handshake", "head", "body", "challenge"])
    func theTimeoutBoundsTheWholeRequest(stall: String) throws {
        let server = try StallingServer.start(stall, fixture)
        defer { server.stop() }
        let started = ContinuousClock.now
        let result = try ProcessRunner.run(
            try BuiltExecutable.require("seckit-fetch"),
            [
                "https://127.0.0.1:\(server.port)/", "--ca", "ca.pem", "--timeout", "0.5", "--user", "alice",
                "--password", "env:PASSWORD",
            ],
            environment: ["PASSWORD": "secret"],
            currentDirectory: fixture.path("."),
            timeout: .seconds(60)
        )
        let elapsed = ContinuousClock.now - started
        #expect(result.status == 6 && result.stderr.contains("timed out"), "\(stall): \(result.stderr)")
        // 0.5 s and the start of a process; a timeout that did not bound took 5 s more, or for ever.
        #expect(elapsed < .seconds(4 * ProcessRunner.timeoutScale), "\(stall): \(elapsed)")
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

/// `Tests/Peers/stalling_server.py`, stalling at `mode` (handshake, head, body, challenge), with
/// the fixture's server certificate.
enum StallingServer {
    static func start(_ mode: String, _ fixture: TestPKI) throws -> AnnouncingServer {
        let command = try InteropPeer.stallingServer.commandLine()
        return try AnnouncingServer(
            command[0],
            Array(command.dropFirst()) + [mode, "chain.pem", "leaf-rsa.key"],
            in: fixture.url(".")
        )
    }
}

/// The `seckit-mtls-server` example on a free port (`--port 0`), stopped by `stop()`.
enum MutualTLSServerProcess {
    static func start(_ fixture: TestPKI, extraArguments: [String] = []) throws -> AnnouncingServer {
        try AnnouncingServer(
            try BuiltExecutable.require("seckit-mtls-server"),
            ["--port", "0", "--cert", "chain.pem", "--key", "leaf-rsa.key", "--client-ca", "ca-chain.pem"]
                + extraArguments,
            in: fixture.url(".")
        )
    }
}
