import SecCrypto
import SecTLS

// PEM blocks and X.509 certificates in DER, and what SecTLS reads out of them (names, SANs, keys,
// fingerprints, pins).
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let certificates: [X509Certificate]
    switch input.choose(among: 2) {
    case 0: certificates = (try? X509Certificate.load(pem: input.bytes)) ?? []
    default: certificates = (try? X509Certificate(der: input.bytes)).map { [$0] } ?? []
    }
    for certificate in certificates {
        _ = certificate.description
        _ = certificate.subjectAlternativeNames.map(\.description)
        _ = certificate.fingerprint(.sha1).description
        let pin = certificate.publicKeyPin
        require(pin.matches(certificate), "a certificate matches its own pin")
        let again = try? X509Certificate(der: certificate.derRepresentation)
        require(again == certificate, "a parsed certificate's DER parses to the same certificate")
    }
    return 0
}
