import Foundation
import SecCrypto
import SecTLS
import TestSupport
import Testing

@Suite struct CertificateErrorTests {
    let fixture = TestPKI.shared

    @Test func malformedPEMIsRefused() throws {
        let pem = try fixture.pem("leaf-ec")
        let lines = pem.split(separator: "\n").map(String.init)
        // Truncated: no END line.
        #expect(throws: TLSError.malformedPEM("the CERTIFICATE block of line 1 has no END line (truncated?)")) {
            try X509Certificate.load(pem: lines.dropLast().joined(separator: "\n"))
        }
        // Trailing garbage after the last block.
        #expect(throws: TLSError.malformedPEM("line \(lines.count + 1): unexpected text after the last block")) {
            try X509Certificate.load(pem: pem + "garbage\n")
        }
        // Bad base64 inside.
        var broken = lines
        broken[2] = "!!!!" + broken[2].dropFirst(4)
        #expect(throws: TLSError.malformedPEM("CERTIFICATE block of line 1: invalid base64")) {
            try X509Certificate.load(pem: broken.joined(separator: "\n"))
        }
        // Mismatched END label.
        #expect(throws: TLSError.self) {
            try X509Certificate.load(pem: pem.replacingOccurrences(of: "END CERTIFICATE", with: "END PRIVATE KEY"))
        }
        // Valid base64 but not a certificate: a cut-down body.
        let cut = [lines[0], lines[1], lines[2], lines.last!].joined(separator: "\n")
        #expect {
            try X509Certificate.load(pem: cut)
        } throws: { error in
            guard case TLSError.malformedCertificate(let reason) = error else { return false }
            return reason.hasPrefix("PEM block 1: not a DER X.509 certificate")
        }
    }

    @Test func inputWithoutCertificatesIsRefused() throws {
        #expect(throws: TLSError.noCertificates) { try X509Certificate.load(pem: "") }
        #expect(throws: TLSError.noCertificates) { try X509Certificate.load(pem: "just some text\n") }
        let key = try String(contentsOfFile: fixture.path("leaf-ec.key"), encoding: .utf8)
        #expect(throws: TLSError.noCertificates) { try X509Certificate.load(pem: key) }
    }

    @Test func malformedDERIsRefused() throws {
        let der = [UInt8](try fixture.der("leaf-ec"))
        #expect(throws: TLSError.malformedCertificate("empty input")) { try X509Certificate(der: [UInt8]()) }
        #expect(throws: TLSError.malformedCertificate("2 bytes of trailing data after the certificate")) {
            try X509Certificate(der: der + [0, 0])
        }
        #expect {
            try X509Certificate(der: Array(der.dropLast(10)))
        } throws: { error in
            guard case TLSError.malformedCertificate(let reason) = error else { return false }
            return reason.hasPrefix("not a DER X.509 certificate")
        }
        #expect(throws: TLSError.self) { try X509Certificate(der: Array("not a certificate".utf8)) }
    }

    @Test func errorMessagesAreOneLineAndDoNotEchoInput() throws {
        let long = String(repeating: "QUJD", count: 200)
        for text in [long, "sha256/" + long, "pin-sha256=\"\(long)\"", long + ":" + long] {
            do {
                _ = try Pin(parsing: text)
                Issue.record("accepted garbage")
            } catch {
                #expect(!error.description.contains("QUJDQUJD"))
                #expect(!error.description.contains("\n"))
                #expect(error.description.count < 200)
            }
        }
    }
}
