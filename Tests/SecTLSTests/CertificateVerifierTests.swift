import Foundation
import SecTLS
import TestSupport
import Testing

/// The verifiers of presented chains (what a swift-nio-ssl verification callback runs) against
/// `openssl verify` on the same files: the same verdict and OpenSSL error code for every case.
@Suite struct CertificateVerifierTests {
    let fixture = TestPKI.shared

    func chain(_ names: [String]) throws -> [X509Certificate] { try names.map(fixture.certificate) }

    /// `openssl verify`'s verdict: nil when the chain verified, else its `error N` code.
    func opensslVerdict(_ names: [String], purpose: String, host: String?, ca: String = "ca.pem") throws -> Int? {
        var arguments = ["verify", "-CAfile", ca, "-purpose", purpose]
        // A file of its own per call: cases with the same leaf run side by side in one folder, and a
        // shared name let one case's `>` empty the file while another's openssl read it.
        let untrusted = "untrusted-\(UUID().uuidString).pem"
        defer { try? FileManager.default.removeItem(atPath: fixture.path(untrusted)) }
        if names.count > 1 {
            _ = try fixture.shell("cat \(names.dropFirst().map { "\($0).pem" }.joined(separator: " ")) > \(untrusted)")
            arguments += ["-untrusted", untrusted]
        }
        if let host { arguments += host.first!.isNumber ? ["-verify_ip", host] : ["-verify_hostname", host] }
        let result = try ProcessRunner.run(
            "openssl",
            arguments + ["\(names[0]).pem"],
            currentDirectory: fixture.path(".")
        )
        if result.status == 0 { return nil }
        // "error 10 at 0 depth lookup: certificate has expired"
        let text = result.stdoutText + result.stderr
        guard let range = text.range(of: #"error (\d+) at"#, options: .regularExpression) else {
            Issue.record("unexpected openssl verify output: \(text)")
            return -1
        }
        return Int(text[range].split(separator: " ")[1])
    }

    static let serverCases: [([String], String, CertificateVerificationFailure.Reason?)] = [
        (["leaf-rsa", "intermediate"], "127.0.0.1", nil),
        (["leaf-ec", "intermediate"], "localhost", nil),
        (["leaf-rsa", "intermediate"], "wrong.example", .hostnameMismatch),
        (["leaf-rsa", "intermediate"], "10.0.0.1", .hostnameMismatch),
        (["leaf-rsa"], "localhost", .unknownIssuer),
        (["expired", "intermediate"], "localhost", .expired),
        (["rogue-server"], "localhost", .unknownIssuer),
        (["selfsigned"], "localhost", .selfSigned),
        // A client-only certificate (extendedKeyUsage clientAuth) is no server certificate.
        (["client", "intermediate"], "localhost", .other),
    ]

    @Test(arguments: serverCases)
    func serverChainsAsOpenSSLVerifies(
        names: [String],
        host: String,
        expected: CertificateVerificationFailure.Reason?
    )
        throws
    {
        let verifier = try ServerCertificateVerifier(trustRoots: .caFile(fixture.path("ca.pem")))
        let reference = try opensslVerdict(names, purpose: "sslserver", host: host)
        do {
            let verified = try verifier.verify(try chain(names), serverName: host)
            #expect(expected == nil && reference == nil)
            #expect(verified.chain == (try chain(Array(names.prefix(1)) + ["intermediate", "ca"])))
            #expect(verified.pinEvaluation.outcome == .notPinned)
        } catch TLSError.certificateVerificationFailed(let failure) {
            #expect(failure.reason == expected)
            #expect(failure.code == reference)
            #expect(failure.peerChain == (try chain(names)))
        }
    }

