import Foundation
import SecTLS
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The TLS client against real `openssl s_server` processes on 127.0.0.1: certificate verification,
/// pins on the verified chain, pin-only trust, the allow-list and timeouts.
@Suite struct TLSClientTests {
    let fixture = TestPKI.shared

    /// `GET /` over the connection: s_server -www answers with a status page. Closes the connection
    /// (s_server serves one connection at a time).
    func fetchStatusPage(_ connection: TLSConnection) throws -> String {
        defer { connection.close() }
        try connection.write(Array("GET / HTTP/1.0\r\n\r\n".utf8))
        return String(decoding: try connection.readToEnd(), as: UTF8.self)
    }

    func connect(
        _ server: TLSTestServer,
        _ configuration: TLSClientConfiguration,
        host: String = "127.0.0.1"
    ) throws -> TLSConnection {
        try TLSClient(configuration: configuration).connect(host: host, port: server.port)
    }

    @Test(arguments: [("-tls1_2", TLSVersion.tls12), ("-tls1_3", TLSVersion.tls13)])
    func verifiesTheChainAndCarriesData(option: String, version: TLSVersion) throws {
        let server = try fixture.server([option])
        defer { server.stop() }
        let connection = try connect(server, try fixture.clientConfiguration())
        defer { connection.close() }
        #expect(connection.protocolVersion == version)
        #expect(!connection.cipher.isEmpty && connection.remoteAddress == "127.0.0.1")
        #expect(connection.peerChain == (try ["leaf-rsa", "intermediate"].map(fixture.certificate)))
        #expect(connection.verifiedChain == (try TestPKI.serverChain.map(fixture.certificate)))
        #expect(connection.pinEvaluation.outcome == .notPinned)
        let page = try fetchStatusPage(connection)
        #expect(page.hasPrefix("HTTP/1.0 200 ok"))
        #expect(page.contains(connection.cipher))
    }

    @Test func connectsByNameWithSNIAndHostnameVerification() throws {
        // The right certificate only for SNI "localhost" (the intermediate is in the CA file).
        let server = try fixture.server(
            cert: "selfsigned",
            chain: nil,
            ["-servername", "localhost", "-cert2", "leaf-rsa.pem", "-key2", "leaf-rsa.key"]
        )
        defer { server.stop() }
        // localhost may resolve to ::1 first, where nothing listens: the client goes on to 127.0.0.1.
        let connection = try connect(
            server,
            try fixture.clientConfiguration(trust: .caFile(fixture.path("ca-chain.pem"))),
            host: "localhost"
        )
        defer { connection.close() }
        #expect(connection.serverName == "localhost" && connection.remoteAddress == "127.0.0.1")
        #expect(try fetchStatusPage(connection).hasPrefix("HTTP/1.0 200 ok"))
    }

