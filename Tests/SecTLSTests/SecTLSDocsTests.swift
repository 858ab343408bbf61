import SecTLS
import TestSupport
import Testing

/// What docs/SecTLS.md says of SecTLS's defaults and limits, held to the code.
@Suite("docs/SecTLS.md states SecTLS's defaults and limits")
struct SecTLSDocsTests {
    let page: DocsPage

    init() throws {
        page = try DocsPage("docs/SecTLS.md")
    }

    @Test("TLSTimeouts' defaults, in its row and where the client-certificate wait is described")
    func timeouts() throws {
        let timeouts = TLSTimeouts()
        func seconds(_ duration: Duration) -> String { DocsPage.seconds(duration) }
        #expect(timeouts.read == timeouts.write, "the page gives read and write one value")
        let row = try page.row("`TLSTimeouts`")[1]
        #expect(
            row.contains(
                "`connect` (\(seconds(timeouts.connect)) by default), `handshake` (\(seconds(timeouts.handshake)))"
            )
        )
        #expect(row.contains("`read` and `write` (\(seconds(timeouts.read)) each, per wait)"))
        let confirmation = seconds(timeouts.clientCertificateConfirmation)
        #expect(row.contains("`clientCertificateConfirmation` (\(confirmation), see below)"))
        #expect(
            try page.passage(containing: "So when a TLS 1.3 server asked for a")
                .contains("at most `timeouts.clientCertificateConfirmation` (\(confirmation)).")
        )
    }

    @Test("TLSClientConfiguration's defaults: the lowest version and the trust roots")
    func configurationDefaults() throws {
        let configuration = TLSClientConfiguration()
        let version = configuration.minimumVersion.rawValue.replacing("TLSv", with: "TLS ")
        #expect(configuration.minimumVersion == TLSVersion.allCases.min(), "the page calls it the lowest possible")
        #expect(
            try page.row("`TLSClientConfiguration`")[1].contains("`minimumVersion` (\(version), the lowest possible;")
        )
        #expect(configuration.trustRoots == .system)
        #expect(try page.row("`TrustRoots`")[1].hasPrefix("`.system` (OpenSSL's default paths, the default)"))
    }

    @Test("PinPolicy's defaults: the backup-pin rule and unpinned hosts")
    func pinPolicyDefaults() throws {
        let policy = PinPolicy([])
        let row = try page.row(
            "`PinPolicy(_:backupPinRule:unpinnedHosts:reportURI:)`, `PinPolicy(host:pins:reportURI:)`"
        )[1]
        #expect(row.contains("`backupPinRule` `.\(policy.backupPinRule.rawValue)` (default: "))
        #expect(row.contains("`unpinnedHosts` `.\(policy.unpinnedHosts.rawValue)` (default: "))
    }

    @Test("pin-failure reports: the default timeout and the rate limit's interval")
    func pinReportDefaults() throws {
        let uri = try PinReportURI("https://collector.example/r")
        #expect(
            try page.passage(containing: "**Short and verified.**")
                .contains("a timeout for the whole POST (\(DocsPage.seconds(uri.timeout)) by default)")
        )
        #expect(PinFailureReporter.interval == .seconds(600))
        #expect(
            try page.passage(containing: "**Rate-limited, process-wide.**")
                .contains("At most one report per host, port, pin set (and URI) and failure every 10 minutes")
        )
    }

    @Test("the largest identity file ClientIdentity reads")
    func identityFileSize() throws {
        let size = DocsPage.byteSize(ClientIdentity.maximumFileSize)
        #expect(
            try page.row("`ClientIdentity`")[1].contains(
                "(files up to `maximumFileSize` = \(size), read into `SecureBytes`)"
            )
        )
    }
}
