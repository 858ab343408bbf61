import Foundation
import SecCrypto
import SecTLS
import TestSupport
import Testing

/// Every field of our `X509Certificate` against what the `openssl` CLI prints for the same file.
@Suite struct CertificateInteropTests {
    let fixture = TestPKI.shared

    func load(_ name: String) throws -> X509Certificate {
        let certificates = try X509Certificate.load(pem: try fixture.pem(name))
        #expect(certificates.count == 1)
        return certificates[0]
    }

    /// `key=value` lines of `openssl x509 -noout …` output.
    func fields(_ name: String, _ options: [String]) throws -> [String: String] {
        var result: [String: String] = [:]
        for line in try fixture.openssl(["x509", "-in", "\(name).pem", "-noout"] + options).split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            result[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return result
    }

    @Test(arguments: TestPKI.names)
    func fingerprintsEqualOpenSSL(name: String) throws {
        let certificate = try load(name)
        let sha256 = try fixture.openssl(["x509", "-in", "\(name).pem", "-noout", "-fingerprint", "-sha256"])
        let sha1 = try fixture.openssl(["x509", "-in", "\(name).pem", "-noout", "-fingerprint", "-sha1"])
        #expect(certificate.fingerprint(.sha256).description + "\n" == sha256)
        #expect(certificate.fingerprint(.sha1).description + "\n" == sha1)
        // The fingerprint is the digest of the DER file.
        let derDigest = try fixture.shell("openssl dgst -sha256 -r \(name).der | cut -d' ' -f1").stdoutText
        #expect(certificate.fingerprint(.sha256).hexString + "\n" == derDigest)
        // And it parses back from what openssl printed.
        #expect(try CertificateFingerprint(parsing: sha256) == certificate.fingerprint(.sha256))
        #expect(try CertificateFingerprint(parsing: sha1) == certificate.fingerprint(.sha1))
    }

    @Test(arguments: TestPKI.names)
    func publicKeyPinEqualsOpenSSLPipeline(name: String) throws {
        let certificate = try load(name)
        let expected = try fixture.shell(
            "openssl x509 -in \(name).pem -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64"
        ).stdoutText
        #expect(certificate.publicKeyPin.base64 + "\n" == expected)
        #expect(certificate.publicKeyPin.description == "sha256/" + expected.dropLast())
        #expect(certificate.publicKeyPin.curlForm == "sha256//" + expected.dropLast())
        // spkiDER is the DER public key openssl writes.
        let spki = try fixture.shell("openssl x509 -in \(name).pem -pubkey -noout | openssl pkey -pubin -outform der")
            .stdout
        #expect(certificate.spkiDER == spki)
    }

    @Test(arguments: TestPKI.names)
    func namesSerialAndDatesEqualOpenSSL(name: String) throws {
        let certificate = try load(name)
        let printed = try fields(
            name,
            ["-subject", "-issuer", "-serial", "-startdate", "-enddate", "-nameopt", "RFC2253,-esc_msb,utf8"]
        )
        #expect(certificate.subject == printed["subject"])
        #expect(certificate.issuer == printed["issuer"])
        #expect(certificate.serialNumber == printed["serial"])
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "GMT")
        format.dateFormat = "MMM d HH:mm:ss yyyy 'GMT'"
        let collapse = { (text: String?) in text.map { $0.split(separator: " ").joined(separator: " ") } ?? "" }
        #expect(certificate.notBefore == format.date(from: collapse(printed["notBefore"])))
        #expect(certificate.notAfter == format.date(from: collapse(printed["notAfter"])))
        #expect(certificate.notBefore < Date() + 60 && certificate.notAfter > Date())
    }

