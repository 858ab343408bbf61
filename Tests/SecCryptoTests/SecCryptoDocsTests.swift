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

    @Test("the Encryption table: ChaChaPoly's key, nonce and tag")
    func chaChaPolyRow() throws {
        let row = try page.row("`ChaChaPoly.seal(_:using:nonce:authenticating:)` / `open`")
        #expect(row[1] == "ChaCha20-Poly1305 (RFC 8439)")
        #expect(
            row[2].contains(
                "32-byte keys, \(ChaChaPoly.Nonce.byteCount)-byte nonces (random by default), \(ChaChaPoly.tagByteCount)-byte tags"
            )
        )
    }

    @Test("the differences from swift-crypto: GCM nonce lengths and PBKDF2 minimums")
    func differencesFromSwiftCrypto() throws {
        let nonces = try page.row("AES-GCM nonces")
        #expect(nonces[2] == "\(CipherContext.gcmIVRange.lowerBound) to \(CipherContext.gcmIVRange.upperBound) bytes")
        func minimum(_ prf: HashAlgorithm) -> String { DocsPage.count(KDF.PBKDF2.minimumIterations(for: prf)) }
        let rounds = try page.row("PBKDF2 `rounds:` minimum")
        #expect(
            rounds[2]
                == "OWASP 2023 per hash: \(minimum(.sha1)) for SHA-1, \(minimum(.sha224)) for SHA-224 and SHA-256,"
                + " \(minimum(.sha384)) for SHA-384 and SHA-512"
        )
        #expect(minimum(.sha256) == minimum(.sha224) && minimum(.sha512) == minimum(.sha384))
    }
}
