import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `seccli pin HOST:PORT` against `openssl s_server` on 127.0.0.1: the verified chain with the same
/// lines as `openssl x509`, pins checked against it, every exit code (0, 2, 3, 4, 5, 6, 64) with one
/// line naming the cause, mutual TLS with PEM, encrypted PEM and PKCS#12 identities, and no
/// passphrase in any output.
@Suite("seccli pin HOST")
struct PinServerTests {
    static let pki = TestPKI.shared

    static func pin(
        _ arguments: [String],
        environment: [String: String] = [:],
        extraInput: ProcessRunner.ExtraInput? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ProcessResult {
        try Tools.seccli(
            ["pin"] + arguments,
            environment: environment,
            extraInput: extraInput,
            in: Scratch(path: pki.directory),
            sourceLocation: sourceLocation
        )
    }

    /// Requires exit 0 and nothing on standard error.
    static func expectSuccess(_ result: ProcessResult, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(
            result.status == 0 && result.stderr.isEmpty,
            "\(result.status): \(result.stderr)",
            sourceLocation: sourceLocation
        )
    }

    @Test(
        "the verified chain up to the trusted CA (not only what the server sent), as openssl x509 prints each certificate",
        arguments: ["-tls1_3", "-tls1_2"]
    )
    func verifiedChain(version: String) throws {
        let server = try Self.pki.server([version])
        defer { server.stop() }
        let result = try Self.pin(["localhost:\(server.port)", "--ca", "ca.pem"])
        Self.expectSuccess(result)
        let protocolName = version == "-tls1_3" ? "TLSv1.3" : "TLSv1.2"
        let first = result.stdoutLines.first ?? ""
        #expect(
            first.hasPrefix(
                "connected to localhost port \(server.port) (127.0.0.1), server name localhost: \(protocolName), "
            ),
            "\(first)"
        )
        #expect(first.hasSuffix(", trust: ca-file"), "\(first)")
        let references = try TestPKI.serverChain.map(PinFileTests.Reference.init)
        let blocks = references.enumerated().flatMap { $1.block(depth: $0) }
        #expect(Array(result.stdoutLines.dropFirst(2).prefix(blocks.count)) == blocks)
        #expect(result.stdoutLines.contains("--pinnedpubkey 'sha256//\(references[0].pin)'"))
        #expect(result.stdoutLines.suffix(3) == references.map { ".add(\"localhost\", \"sha256/\($0.pin)\")" })
    }