    @Test func pinsAreCheckedOnTheVerifiedChain() throws {
        let presented = try chain(["leaf-rsa", "intermediate"])
        let caPinned = try ServerCertificateVerifier(
            trustRoots: .caFile(fixture.path("ca.pem")),
            pinPolicy: try PinPolicy(host: "localhost", pins: [try fixture.pin("ca")])
        )
        let verified = try caPinned.verify(presented, serverName: "LOCALHOST.")
        #expect(verified.pinEvaluation.outcome == .matched(pin: try fixture.pin("ca"), depth: 2))

        let wrong = try ServerCertificateVerifier(
            trustRoots: .caFile(fixture.path("ca.pem")),
            pinPolicy: try PinPolicy(host: "localhost", pins: [try fixture.pin("other")])
        )
        let other = try fixture.pin("other")
        #expect {
            try wrong.verify(presented, serverName: "localhost")
        } throws: { error in
            guard case TLSError.pinMismatch(let evaluation) = error else { return false }
            return evaluation.chainPins.count == 3 && evaluation.expectedPins == [other]
        }
        // An unrelated certificate appended to the chain is not in the verified chain: pinning it fails.
        let appended = try ServerCertificateVerifier(
            trustRoots: .caFile(fixture.path("ca.pem")),
            pinPolicy: try PinPolicy(host: "localhost", pins: [try fixture.pin("other")])
        )
        #expect {
            try appended.verify(try chain(["leaf-rsa", "intermediate", "other"]), serverName: "localhost")
        } throws: { isPinMismatch($0) }
    }

    @Test func pinOnlyTrustNeedsALinkToAPinnedCertificate() throws {
        let verifier = try ServerCertificateVerifier(
            trustRoots: .pinsOnly,
            pinPolicy: try PinPolicy(host: "127.0.0.1", pins: [try fixture.pin("intermediate")])
        )
        let verified = try verifier.verify(try chain(["leaf-rsa", "intermediate"]), serverName: "127.0.0.1")
        #expect(verified.chain == (try chain(["leaf-rsa", "intermediate"])))
        // The pinned certificate sent alongside a certificate it did not sign proves nothing.
        #expect {
            try verifier.verify(try chain(["rogue-server", "intermediate"]), serverName: "127.0.0.1")
        } throws: { error in
            guard case TLSError.pinMismatch(let evaluation) = error else { return false }
            return evaluation.outcome == .mismatched
        }
        #expect(throws: TLSError.invalidConfiguration("pin-only trust needs an enforced pin set for localhost")) {
            try verifier.verify(try chain(["leaf-rsa", "intermediate"]), serverName: "localhost")
        }
        #expect(throws: TLSError.invalidConfiguration("pin-only trust needs an enforced pin set")) {
            try ServerCertificateVerifier(trustRoots: .pinsOnly)
        }
    }

    static let clientCases: [([String], CertificateVerificationFailure.Reason?)] = [
        (["client", "intermediate"], nil),
        (["client-ec", "intermediate"], nil),
        (["client"], .unknownIssuer),
        (["rogue-client"], .unknownIssuer),
        // A server-only certificate (extendedKeyUsage serverAuth) is no client certificate.
        (["leaf-rsa", "intermediate"], .other),
    ]

    @Test(arguments: clientCases)
    func clientChainsAsOpenSSLVerifies(names: [String], expected: CertificateVerificationFailure.Reason?) throws {
        let verifier = try ClientCertificateVerifier(clientCA: .caFile(fixture.path("ca.pem")))
        let reference = try opensslVerdict(names, purpose: "sslclient", host: nil)
        do {
            let client = try verifier.verify(try chain(names))
            #expect(expected == nil && reference == nil)
            #expect(client.certificate == (try fixture.certificate(names[0])))
            #expect(client.chain.count == 3)
            #expect(client.publicKeyPin == (try fixture.certificate(names[0])).publicKeyPin)
        } catch TLSError.certificateVerificationFailed(let failure) {
            #expect(failure.reason == expected)
            #expect(failure.code == reference)
        }
    }

    @Test func clientAllowListByKey() throws {
        let allowed = try fixture.pin("client-ec")
        let verifier = try ClientCertificateVerifier(clientCA: .caFile(fixture.path("ca.pem")), allowedPins: [allowed])
        let client = try verifier.verify(try chain(["client-ec", "intermediate"]))
        #expect(client.subject == "CN=SecKit Test EC Client")
        #expect(throws: TLSError.clientNotAllowed(try fixture.certificate("client").publicKeyPin)) {
            try verifier.verify(try chain(["client", "intermediate"]))
        }
        #expect(throws: TLSError.self) { try ClientCertificateVerifier(clientCA: .system) }
        #expect(throws: TLSError.self) {
            try ClientCertificateVerifier(clientCA: .caFile(fixture.path("ca.pem")), allowedPins: [])
        }
    }

    @Test func aVerifierNeverAnswersFromItsCacheWhereOpenSSLWouldRefuse() throws {
        let verifier = try ServerCertificateVerifier(trustRoots: .caFile(fixture.path("ca.pem")))
        let presented = try chain(["leaf-rsa", "intermediate"])
        let first = try verifier.verify(presented, serverName: "localhost")
        #expect(try verifier.verify(presented, serverName: "localhost").chain == first.chain)
        // Another host, or a time after the leaf's notAfter, is verified again — and refused.
        #expect {
            try verifier.verify(presented, serverName: "wrong.example")
        } throws: { error in
            guard case TLSError.certificateVerificationFailed(let failure) = error else { return false }
            return failure.reason == .hostnameMismatch
        }
        let later = try fixture.certificate("leaf-rsa").notAfter.addingTimeInterval(60)
        #expect {
            try verifier.verify(presented, serverName: "localhost", at: later)
        } throws: { error in
            guard case TLSError.certificateVerificationFailed(let failure) = error else { return false }
            return failure.reason == .expired
        }

        let clients = try ClientCertificateVerifier(clientCA: .caFile(fixture.path("ca.pem")))
        let client = try chain(["client", "intermediate"])
        _ = try clients.verify(client)
        let clientLater = try fixture.certificate("client").notAfter.addingTimeInterval(60)
        #expect { try clients.verify(client, at: clientLater) } throws: { isVerificationFailure($0, .expired) }
        let earlier = try fixture.certificate("client").notBefore.addingTimeInterval(-60)
        #expect { try clients.verify(client, at: earlier) } throws: { isVerificationFailure($0, .notYetValid) }
    }
}