    @Test func knownNamesAndSerials() throws {
        #expect(try load("ca").subject == "CN=SecKit Test CA,O=SecKit Test,C=DE")
        #expect(try load("ca").isSelfIssued)
        #expect(try load("leaf-rsa").subject == #"CN=localhost,O=SecKit Test\, Inc.,C=DE"#)
        #expect(try load("leaf-rsa").issuer == "CN=SecKit Test Intermediate,O=SecKit Test,C=DE")
        #expect(try load("leaf-rsa").serialNumber == "A1B2C3")
        #expect(try load("leaf-ec").serialNumber == "07")
        #expect(try load("intermediate").serialNumber == "1001")
        #expect(try load("ed25519").subject == "CN=ed25519.test,O=Ünïcode Org")
    }

    @Test(arguments: TestPKI.names)
    func subjectAlternativeNamesEqualOpenSSL(name: String) throws {
        let certificate = try load(name)
        let text = try fixture.openssl(["x509", "-in", "\(name).pem", "-noout", "-ext", "subjectAltName"])
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let printed = lines.count >= 2 ? lines[1].components(separatedBy: ", ") : []
        // openssl 3.0 writes IPv6 addresses uncompressed (0:0:0:0:0:0:0:1); we write RFC 5952 (::1).
        let ours = certificate.subjectAlternativeNames.map {
            $0 == .ipAddress("::1") ? "IP Address:0:0:0:0:0:0:0:1" : $0.description
        }
        #expect(ours == printed)
        if name.hasPrefix("leaf") {
            #expect(
                certificate.subjectAlternativeNames == [.dns("localhost"), .ipAddress("127.0.0.1"), .ipAddress("::1")]
            )
        } else {
            #expect(certificate.subjectAlternativeNames.isEmpty)
        }
    }

    @Test func keyTypesAndSizes() throws {
        for name in ["ca", "intermediate", "leaf-rsa"] {
            #expect(try load(name).publicKeyType == .rsa)
            #expect(try load(name).publicKeyBits == 2048)
        }
        #expect(try load("leaf-ec").publicKeyType == .ec(curve: "prime256v1"))
        #expect(try load("leaf-ec").publicKeyBits == 256)
        #expect(try load("ed25519").publicKeyType == .ed25519)
        #expect(try load("ed25519").publicKeyBits == 256)
        // The same as openssl's own report.
        let text = try fixture.openssl(["x509", "-in", "leaf-ec.pem", "-noout", "-text"])
        #expect(text.contains("Public-Key: (256 bit)") && text.contains("NIST CURVE: P-256"))
    }

    @Test func derRoundTrip() throws {
        for name in TestPKI.names {
            let der = try fixture.der(name)
            let fromDER = try X509Certificate(der: der)
            let fromPEM = try load(name)
            #expect(fromDER == fromPEM)
            #expect(fromDER.derRepresentation == [UInt8](der))
            #expect(try X509Certificate(der: fromDER.derRepresentation).derRepresentation == [UInt8](der))
            #expect(try X509Certificate.load(pem: fromDER.pemRepresentation) == [fromPEM])
            // Our PEM is what openssl writes.
            #expect(
                fromDER.pemRepresentation == (try fixture.openssl(["x509", "-in", "\(name).der", "-inform", "DER"]))
            )
        }
    }

    @Test func multiCertificatePEMLoadsAllInOrder() throws {
        let names = TestPKI.serverChain
        // With explanatory text before each block, as CA bundles carry, and a private key skipped.
        var bundle = ""
        for name in names { bundle += "# \(name)\n" + (try fixture.pem(name)) + "\n" }
        bundle += try String(contentsOfFile: fixture.path("leaf-rsa.key"), encoding: .utf8)
        let chain = try X509Certificate.load(pem: bundle)
        #expect(chain.map(\.derRepresentation) == (try names.map { [UInt8](try fixture.der($0)) }))
        #expect(chain[0].issuer == chain[1].subject && chain[1].issuer == chain[2].subject)
        // CRLF line ends too.
        let crlf = bundle.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(try X509Certificate.load(pem: crlf) == chain)
    }
}
