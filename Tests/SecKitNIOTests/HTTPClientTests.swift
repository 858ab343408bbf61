import AsyncHTTPClient
import Foundation
import NIOCore
import SecCrypto
import SecKitHTTPClient
import SecKitNIO
import SecTLS
import TestSupport
import Testing

/// AsyncHTTPClient configured by SecKit against real `openssl s_server -www` processes: trust,
/// leaf pins on every new connection before any request byte, client identities, and the
/// configurations it refuses.
@Suite struct HTTPClientTests {
    let fixture = TestPKI.shared

    /// `GET https://HOST:PORT/` through an HTTPClient made from `configuration`; the body.
    func get(
        _ server: TLSTestServer,
        _ configuration: TLSClientConfiguration,
        host: String = "127.0.0.1"
    ) async throws -> String {
        let client = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: try HTTPClient.Configuration(secKit: configuration)
        )
        do {
            let response = try await client.execute(
                HTTPClientRequest(url: "https://\(host):\(server.port)/"),
                timeout: .seconds(20)
            )
            let body = try await response.body.collect(upTo: 1 << 20)
            try await client.shutdown()
            return String(buffer: body)
        } catch {
            try await client.shutdown()
            throw error
        }
    }

    /// True when s_server (run with -msg) received application data after the handshake: a received
    /// record (its `RecordHeader` line) that -msg describes as neither an alert nor a handshake message
    /// (application data gets no description of its own, under TLS 1.2 or 1.3).
    func receivedApplicationData(_ log: String) -> Bool {
        let lines = log.split(separator: "\n").filter { $0.hasPrefix("<<< ") || $0.hasPrefix(">>> ") }
        guard let finished = lines.lastIndex(where: { $0.contains("Finished") }) else { return false }
        let received = lines[(finished + 1)...].filter { $0.hasPrefix("<<< ") }
        var records: [[Substring]] = []
        for line in received {
            if line.contains("RecordHeader") {
                records.append([])
            } else if !records.isEmpty {
                records[records.count - 1].append(line)
            }
        }
        return records.contains { record in !record.contains { $0.contains("Alert") || $0.contains("Handshake") } }
    }

    @Test(arguments: ["-tls1_2", "-tls1_3"])
    func aPinnedLeafGetsItsRequestThrough(version: String) async throws {
        let server = try fixture.server([version, "-msg"])
        defer { server.stop() }
        let page = try await get(server, try fixture.clientConfiguration(pins: [try fixture.pin("leaf-rsa")]))
        #expect(page.hasPrefix("<HTML>") || page.contains("s_server"))
        #expect(receivedApplicationData(server.log))
    }

    @Test(arguments: ["-tls1_2", "-tls1_3"])
    func aWrongPinSendsNoRequestByte(version: String) async throws {
        let server = try fixture.server([version, "-msg"])
        defer { server.stop() }
        let other = try fixture.pin("other")
        let leafPin = try fixture.certificate("leaf-rsa").publicKeyPin
        await #expect {
            try await get(server, try fixture.clientConfiguration(pins: [other]))
        } throws: { error in
            guard case TLSError.pinMismatch(let evaluation) = error else { return false }
            return evaluation.expectedPins == [other] && evaluation.chainPins == [leafPin]
        }
        #expect(server.log.contains("Finished"), "the handshake happened")
        #expect(!receivedApplicationData(server.log))
    }

    @Test func anAppendedCertificateCannotSatisfyAPin() async throws {
        let server = try fixture.server(chain: "appended-chain.pem")
        defer { server.stop() }
        await #expect {
            try await get(server, try fixture.clientConfiguration(pins: [try fixture.pin("other")]))
        } throws: { isPinMismatch($0) }
    }

    @Test func pinsThatNeedTheChainAreRefusedAtConfiguration() throws {
        #expect {
            try HTTPClient.Configuration(secKit: try fixture.clientConfiguration(pins: [try fixture.pin("ca")]))
        } throws: { error in
            guard case TLSError.invalidConfiguration(let reason) = error else { return false }
            return reason.contains("SecKit Test CA")
        }
        var twoHosts = try fixture.clientConfiguration(trust: .pinsOnly)
        twoHosts.pinPolicy = PinPolicy([
            try PinSet(host: "a.example", pins: [try fixture.pin("leaf-rsa")]),
            try PinSet(host: "b.example", pins: [try fixture.pin("leaf-ec")]),
        ])
        #expect {
            try HTTPClient.Configuration(secKit: twoHosts)
        } throws: { error in
            guard case TLSError.invalidConfiguration(let reason) = error else { return false }
            return reason.contains("exactly one enforced pin set")
        }
    }

    /// swift-nio-ssl would match the host against the CN of a certificate without subjectAltNames,
    /// and no pin set would then cover it: such a certificate is refused, pinned or not.
    @Test func aCertificateThatNamesItsHostOnlyInTheCNIsRefused() async throws {
        let server = try fixture.server(cert: "cn-only")
        defer { server.stop() }
        for pins in [[try fixture.pin("other")], [try fixture.pin("cn-only")], nil] {
            var configuration = try fixture.clientConfiguration()
            if let pins { configuration.pinPolicy = try PinPolicy(host: "localhost", pins: pins) }
            await #expect {
                try await get(server, configuration, host: "localhost")
            } throws: { isVerificationFailure($0, .hostnameMismatch) }
        }
    }

    @Test(
        .enabled(if: TLSTestServer.ipv6LoopbackAvailable, "IPv6 is off here: no socket can be bound to ::1"),
        arguments: ["[0:0:0:0:0:0:0:1]", "[0::1]", "[::1]"]
    )
    func anAddressWrittenAnotherWayKeepsItsPins(host: String) async throws {
        let server = try fixture.server(address: "::1")
        defer { server.stop() }
        var configuration = try fixture.clientConfiguration()
        configuration.pinPolicy = try PinPolicy(host: "::1", pins: [try fixture.pin("other")])
        await #expect { try await get(server, configuration, host: host) } throws: { isPinMismatch($0) }
        configuration.pinPolicy = try PinPolicy(host: "0::1", pins: [try fixture.pin("leaf-rsa")])
        let page = try await get(server, configuration, host: host)
        #expect(page.hasPrefix("<HTML>") || page.contains("s_server"))
    }

    @Test func aServerNoPinSetCoversIsRefusedUnlessThePolicyAllowsIt() async throws {
        let server = try fixture.server()
        defer { server.stop() }
        var configuration = try fixture.clientConfiguration()
        let pinSet = try PinSet(host: "api.example.com", pins: [try fixture.pin("leaf-rsa")])
        configuration.pinPolicy = PinPolicy([pinSet])
        await #expect {
            try await get(server, configuration)
        } throws: { error in
            guard case TLSError.pinMismatch(let evaluation) = error else { return false }
            return evaluation.outcome == .hostNotCovered
        }
        configuration.pinPolicy = PinPolicy([pinSet], unpinnedHosts: .allow)
        let page = try await get(server, configuration)
        #expect(page.hasPrefix("<HTML>") || page.contains("s_server"))
    }

    @Test func pinOnlyTrustChecksTheLeaf() async throws {
        let server = try fixture.server(cert: "selfsigned", chain: nil)
        defer { server.stop() }
        let page = try await get(
            server,
            try fixture.clientConfiguration(pins: [try fixture.pin("selfsigned")], trust: .pinsOnly)
        )
        #expect(page.contains("s_server") || page.hasPrefix("<HTML>"))
        await #expect {
            try await get(server, try fixture.clientConfiguration(pins: [try fixture.pin("leaf-ec")], trust: .pinsOnly))
        } throws: { isPinMismatch($0) }
    }

    @Test(arguments: ["-tls1_2", "-tls1_3"])
    func aPKCS12IdentityLogsIn(version: String) async throws {
        let server = try fixture.server([version, "-Verify", "1", "-verify_return_error", "-CAfile", "ca-chain.pem"])
        defer { server.stop() }
        let identity = try ClientIdentity(
            pkcs12: try fixture.bytes("client.p12"),
            passphrase: SecureBytes(Array(TestPKI.p12Passphrase.utf8))
        )
        let page = try await get(
            server,
            try fixture.clientConfiguration(pins: [try fixture.pin("leaf-rsa")], identity: identity)
        )
        #expect(page.contains("Client certificate") && page.contains("SecKit Test Client"))
    }

    @Test func aTLS13ServerThatWantsACertificateSaysSo() async throws {
        let server = try fixture.server(["-tls1_3", "-Verify", "1", "-verify_return_error", "-CAfile", "ca-chain.pem"])
        defer { server.stop() }
        await #expect(throws: TLSError.clientCertificateRequired) {
            try await get(server, try fixture.clientConfiguration())
        }
    }

    @Test func anUntrustedServerIsRefused() async throws {
        let server = try fixture.server(cert: "rogue-server", chain: nil)
        defer { server.stop() }
        await #expect {
            try await get(server, try fixture.clientConfiguration())
        } throws: { error in
            guard let error = TLSError(translating: error, clientIdentityConfigured: false),
                case .certificateVerificationFailed = error
            else { return false }
            return true
        }
    }

    /// A configuration made from a `ClientTLSContext` follows the context's pin policy: a reload
    /// applies from the next new connection (s_server -www closes each one). A reload that changes
    /// what AsyncHTTPClient fixed when the client was made (here the trust roots) refuses new
    /// connections rather than going on with the old trust.
    @Test func thePinPolicyOfAContextRotatesForNewConnections() async throws {
        let server = try fixture.server(["-tls1_3"])
        defer { server.stop() }
        let wrong = try fixture.pin("other")
        let context = try ClientTLSContext(configuration: try fixture.clientConfiguration(pins: [wrong]))
        let client = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: try HTTPClient.Configuration(secKit: context)
        )
        func get() async throws -> String {
            let response = try await client.execute(
                HTTPClientRequest(url: "https://127.0.0.1:\(server.port)/"),
                timeout: .seconds(20 * Int64(ProcessRunner.timeoutScale))
            )
            return String(buffer: try await response.body.collect(upTo: 1 << 20))
        }
        do {
            await #expect(throws: TLSError.self) { try await get() }

            var rotated = context.configuration
            rotated.pinPolicy = try PinPolicy(host: "127.0.0.1", pins: [try fixture.pin("leaf-rsa")])
            try context.reload(configuration: rotated)
            let page = try await get()
            #expect(page.hasPrefix("<HTML>") || page.contains("s_server"))

            rotated.pinPolicy = try PinPolicy(host: "127.0.0.1", pins: [wrong])
            try context.reload(configuration: rotated)
            await #expect {
                try await get()
            } throws: { error in
                guard case TLSError.pinMismatch(let evaluation) = error else { return false }
                return evaluation.expectedPins == [wrong]
            }

            var untrusting = rotated
            untrusting.trustRoots = .caFile(fixture.path("rogue-ca.pem"))
            untrusting.pinPolicy = nil
            try context.reload(configuration: untrusting)
            await #expect {
                try await get()
            } throws: { error in
                guard case TLSError.invalidConfiguration(let reason) = error else { return false }
                return reason.contains("make a new HTTPClient")
            }
        } catch {
            try await client.shutdown()
            throw error
        }
        try await client.shutdown()
    }
}