    @Test(
        .enabled(if: TLSTestServer.ipv6LoopbackAvailable, "IPv6 is off here: no socket can be bound to ::1"),
        arguments: ["-tls1_2", "-tls1_3"]
    )
    func connectsOverIPv6(option: String) throws {
        let server = try fixture.server([option], address: "::1")
        defer { server.stop() }
        // An address is verified against the certificate's IP SANs (leaf-rsa has IP:::1), and pinned.
        let leaf = try fixture.pin("leaf-rsa")
        var configuration = try fixture.clientConfiguration()
        configuration.pinPolicy = try PinPolicy(host: "::1", pins: [leaf])
        let connection = try connect(server, configuration, host: "::1")
        #expect(connection.remoteAddress == "::1" && connection.serverName == "::1")
        #expect(connection.verifiedChain == (try TestPKI.serverChain.map(fixture.certificate)))
        #expect(connection.pinEvaluation.outcome == .matched(pin: leaf, depth: 0))
        #expect(try fetchStatusPage(connection).hasPrefix("HTTP/1.0 200 ok"))
        // A certificate without IP:::1 does not verify for ::1.
        let selfSigned = try fixture.server(cert: "selfsigned", chain: nil, [option], address: "::1")
        defer { selfSigned.stop() }
        #expect {
            try connect(
                selfSigned,
                try fixture.clientConfiguration(trust: .caFile(fixture.path("selfsigned.pem"))),
                host: "::1"
            )
        } throws: { error in
            guard case TLSError.certificateVerificationFailed(let failure) = error else { return false }
            return failure.reason == .hostnameMismatch
        }
    }

    /// The pin set is looked up by the host asked for, canonicalised: another spelling of the same
    /// address finds the same pin set, and a host no set covers is refused.
    @Test(
        .enabled(if: TLSTestServer.ipv6LoopbackAvailable, "IPv6 is off here: no socket can be bound to ::1"),
        arguments: ["0::1", "0:0:0:0:0:0:0:1", "0:0::1"]
    )
    func anAddressWrittenAnotherWayKeepsItsPins(host: String) throws {
        let server = try fixture.server(address: "::1")
        defer { server.stop() }
        var configuration = try fixture.clientConfiguration()
        configuration.pinPolicy = try PinPolicy(host: "::1", pins: [try fixture.pin("other")])
        #expect { try connect(server, configuration, host: host) } throws: { isPinMismatch($0) }
        configuration.pinPolicy = try PinPolicy(host: "::1", pins: [try fixture.pin("leaf-rsa")])
        let connection = try connect(server, configuration, host: host)
        defer { connection.close() }
        #expect(connection.pinEvaluation.outcome == .matched(pin: try fixture.pin("leaf-rsa"), depth: 0))
    }

    @Test func aHostNoPinSetCoversIsRefused() throws {
        let server = try fixture.server()
        defer { server.stop() }
        var configuration = try fixture.clientConfiguration()
        let pinSet = try PinSet(host: "api.example.com", pins: [try fixture.pin("leaf-rsa")])
        configuration.pinPolicy = PinPolicy([pinSet])
        #expect {
            try connect(server, configuration, host: "127.1")
        } throws: { error in
            guard case TLSError.pinMismatch(let evaluation) = error else { return false }
            return evaluation.outcome == .hostNotCovered && evaluation.host == "127.0.0.1"
        }
        configuration.pinPolicy = PinPolicy([pinSet], unpinnedHosts: .allow)
        let connection = try connect(server, configuration, host: "127.1")
        defer { connection.close() }
        #expect(connection.pinEvaluation.outcome == .notPinned)
    }

    @Test func pinsMatchOnEveryDepthOfTheVerifiedChain() throws {
        let server = try fixture.server()
        defer { server.stop() }
        let backup = try fixture.pin("other")
        for (depth, name) in TestPKI.serverChain.enumerated() {
            let pin = try fixture.pin(name)
            let connection = try connect(server, try fixture.clientConfiguration(pins: [backup, pin]))
            #expect(connection.pinEvaluation.outcome == .matched(pin: pin, depth: depth))
            #expect(connection.pinEvaluation.warnings.isEmpty)
            #expect(try fetchStatusPage(connection).hasPrefix("HTTP/1.0 200 ok"))
        }
        // The CA is not sent by the server: its pin matched on the verified chain only.
        let fingerprint = Pin.certificate(try fixture.certificate("ca").fingerprint(.sha256))
        #expect(
            try connect(server, try fixture.clientConfiguration(pins: [fingerprint, backup])).pinEvaluation.outcome
                == .matched(pin: fingerprint, depth: 2)
        )
    }

    @Test func aMismatchIsRefusedWithBothPinLists() throws {
        let server = try fixture.server(["-tls1_3"])
        defer { server.stop() }
        let expected = [try fixture.pin("other"), try fixture.pin("rogue-ca")]
        let chainPins = try TestPKI.serverChain.map { try fixture.certificate($0).publicKeyPin }
        #expect {
            try connect(server, try fixture.clientConfiguration(pins: expected))
        } throws: { error in
            guard case TLSError.pinMismatch(let evaluation) = error else { return false }
            return evaluation.outcome == .mismatched && evaluation.expectedPins == expected
                && evaluation.chainPins == chainPins
        }
    }

    @Test func anAppendedCertificateCannotSatisfyAPin() throws {
        let server = try fixture.server(chain: "appended-chain.pem")
        defer { server.stop() }
        let other = try fixture.certificate("other")
        let pin = Pin.publicKey(other.publicKeyPin)
        // The server does send it...
        let probe = try connect(server, try fixture.clientConfiguration())
        #expect(probe.peerChain.contains(other) && !probe.verifiedChain.contains(other))
        probe.close()
        // ...but pins are checked on the verified chain: CA trust...
        #expect {
            try connect(server, try fixture.clientConfiguration(pins: [pin]))
        } throws: { error in
            guard case TLSError.pinMismatch(let evaluation) = error else { return false }
            return !evaluation.chain.contains(other)
        }
        // ...and pin-only trust, where only certificates linked by signatures from the leaf count.
        for pins in [[pin], [pin, .certificate(other.fingerprint(.sha256))]] {
            #expect {
                try connect(server, try fixture.clientConfiguration(pins: pins, trust: .pinsOnly))
            } throws: { error in
                guard case TLSError.pinMismatch(let evaluation) = error else { return false }
                return evaluation.outcome == .mismatched && !evaluation.chain.contains(other)
            }
        }
        // The leaf's own pin works in pin-only mode on the same server.
        let leafPin = try fixture.pin("leaf-rsa")
        let connection = try connect(server, try fixture.clientConfiguration(pins: [leafPin, pin], trust: .pinsOnly))
        #expect(connection.pinEvaluation.outcome == .matched(pin: leafPin, depth: 0))
        #expect(
            connection.verifiedChain.first == (try fixture.certificate("leaf-rsa"))
                && !connection.verifiedChain.contains(other)
        )
    }

    @Test func pinOnlyTrustsASelfSignedServerOnlyWithItsPin() throws {
        let server = try fixture.server(cert: "selfsigned", chain: nil, ["-tls1_3"])
        defer { server.stop() }
        let pin = try fixture.pin("selfsigned")
        // Without the pin it is a self-signed certificate like any other.
        #expect(throws: TLSError.self) { try connect(server, try fixture.clientConfiguration()) }
        #expect(throws: TLSError.invalidConfiguration("pin-only trust needs an enforced pin set")) {
            try TLSClient(configuration: TLSClientConfiguration(trustRoots: .pinsOnly))
        }
        let connection = try connect(
            server,
            try fixture.clientConfiguration(pins: [pin, try fixture.pin("other")], trust: .pinsOnly)
        )
        #expect(connection.pinEvaluation.outcome == .matched(pin: pin, depth: 0))
        #expect(try fetchStatusPage(connection).hasPrefix("HTTP/1.0 200 ok"))
        #expect {
            try connect(server, try fixture.clientConfiguration(pins: [try fixture.pin("other")], trust: .pinsOnly))
        } throws: { error in
            guard case TLSError.pinMismatch(let evaluation) = error else { return false }
            return evaluation.chainPins == [pin.publicKeyPinValue]
        }
        // Pins for another host give no trust for this one.
        var elsewhere = try fixture.clientConfiguration(trust: .pinsOnly)
        elsewhere.pinPolicy = try PinPolicy(host: "example.com", pins: [pin])
        #expect(throws: TLSError.invalidConfiguration("pin-only trust needs an enforced pin set for 127.0.0.1")) {
            try connect(server, elsewhere)
        }
    }

    @Test(.tags(.slow), arguments: TestPKI.refusedServers)
    func verificationFailuresCarryTheReason(refused: TestPKI.RefusedServer) throws {
        let (server, configuration) = try fixture.start(refused)
        defer { server.stop() }
        #expect {
            try connect(server, configuration)
        } throws: { error in
            guard case TLSError.certificateVerificationFailed(let failure) = error else { return false }
            return failure.reason == refused.reason && !failure.peerChain.isEmpty && !failure.message.isEmpty
        }
    }

    @Test func pinOnlyTrustRefusesAnExpiredPinnedCertificate() throws {
        let expired = try fixture.server(cert: "expired")
        defer { expired.stop() }
        // A pinned but expired certificate fails in pin-only mode too.
        let pinned = try fixture.clientConfiguration(pins: [try fixture.pin("expired")], trust: .pinsOnly)
        #expect {
            try connect(expired, pinned)
        } throws: { error in
            guard case TLSError.certificateVerificationFailed(let failure) = error else { return false }
            return failure.reason == .expired && failure.depth == 0
        }
    }

    @Test func reportOnlyExpiredAndBackupRulesOnALiveConnection() throws {
        let server = try fixture.server()
        defer { server.stop() }
        let wrong = try fixture.pin("other")
        var configuration = try fixture.clientConfiguration()
        configuration.pinPolicy = PinPolicy([try PinSet(host: "127.0.0.1", pins: [wrong], mode: .reportOnly)])
        #expect(try connect(server, configuration).pinEvaluation.warnings == [.reportOnlyMismatch])
        let expiry = Date(timeIntervalSinceNow: -60)
        configuration.pinPolicy = PinPolicy([try PinSet(host: "127.0.0.1", pins: [wrong], expires: expiry)])
        #expect(try connect(server, configuration).pinEvaluation.warnings == [.pinSetExpired(expiry)])
        let leaf = try fixture.pin("leaf-rsa")
        configuration.pinPolicy = try PinPolicy(host: "127.0.0.1", pins: [leaf])
        #expect(try connect(server, configuration).pinEvaluation.warnings == [.noBackupPin])
        configuration.pinPolicy = try PinPolicy(host: "127.0.0.1", pins: [leaf], backupPinRule: .strict)
        #expect(throws: TLSError.noBackupPin(host: "127.0.0.1")) { try connect(server, configuration) }
        configuration.pinPolicy = try PinPolicy(host: "127.0.0.1", pins: [leaf, wrong], backupPinRule: .strict)
        #expect(try connect(server, configuration).pinEvaluation.outcome == .matched(pin: leaf, depth: 0))
        // A pin set for other hosts leaves this one unpinned when the policy says so.
        configuration.pinPolicy = PinPolicy([try PinSet(host: "**.example.com", pins: [wrong])], unpinnedHosts: .allow)
        #expect(try connect(server, configuration).pinEvaluation.outcome == .notPinned)
    }

    @Test func theAllowListRefusesBeforeConnecting() throws {
        let listener = try SilentListener()
        var configuration = try fixture.clientConfiguration()
        configuration.allowedEndpoints = EndpointAllowList([
            try .init(host: "127.0.0.1", port: listener.port + 1, scheme: "tls")
        ])
        #expect(throws: TLSError.endpointNotAllowed(host: "127.0.0.1", port: listener.port, scheme: "tls")) {
            try TLSClient(configuration: configuration).connect(host: "127.0.0.1", port: listener.port)
        }
        #expect(!listener.hasPendingConnection())
        // Not even resolved.
        #expect(throws: TLSError.endpointNotAllowed(host: "no-such-host.invalid", port: 443, scheme: "https")) {
            try TLSClient(configuration: configuration).connect(
                host: "no-such-host.invalid",
                port: 443,
                scheme: "HTTPS"
            )
        }
        // The same endpoint with the right scheme is allowed (and then times out: nobody answers).
        configuration.allowedEndpoints = EndpointAllowList([
            try .init(host: "127.0.0.1", port: listener.port, scheme: "tls")
        ])
        configuration.timeouts.handshake = .milliseconds(200)
        #expect(throws: TLSError.timedOut(.handshake)) {
            try TLSClient(configuration: configuration).connect(host: "127.0.0.1", port: listener.port)
        }
        #expect(listener.hasPendingConnection())
    }

    /// C calls stop at a NUL the Swift string keeps: such a host or server name could be one name to
    /// the resolver or the certificate check and another to the pin lookup, so it is refused first.
    @Test(arguments: [
        "127.0.0.1\u{0}.pinned.example", "127.0.0.1\n", "127.0.0.1 ", "127.0.\u{1B}0.1", "127.0.0.1\u{7F}",
    ])
    func controlCharactersInNamesAreRefusedBeforeConnecting(name: String) throws {
        let listener = try SilentListener()
        let position = try #require(name.unicodeScalars.firstIndex { $0.value < 0x21 || $0.value == 0x7F })
        let where_ =
            "character \(name.unicodeScalars.distance(from: name.unicodeScalars.startIndex, to: position) + 1) of \(name.unicodeScalars.count)"
        #expect(
            throws: TLSError.invalidConfiguration("the host has a control character, NUL or white space (\(where_))")
        ) {
            try TLSClient(configuration: try fixture.clientConfiguration()).connect(host: name, port: listener.port)
        }
        var named = try fixture.clientConfiguration()
        named.serverName = name
        #expect(
            throws: TLSError.invalidConfiguration(
                "the server name has a control character, NUL or white space (\(where_))"
            )
        ) {
            try TLSClient(configuration: named).connect(host: "127.0.0.1", port: listener.port)
        }
        #expect(!listener.hasPendingConnection())
    }

    @Test func aServerThatNeverAnswersTimesOut() throws {
        let listener = try SilentListener()
        var configuration = try fixture.clientConfiguration()
        configuration.timeouts.handshake = .milliseconds(300)
        let start = ContinuousClock.now
        #expect(throws: TLSError.timedOut(.handshake)) {
            try TLSClient(configuration: configuration).connect(host: "127.0.0.1", port: listener.port)
        }
        #expect(ContinuousClock.now - start < .seconds(5))
        // A read with nothing to read.
        let server = try fixture.server(["-tls1_3"])
        defer { server.stop() }
        configuration.timeouts.read = .milliseconds(300)
        let connection = try connect(server, configuration)
        #expect(throws: TLSError.timedOut(.read)) { try connection.read() }
    }

    @Test func connectionFailuresAreTyped() throws {
        let port = try TLSTestServer.freePort()  // nothing listens there
        #expect {
            try TLSClient(configuration: try fixture.clientConfiguration()).connect(host: "127.0.0.1", port: port)
        } throws: { error in
            guard case TLSError.connectionFailed(let reason) = error else { return false }
            return reason.contains("refused")
        }
        #expect {
            try TLSClient(configuration: try fixture.clientConfiguration()).connect(
                host: "no-such-host.invalid",
                port: 443
            )
        } throws: { error in
            if case TLSError.hostNotFound(host: "no-such-host.invalid", _) = error { return true }
            return false
        }
        #expect(throws: TLSError.invalidConfiguration("cannot read the CA file /nonexistent/ca.pem")) {
            try TLSClient(configuration: TLSClientConfiguration(trustRoots: .caFile("/nonexistent/ca.pem")))
        }
    }
}

extension Pin {
    /// The public-key pin inside, for comparisons with `PinEvaluation.chainPins`.
    var publicKeyPinValue: PublicKeyPin? {
        if case .publicKey(let pin) = self { return pin }
        return nil
    }
}
