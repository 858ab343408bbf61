import Foundation
import SecCrypto
import SecTLS
import TestSupport
import Testing

/// Client identities in every form `openssl` writes them, and mutual TLS against `openssl s_server
/// -Verify 1` (TLS 1.2 and 1.3) on 127.0.0.1.
@Suite struct ClientIdentityTests {
    let fixture = TestPKI.shared

    var keyPassphrase: SecureBytes { SecureBytes(Array(TestPKI.keyPassphrase.utf8)) }
    var p12Passphrase: SecureBytes { SecureBytes(Array(TestPKI.p12Passphrase.utf8)) }

    func identities() throws -> [(String, ClientIdentity)] { try fixture.clientIdentities() }

    @Test func everyFormLoadsTheSameCertificate() throws {
        let client = try fixture.certificate("client")
        for (name, identity) in try identities() where !name.hasPrefix("EC") {
            #expect(identity.certificate == client, "\(name)")
        }
        let all = Dictionary(uniqueKeysWithValues: try identities())
        #expect(all["combined PEM"]?.chain == [try fixture.certificate("intermediate")])
        #expect(all["PKCS#12"]?.chain == [try fixture.certificate("intermediate")])
        #expect(all["PEM (PKCS#8 key)"]?.chain == [])
        // An empty-passphrase PKCS#12 also opens without one.
        #expect(
            try ClientIdentity(pkcs12: try fixture.bytes("client-empty.p12"), passphrase: nil).certificate == client
        )
    }

    @Test func passphraseProblemsAreClear() throws {
        let certificate = try fixture.bytes("client.pem")
        let wrong = SecureBytes(Array("not it".utf8))
        for key in ["client-encrypted.key", "client-pkcs1-encrypted.key"] {
            #expect(throws: TLSError.passphraseRequired("the private key")) {
                try ClientIdentity(certificateChainPEM: certificate, privateKeyPEM: try fixture.bytes(key))
            }
            #expect(throws: TLSError.wrongPassphrase("the private key")) {
                try ClientIdentity(
                    certificateChainPEM: certificate,
                    privateKeyPEM: try fixture.bytes(key),
                    passphrase: wrong
                )
            }
        }
        #expect(throws: TLSError.passphraseRequired("the PKCS#12 file")) {
            try ClientIdentity(pkcs12: try fixture.bytes("client.p12"), passphrase: nil)
        }
        #expect(throws: TLSError.wrongPassphrase("the PKCS#12 file")) {
            try ClientIdentity(pkcs12: try fixture.bytes("client.p12"), passphrase: wrong)
        }
        // Empty is a passphrase, and not this file's.
        #expect(throws: TLSError.wrongPassphrase("the PKCS#12 file")) {
            try ClientIdentity(pkcs12: try fixture.bytes("client.p12"), passphrase: SecureBytes([UInt8]()))
        }
        #expect(throws: TLSError.wrongPassphrase("the PKCS#12 file")) {
            try ClientIdentity(pkcs12: try fixture.bytes("client-empty.p12"), passphrase: wrong)
        }
        for error in [TLSError.wrongPassphrase("the PKCS#12 file"), .passphraseRequired("the private key")] {
            #expect(!error.description.contains(TestPKI.p12Passphrase) && !error.description.contains("not it"))
        }
    }

    @Test func aKeyOfAnotherCertificateIsAMismatch() throws {
        #expect(throws: TLSError.keyMismatch) {
            try ClientIdentity(
                certificateChainPEM: try fixture.bytes("client.pem"),
                privateKeyPEM: try fixture.bytes("other.key")
            )
        }
        #expect(throws: TLSError.keyMismatch) {
            try ClientIdentity(certificateFile: fixture.path("client-ec.pem"), keyFile: fixture.path("client.key"))
        }
    }

    @Test func unreadableInputIsRefused() throws {
        #expect(throws: TLSError.invalidClientIdentity("no private key found in the PEM input")) {
            try ClientIdentity(combinedPEM: try fixture.bytes("client.pem"))
        }
        #expect(throws: TLSError.invalidClientIdentity("no certificate found in the PEM input")) {
            try ClientIdentity(combinedPEM: try fixture.bytes("client.key"))
        }
        #expect(throws: TLSError.invalidClientIdentity("not a DER PKCS#12 file")) {
            try ClientIdentity(pkcs12: try fixture.bytes("client.pem"), passphrase: nil)
        }
        #expect(throws: TLSError.invalidClientIdentity("cannot read the certificate file /nonexistent.pem")) {
            try ClientIdentity(certificateFile: "/nonexistent.pem")
        }
    }

    /// Input in several pieces (not one contiguous buffer) is read through a wiped copy and loads
    /// the same identity; a key file over `maximumFileSize` is refused, not read.
    @Test func piecewiseInputAndOversizedFiles() throws {
        let combined = try fixture.bytes("client-combined.pem")
        var pieces = DispatchData.empty
        for start in stride(from: 0, to: combined.count, by: 100) {
            combined[start..<min(start + 100, combined.count)].withUnsafeBytes { pieces.append($0) }
        }
        #expect(pieces.regions.count > 1)
        #expect(
            try ClientIdentity(combinedPEM: pieces).certificate == ClientIdentity(combinedPEM: combined).certificate
        )
        let p12 = try fixture.bytes("client.p12")
        var p12Pieces = DispatchData.empty
        p12.prefix(200).withUnsafeBytes { p12Pieces.append($0) }
        p12.dropFirst(200).withUnsafeBytes { p12Pieces.append($0) }
        #expect(
            try ClientIdentity(pkcs12: p12Pieces, passphrase: p12Passphrase).certificate
                == ClientIdentity(combinedPEM: combined).certificate
        )

        try withScratch { dir in
            let oversized = try dir.write(
                "oversized.key",
                Array(combined + Data(count: ClientIdentity.maximumFileSize + 1 - combined.count))
            )
            #expect(
                throws: TLSError.invalidClientIdentity(
                    "the key file \(oversized) is larger than \(ClientIdentity.maximumFileSize) bytes"
                )
            ) {
                try ClientIdentity(certificateFile: fixture.path("client.pem"), keyFile: oversized)
            }
        }
    }

    // MARK: - Mutual TLS

    /// A server that demands a client certificate issued under the fixture's CA.
    func mutualTLSServer(_ version: String) throws -> TLSTestServer {
        try fixture.server([version, "-Verify", "1", "-verify_return_error", "-CAfile", "ca-chain.pem"])
    }

    func configuration(_ identity: ClientIdentity?) -> TLSClientConfiguration {
        var configuration = TLSClientConfiguration(
            trustRoots: .caFile(fixture.path("ca.pem")),
            clientIdentity: identity
        )
        configuration.timeouts = .all(.seconds(10))
        return configuration
    }

    @Test(arguments: ["-tls1_2", "-tls1_3"])
    func mutualTLSWorksWithEveryIdentityForm(version: String) throws {
        let server = try mutualTLSServer(version)
        defer { server.stop() }
        for (name, identity) in try identities() {
            let connection = try TLSClient(configuration: configuration(identity)).connect(
                host: "127.0.0.1",
                port: server.port
            )
            defer { connection.close() }
            #expect(connection.clientCertificateRequested, "\(name)")
            try connection.write(Array("GET / HTTP/1.0\r\n\r\n".utf8))
            let page = String(decoding: try connection.readToEnd(), as: UTF8.self)
            #expect(page.hasPrefix("HTTP/1.0 200 ok"), "\(name)")
            // s_server's status page shows the client certificate it received.
            #expect(
                page.contains("Client certificate")
                    && page.contains(
                        identity.certificate.subject.contains("EC") ? "SecKit Test EC Client" : "SecKit Test Client"
                    ),
                "\(name)"
            )
        }
    }

    @Test(arguments: ["-tls1_2", "-tls1_3"])
    func aMissingClientCertificateIsReportedAtConnect(version: String) throws {
        let server = try mutualTLSServer(version)
        defer { server.stop() }
        #expect(throws: TLSError.clientCertificateRequired) {
            try TLSClient(configuration: configuration(nil)).connect(host: "127.0.0.1", port: server.port)
        }
    }

    @Test(arguments: ["-tls1_2", "-tls1_3"])
    func aRejectedClientCertificateIsReportedAtConnect(version: String) throws {
        let server = try mutualTLSServer(version)
        defer { server.stop() }
        let rogue = try ClientIdentity(
            certificateFile: fixture.path("rogue-client.pem"),
            keyFile: fixture.path("rogue-client.key")
        )
        #expect {
            try TLSClient(configuration: configuration(rogue)).connect(host: "127.0.0.1", port: server.port)
        } throws: { error in
            guard case TLSError.clientCertificateRejected(let alert) = error else { return false }
            return alert == "unknown CA"
        }
    }

    @Test func aServerThatDoesNotAskGetsNoCertificate() throws {
        let server = try fixture.server(["-tls1_3"])
        defer { server.stop() }
        let connection = try TLSClient(configuration: configuration(try identities()[0].1)).connect(
            host: "127.0.0.1",
            port: server.port
        )
        defer { connection.close() }
        #expect(!connection.clientCertificateRequested)
        try connection.write(Array("GET / HTTP/1.0\r\n\r\n".utf8))
        #expect(!String(decoding: try connection.readToEnd(), as: UTF8.self).contains("Client certificate"))
    }
}
