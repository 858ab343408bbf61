import SecIdentities
import TestSupport
import Testing

/// What docs/SecKeychain.md says of SecIdentities' defaults (its "Client identities in the keychain"
/// section), held to the code.
@Suite("docs/SecKeychain.md states SecIdentities' defaults")
struct SecIdentitiesDocsTests {
    let page: DocsPage

    init() throws {
        page = try DocsPage("docs/SecKeychain.md")
    }

    @Test("the renewal window of expiresSoon, in the calls table and in identity list's comment")
    func renewalWindow() throws {
        let days = StoredIdentity.renewalWindow / 86_400
        #expect(days == days.rounded(), "the page gives the window in whole days")
        let window = "\(Int(days)) days"
        #expect(try page.row("`list()`")[1].contains("`expiresSoon(within:at:)`, \(window) by default)"))
        #expect(
            try page.passage(containing: "seccli identity list ")
                .contains("# name, subject, issuer, notAfter (flagged within \(window)), key pin")
        )
    }

    @Test("the service of the identities' items")
    func defaultService() throws {
        #expect(IdentityStore().service == IdentityStore.defaultService)
        #expect(
            try page.passage(containing: "Each identity is one generic-password item")
                .contains("service `\(IdentityStore.defaultService)` (the `service` argument)")
        )
    }
}
