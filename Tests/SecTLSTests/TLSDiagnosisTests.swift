import Foundation
import SecTLS
import TestSupport
import Testing

/// `TLSDiagnosis` as a service calls it, against `openssl s_server`: the findings' codes and
/// problems, the chain as sent and as verified, the CA names of a certificate request, and the
/// alternatives asked for only when the server asks for a certificate.
@Suite("SecTLS: TLSDiagnosis")
struct TLSDiagnosisTests {
    let fixture = TestPKI.shared

    func configuration(identity: ClientIdentity? = nil) -> TLSClientConfiguration {
        TLSClientConfiguration(
            trustRoots: .caFile(fixture.path("ca.pem")),
            clientIdentity: identity,
            timeouts: .all(.seconds(10 * ProcessRunner.timeoutScale))
        )
    }

    @Test("a missing intermediate: chain.incomplete blocks verification; the sent chain is the leaf, nothing verified")
    func missingIntermediate() throws {
        let server = try fixture.server(chain: nil)
        defer { server.stop() }
        var asked = false
        let diagnosis = try TLSDiagnosis.diagnose(
            host: "localhost",
            port: server.port,
            configuration: configuration(),
            alternatives: {
                asked = true
                return []
            }
        )
        let first = try #require(diagnosis.firstBlockingFinding)
        #expect(first.code == "chain.incomplete" && first.problem == .verification, "\(first)")
        #expect(diagnosis.sentChain == [try fixture.certificate("leaf-rsa")])
        #expect(diagnosis.verifiedChain.isEmpty)
        #expect(diagnosis.requestedCANames == nil)
        #expect(!asked, "no certificate was asked for, so no store is read")
        #expect(diagnosis.findings.contains { $0.code == "connection.failed" && $0.problem == .verification })
        #expect(diagnosis.findings.allSatisfy { ($0.severity == .blocking) == ($0.problem != nil) })
    }

    @Test(
        "mutual TLS with the right identity: no blocking finding, the CA names under both versions, alternatives listed"
    )
    func mutualTLS() throws {
        let server = try fixture.server(["-Verify", "1", "-verify_return_error", "-CAfile", "ca-chain.pem"])
        defer { server.stop() }
        let identity = try ClientIdentity(
            certificateFile: fixture.path("client-chain.pem"),
            keyFile: fixture.path("client.key")
        )
        let client = try fixture.certificate("client")
        let diagnosis = try TLSDiagnosis.diagnose(
            host: "localhost",
            port: server.port,
            configuration: configuration(identity: identity),
            alternatives: {
                [
                    .init(name: "kept", subject: client.subject, issuer: client.issuer, notAfter: client.notAfter),
                    .init(name: "other", subject: "CN=x", issuer: "CN=Rogue Test CA", notAfter: client.notAfter),
                ]
            }
        )
        #expect(diagnosis.firstBlockingFinding == nil, "\(diagnosis.findings)")
        let intermediate = try fixture.certificate("intermediate")
        let ca = try fixture.certificate("ca")
        #expect(diagnosis.requestedCANames?["TLSv1.3"] == [intermediate.subject, ca.subject])
        #expect(diagnosis.requestedCANames?["TLSv1.2"] == [intermediate.subject, ca.subject])
        #expect(diagnosis.verifiedChain == [try fixture.certificate("leaf-rsa"), intermediate, ca])
        let stored = diagnosis.findings.filter { $0.code == "identity.stored-match" }
        #expect(stored.count == 1 && stored.first?.message.hasPrefix("kept (") == true, "\(stored)")
        #expect(diagnosis.findings.last?.code == "connection.ok")
        #expect(diagnosis.findings.last?.message.contains("mutual TLS") == true)
    }

    @Test("a store that cannot be read is a finding, not an error")
    func unreadableAlternatives() throws {
        let server = try fixture.server(["-Verify", "1", "-verify_return_error", "-CAfile", "ca-chain.pem"])
        defer { server.stop() }
        struct NoStore: Error {}
        let diagnosis = try TLSDiagnosis.diagnose(
            host: "localhost",
            port: server.port,
            configuration: configuration(),
            alternatives: { throw NoStore() }
        )
        #expect(diagnosis.findings.contains { $0.code == "identity.stored-unavailable" })
        #expect(diagnosis.firstBlockingFinding?.code == "client-auth.required")
        #expect(diagnosis.firstBlockingFinding?.problem == .clientCertificate)
    }
}
