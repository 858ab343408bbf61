import Foundation
import SecCrypto
import TestSupport
import Testing

@testable import SecEnvelope

/// What docs/SecEnvelope.md says of SecEnvelope's defaults and limits, held to the code.
@Suite("docs/SecEnvelope.md states SecEnvelope's defaults and limits")
struct SecEnvelopeDocsTests {
    let page: DocsPage

    init() throws {
        page = try DocsPage("docs/SecEnvelope.md")
    }

    @Test("the example's comments: what JWE.encrypt writes by default, with a key and with a password")
    func encryptionDefaults() throws {
        let payload = Data("docs".utf8)
        let keyed = try JWE.Token(compact: JWE.encrypt(payload, using: SymmetricKey(size: .bits256))).header
        let header = "{\"alg\":\"\(keyed.keyManagement.rawValue)\",\"enc\":\"\(keyed.contentEncryption.rawValue)\"}"
        #expect(
            try page.passage(containing: "let token = try JWE.encrypt(payload, using: key)").hasSuffix("// \(header)")
        )
        #expect(try page.passage(containing: "the default for keys").contains("(`\(keyed.keyManagement.rawValue)`)"))

        let sealed = try JWE.Token(compact: JWE.encrypt(payload, password: Array("password".utf8))).header
        let iterations = try #require(sealed.pbes2Iterations)
        #expect(
            try page.passage(containing: "let sealed = try JWE.encrypt(payload, password: password)")
                .hasSuffix("// \(sealed.keyManagement.rawValue), \(DocsPage.count(iterations)) iterations")
        )
    }

    @Test("the alg table's key sizes")
    func keySizes() throws {
        let direct = try page.passage(containing: "the default for keys")
        let a256GCM = JWE.ContentEncryptionAlgorithm.a256GCM.keyByteCount
        let a256CBC = JWE.ContentEncryptionAlgorithm.a256CBCHS512.keyByteCount
        #expect(direct.contains("(\(a256GCM) bytes for A256GCM, \(a256CBC) for A256CBC-HS512)"))
        let wrapped = [JWE.KeyManagementAlgorithm.a128KW, .a192KW, .a256KW].map { "\($0.keyWrapByteCount ?? 0)" }
        #expect(try page.row("`.a128KW`, `.a192KW`, `.a256KW`")[1] == "a \(wrapped.joined(separator: "/"))-byte key")
    }

    @Test("PBES2 iteration counts: the defaults and the accepted range")
    func pbes2Iterations() throws {
        let hs512 = try #require(JWE.KeyManagementAlgorithm.pbes2HS512A256KW.recommendedIterations)
        let hs384 = try #require(JWE.KeyManagementAlgorithm.pbes2HS384A192KW.recommendedIterations)
        let hs256 = try #require(JWE.KeyManagementAlgorithm.pbes2HS256A128KW.recommendedIterations)
        #expect(hs384 == hs512, "the page gives HS384 HS512's count")
        let policy = JWE.DecryptionPolicy.default
        let passage = try page.passage(containing: "**Iterations.** The default PBES2 count")
        #expect(
            passage.contains(
                "\(DocsPage.count(hs512)) for PBES2-HS512+A256KW (and HS384), \(DocsPage.count(hs256)) for PBES2-HS256+A128KW."
            )
        )
        let range = "Counts from \(DocsPage.count(policy.minimumPBES2Iterations)) to"
        #expect(passage.contains("\(range) \(DocsPage.count(policy.maximumPBES2Iterations)) are accepted."))
    }

    @Test("what decryption refuses: p2c and token length limits")
    func decryptionLimits() throws {
        let policy = JWE.DecryptionPolicy.default
        let passage = try page.passage(containing: "**Refused, with a clear error:**")
        let maximum = DocsPage.count(policy.maximumPBES2Iterations)
        #expect(
            passage.contains(
                "`p2c` above `maximumPBES2Iterations` (\(maximum)) or below \(DocsPage.count(policy.minimumPBES2Iterations))"
            )
        )
        #expect(passage.contains("`maximumTokenByteCount` (\(DocsPage.byteSize(policy.maximumTokenByteCount)):"))
    }

    @Test("Fernet's clock skew")
    func fernetClockSkew() throws {
        #expect(
            try page.passage(containing: "`expired` (older than `timeToLive`")
                .contains("dated more than \(Fernet.maximumClockSkew) s in the future — `maximumClockSkew`")
        )
    }

    @Test("the openssl enc container's default iteration count")
    func openSSLEncIterations() throws {
        let count = DocsPage.count(OpenSSLEncFormat.defaultIterations)
        #expect(
            try page.passage(containing: "The iteration count is not stored").contains("openssl's default is \(count).")
        )
        let crypto = try DocsPage("docs/SecCrypto.md")
        #expect(
            try crypto.passage(containing: "Formats that dictate a lower count").contains("(openssl enc's \(count))")
        )
    }
}
