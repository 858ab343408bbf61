import TestSupport
import Testing

@testable import SecHTTPAuth

/// What docs/SecHTTPAuth.md says of SecHTTPAuth's limits and sizes, held to the code.
@Suite("docs/SecHTTPAuth.md states SecHTTPAuth's limits and sizes")
struct SecHTTPAuthDocsTests {
    let page: DocsPage

    init() throws {
        page = try DocsPage("docs/SecHTTPAuth.md")
    }

    @Test("the challenge parser's limits")
    func challengeLimits() throws {
        let limits =
            "Limits: \(ChallengeLimits.headerValues) header lines, "
            + "\(DocsPage.byteSize(ChallengeLimits.headerValueBytes)) a line, \(ChallengeLimits.challenges) challenges, "
            + "\(ChallengeLimits.parametersPerChallenge) parameters a challenge."
        #expect(try page.passage(containing: "Anything that is not RFC 9110 syntax throws").contains(limits))
    }

    @Test("Digest client nonces: their size and how many one draw makes")
    func clientNonces() throws {
        let nonces =
            "a fresh \(ClientNonceSource.nonceByteCount * 8)-bit client nonce from OpenSSL's random generator, "
            + "drawn \(ClientNonceSource.noncesPerDraw) at a time"
        #expect(try page.passage(containing: "Each request counts in `nc`").contains(nonces))
    }
}
