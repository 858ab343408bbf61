import Foundation
import SecCrypto
import SecTLS
import TestSupport
import Testing

@Suite struct PinTests {
    let fixture = TestPKI.shared

    @Test(arguments: TestPKI.names)
    func everyPublicKeyPinFormParsesToTheSamePin(name: String) throws {
        let certificate = try X509Certificate(der: try fixture.der(name))
        let pin = certificate.publicKeyPin
        let b64 = pin.base64
        #expect(b64.count == 44)
        let forms = [
            "sha256/\(b64)", "sha256//\(b64)", b64, "pin-sha256=\"\(b64)\"", "PIN-SHA256=\"\(b64)\"",
            "  sha256//\(b64)\n", "SHA256/\(b64)", pin.description, pin.curlForm, pin.rfc7469Form,
        ]
        for form in forms {
            #expect(try PublicKeyPin(parsing: form) == pin, "\(form)")
            #expect(try Pin(parsing: form) == .publicKey(pin), "\(form)")
        }
        #expect(pin.matches(certificate))
        #expect(PublicKeyPin(certificate: certificate) == pin)
    }

    /// Base64 can begin with `/`, so `sha256//…` alone does not tell curl's form from OkHttp's.
    @Test func pinWhoseBase64StartsWithASlash() throws {
        let pin = try PublicKeyPin(sha256: [0xFC] + [UInt8](repeating: 0x11, count: 31))
        #expect(pin.base64.hasPrefix("/"))
        for form in [pin.description, pin.curlForm, pin.base64, pin.rfc7469Form] {
            #expect(try PublicKeyPin(parsing: form) == pin, "\(form)")
        }
        #expect(try PublicKeyPin.parseList(pin.curlForm + ";" + pin.curlForm) == [pin, pin])
    }

    @Test func curlListsParseInOrder() throws {
        let pins = try TestPKI.names.map { try X509Certificate(der: try fixture.der($0)).publicKeyPin }
        let list = pins.map(\.curlForm).joined(separator: ";")
        #expect(try PublicKeyPin.parseList(list) == pins)
        #expect(try PublicKeyPin.parseList(list + ";") == pins)
        #expect(try PublicKeyPin.parseList(pins.map(\.curlForm).joined(separator: " ; ")) == pins)
        #expect(try PublicKeyPin.parseList(pins[0].curlForm) == [pins[0]])
        #expect(throws: TLSError.invalidPin("empty item 2 in the pin list")) {
            try PublicKeyPin.parseList(pins[0].curlForm + ";;" + pins[1].curlForm)
        }
        #expect(throws: TLSError.self) { try PublicKeyPin.parseList(pins[0].curlForm + ";sha256//nope") }
        #expect(throws: TLSError.self) { try PublicKeyPin.parseList("") }
    }

    @Test(arguments: TestPKI.names)
    func everyFingerprintFormParsesToTheSameCertificatePin(name: String) throws {
        let certificate = try X509Certificate(der: try fixture.der(name))
        for algorithm in [HashAlgorithm.sha1, .sha256] {
            let fingerprint = certificate.fingerprint(algorithm)
            let colon = fingerprint.colonHexString
            let bare = colon.replacingOccurrences(of: ":", with: "")
            let forms = [
                fingerprint.description, fingerprint.description.uppercased(), fingerprint.description.lowercased(),
                "\(algorithm.rawValue.uppercased()) Fingerprint=\(colon)",  // OpenSSL 1.x label
                colon, colon.lowercased(), bare, bare.lowercased(), fingerprint.hexString, " \(colon)\n",
            ]
            for form in forms {
                #expect(try CertificateFingerprint(parsing: form) == fingerprint, "\(form)")
                #expect(try Pin(parsing: form) == .certificate(fingerprint), "\(form)")
            }
            #expect(fingerprint.matches(certificate))
            #expect(try Pin(parsing: bare).matches(certificate))
        }
    }

    @Test func pinsOfOtherCertificatesDoNotMatch() throws {
        let leaf = try X509Certificate(der: try fixture.der("leaf-rsa"))
        let ca = try X509Certificate(der: try fixture.der("ca"))
        #expect(!leaf.publicKeyPin.matches(ca))
        #expect(!Pin.certificate(leaf.fingerprint(.sha256)).matches(ca))
        #expect(!Pin.certificate(leaf.fingerprint(.sha1)).matches(ca))
    }

    @Test func garbageIsRefused() throws {
        let b64 = String(repeating: "A", count: 43) + "="
        let garbage = [
            "", "   ", "sha256/", "sha256//", "sha256/abc", "sha256/" + b64.dropLast() + "!",  // bad character
            "sha256/" + String(repeating: "A", count: 44),  // no padding: decodes to 33 bytes
            "sha256/" + String(repeating: "A", count: 42) + "==",  // 31 bytes
            "sha256/" + String(repeating: "A", count: 42) + "B=",  // non-canonical last character
            "sha256/" + String(repeating: "-", count: 43) + "=",  // base64url alphabet
            "sha512/" + b64, "md5/" + b64, "pin-sha256", "pin-sha256=\"" + b64, "pin-sha256:" + b64,
            String(repeating: "ab", count: 19),  // 38 hex digits
            String(repeating: "ab", count: 21),  // 42 hex digits
            String(repeating: "ab", count: 16),  // 32 hex digits: MD5 length
            String(repeating: "ab", count: 24),  // 48 hex digits: SHA-224 is not a certificate pin
            "AB:CD:E", "AB::CD", "zz" + String(repeating: "ab", count: 19), "sha256 Fingerprint=",
            "md5 Fingerprint=" + String(repeating: "AB", count: 16),
            "foo Fingerprint=" + String(repeating: "AB", count: 32),
        ]
        for text in garbage {
            #expect(throws: TLSError.self, "\(text)") { try Pin(parsing: text) }
        }
        #expect(
            throws: TLSError.unsupported(
                "pin: SHA-1 public-key pins are not supported; use sha256/<base64> (or a certificate fingerprint)"
            )
        ) {
            try PublicKeyPin(parsing: "sha1/" + String(repeating: "A", count: 27) + "=")
        }
        // A label that contradicts the length.
        #expect(throws: TLSError.self) {
            try CertificateFingerprint(parsing: "sha1 Fingerprint=" + String(repeating: "AB:", count: 31) + "AB")
        }
    }
}
