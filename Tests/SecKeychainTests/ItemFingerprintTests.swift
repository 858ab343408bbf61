import SecCrypto
import TestSupport
import Testing

@testable import SecKeychain

/// `seckit-id`'s SHA-256 has two engines: GLib's `GChecksum` once a Secret Service operation has
/// loaded GLib, OpenSSL's otherwise (the file and OpenBao backends, which never load GLib). Items
/// written by either are found by the other only if both give the same digest.
@Suite struct ItemFingerprintTests {
    init() throws { try glibLibrary.load() }

    @Test("GLib's and OpenSSL's SHA-256 give FIPS 180-2's digests and agree on identities' texts")
    func enginesAgree() throws {
        let glib = try glibLibrary.load()
        // The expression `sha256Hex(_:)` uses when GLib is not loaded.
        let byOpenSSL = { (text: String) in SHA256.hash(string: text).hexString }
        // FIPS 180-2, appendix B.1 and the empty message.
        for (text, digest) in [
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ] {
            #expect(ItemAttributes.sha256Hex(text, by: glib) == digest)
            #expect(byOpenSSL(text) == digest)
        }
        // What the fingerprint hashes: parts joined by NUL, any Unicode in them.
        for index in 0..<200 {
            let text = [randomPrintable(index % 40), "\u{0}", "ü→😀", randomPrintable(index)].joined()
            #expect(ItemAttributes.sha256Hex(text, by: glib) == byOpenSSL(text), "\(text.debugDescription)")
            #expect(ItemAttributes.sha256Hex(text) == byOpenSSL(text), "GLib loaded, \(text.debugDescription)")
        }
    }
}
