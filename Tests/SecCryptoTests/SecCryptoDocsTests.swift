import TestSupport
import Testing

@testable import SecCrypto

/// What docs/SecCrypto.md says of SecCrypto's sizes, limits and defaults, held to the code.
@Suite("docs/SecCrypto.md states SecCrypto's sizes, limits and defaults")
struct SecCryptoDocsTests {
    let page: DocsPage

    init() throws {
        page = try DocsPage("docs/SecCrypto.md")
    }

    @Test("the Encryption table: GCM's nonce and tag, CBC's and 3DES's IV")
    func encryptionTable() throws {
        let gcm = try page.row("`AES.GCM.seal(_:using:nonce:authenticating:)` / `open`")
        #expect(
            gcm[2].contains(
                "random \(AES.GCM.Nonce.defaultByteCount)-byte nonce; \(AES.GCM.tagByteCount)-byte tags only"
            )
        )
        let cbc = try page.row("`AES.CBC.encrypt(_:using:iv:padding:)` / `decrypt`")
        #expect(cbc[1] == "AES-CBC, explicit \(AES.CBC.ivByteCount)-byte IV")
        let tripleDES = try page.row("`Insecure.TripleDES.CBC.encrypt(_:using:iv:keying:)`")
        #expect(tripleDES[1] == "3DES-EDE-CBC, \(Insecure.TripleDES.CBC.ivByteCount)-byte IV")
    }

    @Test("a key's limit of seals with random nonces")
    func randomNonceLimit() throws {
        let limit = AEADKeySchedule.randomNonceLimit
        #expect(limit.nonzeroBitCount == 1, "the page writes the limit as a power of two")
        let bits = AES.GCM.Nonce.defaultByteCount * 8
        #expect(
            try page.passage(containing: "**The limit per key.**")
                .contains(
                    "at most 2^\(limit.trailingZeroBitCount) messages with random \(bits)-bit nonces under one key"
                )
        )
    }

    @Test("PBKDF2's minimum iteration counts")
    func pbkdf2Minimums() throws {
        func minimum(_ prf: HashAlgorithm) -> String { DocsPage.count(KDF.PBKDF2.minimumIterations(for: prf)) }
        let passage = try page.passage(containing: "It refuses counts below `minimumIterations(for:)`")
        #expect(
            passage.contains(
                "OWASP 2023: \(minimum(.sha256)) for SHA-256, \(minimum(.sha512)) for SHA-512, \(minimum(.sha1)) for SHA-1."
            )
        )
    }
}