    @Test("--expect matches at each depth of the verified chain, in pin and fingerprint notations")
    func expectMatches() throws {
        let server = try Self.pki.server()
        defer { server.stop() }
        let references = try TestPKI.serverChain.map(PinFileTests.Reference.init)
        for (depth, expected) in [
            "sha256//\(references[0].pin)", references[1].sha1, "pin-sha256=\"\(references[2].pin)\"",
        ].enumerated() {
            let result = try Self.pin(["localhost:\(server.port)", "--ca", "ca.pem", "--expect", expected])
            Self.expectSuccess(result)
            #expect(
                PinFileTests.pinCheck(result).contains("matched the certificate at depth \(depth)"),
                "\(expected): \(PinFileTests.pinCheck(result))"
            )
        }
    }

    @Test(
        "no expected pin in the verified chain: exit 3, the chain on stdout, one line listing chain and expected pins"
    )
    func mismatch() throws {
        let server = try Self.pki.server()
        defer { server.stop() }
        let unrelated = try PinFileTests.Reference("other")
        let result = try Self.pin(["localhost:\(server.port)", "--ca", "ca.pem", "--expect", "sha256/\(unrelated.pin)"])
        #expect(result.status == 3)
        expectOneLine(result.stderr)
        #expect(result.stderr.contains("pin mismatch") && result.stderr.contains(unrelated.pin), "\(result.stderr)")
        #expect(result.stdoutLines.first == "depth 0", "\(result.stdoutText)")
    }

    @Test("a certificate the server appends to its chain cannot satisfy a pin: only the verified chain counts")
    func appendedCertificate() throws {
        let server = try Self.pki.server(chain: "appended-chain.pem")
        defer { server.stop() }
        let unrelated = try PinFileTests.Reference("other")
        let refused = try Self.pin([
            "localhost:\(server.port)", "--ca", "ca.pem", "--expect", "sha256/\(unrelated.pin)",
        ])
        #expect(refused.status == 3, "\(refused.stderr)")
        expectOneLine(refused.stderr)
        #expect(
            !refused.stdoutText.contains("CN=Unrelated Test Certificate"),
            "the appended certificate is not part of the verified chain"
        )
        let intermediate = try PinFileTests.Reference("intermediate")
        Self.expectSuccess(
            try Self.pin(["localhost:\(server.port)", "--ca", "ca.pem", "--expect", "sha256/\(intermediate.pin)"])
        )
    }

    @Test("certificates that do not verify: exit 4, nothing on stdout, OpenSSL's reason in one line")
    func verificationFailures() throws {
        let server = try Self.pki.server()
        defer { server.stop() }
        let expired = try Self.pki.server(cert: "expired")
        defer { expired.stop() }
        let cases: [([String], String)] = [
            // The test CA is not in the system store, and the rogue CA is unknown.
            (["localhost:\(server.port)"], "unable to get local issuer certificate"),
            (["localhost:\(server.port)", "--ca", "rogue-ca.pem"], "unable to get local issuer certificate"),
            (["localhost:\(expired.port)", "--ca", "ca.pem"], "certificate has expired"),
            (["127.0.0.1:\(server.port)", "--ca", "ca.pem", "--servername", "other.example"], "hostname mismatch"),
        ]
        for (arguments, reason) in cases {
            let result = try Self.pin(arguments)
            expectOneLineError(result, status: 4)
            #expect(
                result.stderr.contains("certificate verification failed: \(reason)"),
                "\(arguments): \(result.stderr)"
            )
        }
    }

    @Test(
        "--pin-only: a self-signed server is accepted with its pin only, refused with another; without --expect a usage error"
    )
    func pinOnly() throws {
        let server = try Self.pki.server(cert: "selfsigned", chain: nil)
        defer { server.stop() }
        let selfsigned = try PinFileTests.Reference("selfsigned")
        let accepted = try Self.pin(["localhost:\(server.port)", "--pin-only", "--expect", "sha256/\(selfsigned.pin)"])
        Self.expectSuccess(accepted)
        #expect(accepted.stdoutLines.first?.hasSuffix("trust: pin-only") == true, "\(accepted.stdoutText)")
        #expect(PinFileTests.pinCheck(accepted).contains("matched the certificate at depth 0"))
        let unrelated = try PinFileTests.Reference("other")
        let refused = try Self.pin(["localhost:\(server.port)", "--pin-only", "--expect", "sha256/\(unrelated.pin)"])
        #expect(refused.status == 3, "\(refused.stderr)")
        expectOneLine(refused.stderr)
        // Without --pin-only the same server does not verify.
        expectOneLineError(
            try Self.pin(["localhost:\(server.port)", "--expect", "sha256/\(selfsigned.pin)"]),
            status: 4
        )
        let usage = try Self.pin(["localhost:\(server.port)", "--pin-only"])
        expectOneLineError(usage, status: 64)
        #expect(usage.stderr.contains("--expect"))
    }

    // MARK: - Mutual TLS

    /// Where each identity's passphrase comes from, and the identity options.
    struct Identity: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var arguments: [String]
        var environment: [String: String] = [:]
        var extraInput: ProcessRunner.ExtraInput? = nil
    }

    static let identities: [Identity] = [
        Identity(
            testDescription: "PEM certificate chain and key",
            arguments: ["--cert", "client-chain.pem", "--key", "client.key"]
        ),
        Identity(
            testDescription: "encrypted PEM key, passphrase from env:",
            arguments: [
                "--cert", "client-chain.pem", "--key", "client-encrypted.key",
                "--key-password", "env:SECCLI_TEST_KEY_PASS",
            ],
            environment: ["SECCLI_TEST_KEY_PASS": TestPKI.keyPassphrase]
        ),
        Identity(
            testDescription: "PKCS#12, passphrase from fd:3",
            arguments: ["--p12", "client.p12", "--p12-password", "fd:3"],
            extraInput: .init(descriptor: 3, bytes: Array("\(TestPKI.p12Passphrase)\n".utf8))
        ),
    ]

    /// True when neither passphrase appears in the output.
    static func expectNoSecret(_ result: ProcessResult, sourceLocation: SourceLocation = #_sourceLocation) {
        for secret in [TestPKI.keyPassphrase, TestPKI.p12Passphrase] {
            #expect(
                !result.stdoutText.contains(secret) && !result.stderr.contains(secret),
                "a passphrase was printed",
                sourceLocation: sourceLocation
            )
        }
    }

    @Test(
        "mTLS: each identity form is accepted by a server that demands a client certificate (TLS 1.3 and 1.2)",
        .tags(.slow),
        arguments: identities
    )
    func mutualTLS(_ identity: Identity) throws {
        for version in ["-tls1_3", "-tls1_2"] {
            let server = try Self.pki.server(["-Verify", "1", "-verify_return_error", "-CAfile", "ca.pem", version])
            defer { server.stop() }
            let result = try Self.pin(
                ["localhost:\(server.port)", "--ca", "ca.pem"] + identity.arguments,
                environment: identity.environment,
                extraInput: identity.extraInput
            )
            Self.expectSuccess(result)
            #expect(
                result.stdoutLines.first?.hasSuffix("client certificate requested") == true,
                "\(version): \(result.stdoutLines.first ?? "")"
            )
            Self.expectNoSecret(result)
        }
    }

    @Test(
        "mTLS refused: without a client certificate or with an untrusted one, exit 5 (TLS 1.3 and 1.2)",
        arguments: ["-tls1_3", "-tls1_2"]
    )
    func clientCertificateRefused(version: String) throws {
        let server = try Self.pki.server(["-Verify", "1", "-verify_return_error", "-CAfile", "ca.pem", version])
        defer { server.stop() }
        for (arguments, mentions) in [
            ([], "requires a client certificate"),
            (["--cert", "rogue-client.pem", "--key", "rogue-client.key"], "rejected the client certificate"),
        ] {
            let result = try Self.pin(["localhost:\(server.port)", "--ca", "ca.pem"] + arguments)
            expectOneLineError(result, status: 5)
            #expect(result.stderr.contains(mentions), "\(version) \(arguments): \(result.stderr)")
        }
    }

    @Test(
        "identities that cannot be loaded: wrong or missing passphrase, mismatched key, unreadable file exit 2; never the passphrase"
    )
    func unusableIdentities() throws {
        let wrongPassphrase = "wrong \(TestPKI.keyPassphrase)"
        let environment = ["SECCLI_TEST_KEY_PASS": wrongPassphrase]
        let cases: [([String], String)] = [
            (
                [
                    "--cert", "client-chain.pem", "--key", "client-encrypted.key", "--key-password",
                    "env:SECCLI_TEST_KEY_PASS",
                ], "passphrase"
            ),
            (["--p12", "client.p12", "--p12-password", "env:SECCLI_TEST_KEY_PASS"], "passphrase"),
            (["--cert", "client-chain.pem", "--key", "client-encrypted.key"], "passphrase"),
            (["--cert", "client.pem", "--key", "leaf-rsa.key"], "does not match"),
            (["--cert", "client.pem", "--key", "/nonexistent-seccli/client.key"], "/nonexistent-seccli/client.key"),
            (["--p12", "client.pem", "--p12-password", "env:SECCLI_TEST_KEY_PASS"], "PKCS#12"),
        ]
        // Identities are loaded before connecting: no server is needed to refuse them.
        for (arguments, mentions) in cases {
            let result = try Self.pin(["localhost:1", "--ca", "ca.pem"] + arguments, environment: environment)
            expectOneLineError(result, status: 2)
            #expect(result.stderr.contains(mentions), "\(arguments): \(result.stderr)")
            Self.expectNoSecret(result)
            #expect(!result.stderr.contains(wrongPassphrase), "the wrong passphrase was printed")
        }
        let literal = try Self.pin(["localhost:1", "--p12", "client.p12", "--p12-password", TestPKI.p12Passphrase])
        expectOneLineError(literal, status: 64)
        Self.expectNoSecret(literal)
    }

    // MARK: - Connections, JSON, usage

    @Test("a host named only in the certificate's CN does not verify, pinned or not: exit 4")
    func commonNameOnly() throws {
        let server = try Self.pki.server(cert: "cn-only")
        defer { server.stop() }
        let unrelated = try PinFileTests.Reference("other")
        let cnOnly = try PinFileTests.Reference("cn-only")
        for expect in [["--expect", "sha256/\(unrelated.pin)"], ["--expect", "sha256/\(cnOnly.pin)"], []] {
            let result = try Self.pin(["localhost:\(server.port)", "--ca", "ca.pem"] + expect)
            expectOneLineError(result, status: 4)
            #expect(result.stderr.contains("hostname mismatch"), "\(result.stderr)")
        }
    }

    @Test(
        "an IPv6 address written another way is pinned as its canonical form: exit 3",
        .enabled(if: TLSTestServer.ipv6LoopbackAvailable, "IPv6 is off here: no socket can be bound to ::1"),
        arguments: ["[0:0:0:0:0:0:0:1]", "[0::1]", "[::1]"]
    )
    func anAddressWrittenAnotherWay(host: String) throws {
        let server = try Self.pki.server(address: "::1")
        defer { server.stop() }
        let unrelated = try PinFileTests.Reference("other")
        let refused = try Self.pin(["\(host):\(server.port)", "--ca", "ca.pem", "--expect", "sha256/\(unrelated.pin)"])
        #expect(refused.status == 3, "\(refused.stderr)")
        let leaf = try PinFileTests.Reference("leaf-rsa")
        Self.expectSuccess(
            try Self.pin(["\(host):\(server.port)", "--ca", "ca.pem", "--expect", "sha256/\(leaf.pin)"])
        )
    }

    @Test("no connection: refused, timed out (a listener that never answers), unknown host, IPv6 in brackets: exit 6")
    func connectionFailures() throws {
        let silent = try SilentListener()
        defer { silent.close() }
        let closed = try TLSTestServer.freePort()
        let cases: [([String], String)] = [
            (["127.0.0.1:\(closed)"], "cannot connect: 127.0.0.1 port \(closed)"),
            (["127.0.0.1:\(silent.port)", "--timeout", "1"], "timed out"),
            (["seccli-test.invalid"], "cannot resolve seccli-test.invalid"),
            (["[::1]:\(closed)"], "::1 port \(closed)"),
        ]
        for (arguments, mentions) in cases {
            let result = try Self.pin(arguments)
            expectOneLineError(result, status: 6)
            #expect(result.stderr.contains(mentions), "\(arguments): \(result.stderr)")
        }
    }

    @Test("--json: the connection, the verified chain, the pins and the --expect outcome")
    func json() throws {
        let server = try Self.pki.server(["-tls1_2"])
        defer { server.stop() }
        let references = try TestPKI.serverChain.map(PinFileTests.Reference.init)
        let result = try Self.pin([
            "127.0.0.1:\(server.port)", "--ca", "ca.pem", "--servername", "localhost", "--json",
            "--expect", "sha256/\(references[1].pin)",
        ])
        Self.expectSuccess(result)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any],
            "\(result.stdoutText)"
        )
        #expect(Set(object.keys) == ["connection", "certificates", "curlPinnedPubkey", "okHttp", "expected"])
        let connection = try #require(object["connection"] as? [String: Any])
        #expect(
            connection["host"] as? String == "127.0.0.1" && connection["port"] as? Int == server.port,
            "\(connection)"
        )
        #expect(
            connection["address"] as? String == "127.0.0.1" && connection["serverName"] as? String == "localhost",
            "\(connection)"
        )
        #expect(
            connection["protocolVersion"] as? String == "TLSv1.2" && connection["trust"] as? String == "ca-file",
            "\(connection)"
        )
        #expect(
            (connection["cipher"] as? String)?.isEmpty == false
                && connection["clientCertificateRequested"] as? Bool == false,
            "\(connection)"
        )
        let certificates = try #require(object["certificates"] as? [[String: Any]])
        #expect(certificates.map { $0["pin"] as? String } == references.map { "sha256/\($0.pin)" })
        let expected = try #require(object["expected"] as? [String: Any])
        #expect(expected["matched"] as? Bool == true && expected["depth"] as? Int == 1, "\(expected)")
        #expect((object["okHttp"] as? [String: Any])?["host"] as? String == "localhost")
    }

    @Test(
        "usage errors exit 64 before connecting",
        arguments: [
            ["localhost:99999"], ["localhost:"], ["[::1"], ["localhost", "--file", "chain.pem"],
            ["--file", "chain.pem", "--ca", "ca.pem"],
            ["--file", "chain.pem", "--p12", "client.p12"],
            ["localhost", "--p12", "client.p12", "--cert", "client.pem"],
            ["localhost", "--key", "client.key"],
            ["localhost", "--ca", "ca.pem", "--pin-only", "--expect", "sha256//x"],
            ["localhost", "--timeout", "0"],
        ]
    )
    func usage(_ arguments: [String]) throws {
        expectOneLineError(try Self.pin(arguments), status: 64)
    }
}

/// A TCP socket on 127.0.0.1 that listens but never accepts: connections complete (the kernel
/// queues them) and then nothing is ever said, so a TLS handshake can only time out.
final class SilentListener {
    let port: Int
    private let descriptor: Int32

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SocketError(description: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && listen(fd, 8) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard listening else {
            Glibc.close(fd)
            throw SocketError(description: "listen on 127.0.0.1: \(String(cString: strerror(errno)))")
        }
        descriptor = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() { Glibc.close(descriptor) }

    struct SocketError: Error, CustomStringConvertible {
        let description: String
    }
}
