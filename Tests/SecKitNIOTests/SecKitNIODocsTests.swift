import SecHTTPAuth
import SecKitHTTPClient
import SecKitNIO
import TestSupport
import Testing

@testable import seckit_fetch

/// What docs/SecKitNIO.md and docs/SecHTTPAuth.md say of the defaults of SecKitNIO and SecKitHTTPClient,
/// and of seckit-fetch's exit codes, held to the code.
@Suite("docs/SecKitNIO.md and docs/SecHTTPAuth.md state SecKitNIO's and SecKitHTTPClient's defaults")
struct SecKitNIODocsTests {
    @Test("ServerConnectionLimits' defaults: handshake, idle and per-peer limits")
    func serverConnectionLimits() throws {
        let limits = ServerConnectionLimits()
        let idle = try #require(limits.idleTimeout)
        let perPeer = try #require(limits.maximumConnectionsPerPeer)
        let row = try DocsPage("docs/SecKitNIO.md").row(
            "`ServerConnectionLimits(handshakeTimeout:idleTimeout:maximumConnectionsPerPeer:)`"
        )[1]
        #expect(
            row.contains("the handshake must end within \(DocsPage.seconds(limits.handshakeTimeout)) of the accept")
        )
        #expect(row.contains("a connection with nothing read or written for \(DocsPage.seconds(idle)) is closed"))
        #expect(row.contains("one IP address holds at most \(perPeer) connections"))
    }

    @Test("HTTPAuthenticator's defaults: refusals, round trips, persistence, Basic")
    func authenticatorDefaults() throws {
        let authenticator = HTTPAuthenticator(credentials: InMemoryCredentialProvider())
        let page = try DocsPage("docs/SecHTTPAuth.md")
        #expect(
            try page.passage(containing: "refused credential is not sent again in the exchange")
                .contains("`maximumFailures` (\(authenticator.maximumFailures)) refusals")
        )
        #expect(
            try page.passage(containing: "Every answer to a challenge counts")
                .contains("After `maximumRoundTrips` (\(authenticator.maximumRoundTrips)) of them")
        )
        #expect(
            try page.passage(containing: "for the credentials that worked")
                .contains("(`.\(authenticator.persistence)` by default)")
        )
        #expect(!authenticator.preemptiveBasic)
        #expect(
            try page.passage(containing: "answered at once from the `AuthenticationCache`")
                .contains("Basic only with `Policy.preemptiveBasic`")
        )
        #expect(!authenticator.allowsBasicOverCleartext)
        #expect(
            try page.passage(containing: "The strongest challenge offered is answered")
                .contains("unless `Policy.allowsBasicOverCleartext`")
        )
    }

    @Test("seckit-fetch's exit-code table lists the codes it exits with, and no other")
    func fetchExitCodes() throws {
        let rows = try DocsPage("docs/SecKitNIO.md").tableRows(under: "| code | meaning |")
        let documented = rows.map { $0.split(separator: "|").first?.trimmingCharacters(in: .whitespaces) ?? "" }
        let codes = (Int32(0)...255).compactMap(FetchExit.init(rawValue:)).map { "\($0.rawValue)" }
        #expect(documented == codes)
    }
}
