import Foundation
import SecTLS
import TestSupport
import Testing

/// Host patterns, pin-set selection, expiry, report-only and the backup-pin rule, on the fixture's
/// real certificates (no network).
@Suite struct PinPolicyTests {
    let fixture = TestPKI.shared

    @Test func exactPatternsIgnoreCaseSurroundingWhiteSpaceAndATrailingDot() throws {
        let pattern = try HostPattern(" Example.COM.\n")
        #expect(pattern.description == "example.com")
        for host in ["example.com", "EXAMPLE.com", "example.com.", "\texample.com \r\n"] {
            #expect(pattern.matches(host))
        }
        #expect(!pattern.matches("exa mple.com"))
        for host in ["www.example.com", "example.com.evil.net", "badexample.com", "example.co"] {
            #expect(!pattern.matches(host))
        }
        #expect(try HostPattern("127.0.0.1").matches("127.0.0.1"))
        #expect(try HostPattern("::1").matches("[::1]"))
    }

    @Test func oneLabelWildcard() throws {
        let pattern = try HostPattern("*.example.com")
        for host in ["www.example.com", "API.Example.com.", "x.example.com"] { #expect(pattern.matches(host)) }
        for host in [
            "example.com", "a.b.example.com", "www.example.com.evil.net", "wwwexample.com", ".example.com",
            "example.com.evil.net",
        ] {
            #expect(!pattern.matches(host), "\(host)")
        }
    }

    @Test func anyDepthWildcard() throws {
        let pattern = try HostPattern("**.example.com")
        for host in ["example.com", "www.example.com", "a.b.c.example.com", "A.Example.COM."] {
            #expect(pattern.matches(host))
        }
        for host in ["example.com.evil.net", "evilexample.com", "www.example.com.evil.net", "com"] {
            #expect(!pattern.matches(host), "\(host)")
        }
    }

    @Test func malformedPatternsAreRefused() {
        for text in [
            "", "*", "**", "*.", "www.*.com", "a..b", "*example.com", "ex ample.com", "*.*.example.com",
            "*.127.0.0.1:1", "exa*mple.com",
            "example.com\u{0}.evil.net", "*.example.com\u{0}", "exa\tmple.com", "exa\u{1B}mple.com",
            "example\u{85}.com", "exa\u{2028}mple.com",
            // Found by tools/fuzz pins: colons made any text pass as an IPv6 address.
            "4aaaaaaaaaaaa33:::aaaaaaaaa..", "example.com:443", "::1..", "1:2:3:4:5:6:7:8:9",
            // … and brackets that were no IPv6 literal's: `[[]]` became `[]`, which printed as a pattern of nothing.
            "[[]]", "[]", "a[b].example", "[example.com",
        ] {
            #expect(throws: TLSError.self, "\(text)") { try HostPattern(text) }
        }
    }

    @Test func theMostSpecificPinSetApplies() throws {
        let leaf = try fixture.pin("leaf-rsa")
        let ca = try fixture.pin("ca")
        let other = try fixture.pin("other")
        let policy = PinPolicy([
            try PinSet(host: "**.example.com", pins: [ca]),
            try PinSet(host: "*.example.com", pins: [other]),
            try PinSet(host: "api.example.com", pins: [leaf]),
        ])
        #expect(policy.pinSet(for: "api.example.com")?.pins == [leaf])
        #expect(policy.pinSet(for: "www.example.com")?.pins == [other])
        #expect(policy.pinSet(for: "a.b.example.com")?.pins == [ca])
        #expect(policy.pinSet(for: "example.com")?.pins == [ca])
        #expect(policy.pinSet(for: "example.com.evil.net") == nil)
        #expect(throws: TLSError.invalidConfiguration("the pin set for example.com has no pins")) {
            try PinSet(host: "example.com", pins: [])
        }
    }

    @Test func evaluationSaysWhichPinMatchedAtWhichDepth() throws {
        let chain = try TestPKI.serverChain.map(fixture.certificate)
        let other = try fixture.pin("other")
        for (depth, name) in TestPKI.serverChain.enumerated() {
            let pin = try fixture.pin(name)
            let evaluation = PinEvaluation.evaluate(
                chain,
                host: "localhost",
                policy: try PinPolicy(host: "localhost", pins: [other, pin])
            )
            #expect(evaluation.outcome == .matched(pin: pin, depth: depth))
            #expect(!evaluation.refusesConnection && evaluation.warnings.isEmpty)
        }
        // A whole-certificate fingerprint pin (SHA-1, as apps compare constants).
        let sha1 = Pin.certificate(chain[0].fingerprint(.sha1))
        let evaluation = PinEvaluation.evaluate(
            chain,
            host: "localhost",
            policy: try PinPolicy(host: "localhost", pins: [sha1, other])
        )
        #expect(evaluation.outcome == .matched(pin: sha1, depth: 0))
    }

    @Test func aMismatchListsEveryChainPinAndEveryExpectedPin() throws {
        let chain = try TestPKI.serverChain.map(fixture.certificate)
        let expected = [
            try fixture.pin("other"), try fixture.pin("rogue-ca"),
            .certificate(try fixture.certificate("other").fingerprint(.sha1)),
        ]
        let evaluation = PinEvaluation.evaluate(
            chain,
            host: "localhost",
            policy: try PinPolicy(host: "localhost", pins: expected)
        )
        #expect(evaluation.outcome == .mismatched && evaluation.refusesConnection)
        #expect(evaluation.chainPins == chain.map(\.publicKeyPin))
        #expect(evaluation.expectedPins == expected)
        // With a certificate pin expected, the chain's fingerprints of its algorithm are listed too.
        let listed =
            chain.map(\.publicKeyPin.description) + chain.map { $0.fingerprint(.sha1).description }
            + expected.map(\.description)
        for text in listed { #expect(evaluation.description.contains(text)) }
        #expect(!evaluation.description.contains(chain[0].fingerprint(.sha256).colonHexString))
        #expect(!evaluation.description.contains("\n"))
    }

    @Test func expiredAndReportOnlyPinSetsAreNotEnforced() throws {
        let chain = try TestPKI.serverChain.map(fixture.certificate)
        let wrong = [try fixture.pin("other")]
        let yesterday = Date(timeIntervalSinceNow: -86400)
        let expired = PinPolicy([try PinSet(host: "localhost", pins: wrong, expires: yesterday)])
        let evaluation = PinEvaluation.evaluate(chain, host: "localhost", policy: expired)
        #expect(evaluation.outcome == .mismatched && !evaluation.refusesConnection)
        #expect(evaluation.warnings == [.pinSetExpired(yesterday)])
        // Not expired yet: enforced.
        let later = PinPolicy([try PinSet(host: "localhost", pins: wrong, expires: Date(timeIntervalSinceNow: 86400))])
        #expect(PinEvaluation.evaluate(chain, host: "localhost", policy: later).refusesConnection)

        let reportOnly = PinPolicy([try PinSet(host: "localhost", pins: wrong, mode: .reportOnly)])
        let reported = PinEvaluation.evaluate(chain, host: "localhost", policy: reportOnly)
        #expect(
            reported.outcome == .mismatched && !reported.refusesConnection && reported.warnings == [.reportOnlyMismatch]
        )
    }

    @Test func aHostNoPinSetCoversIsRefusedUnlessThePolicyAllowsIt() throws {
        let chain = try TestPKI.serverChain.map(fixture.certificate)
        let leaf = try fixture.pin("leaf-rsa")
        let pinSets = [try PinSet(host: "api.example.com", pins: [leaf]), try PinSet(host: "::1", pins: [leaf])]
        let refusing = PinPolicy(pinSets)
        let uncovered = PinEvaluation.evaluate(chain, host: "localhost", policy: refusing)
        #expect(uncovered.outcome == .hostNotCovered && uncovered.refusesConnection && uncovered.pinSet == nil)
        #expect(uncovered.description.contains("no pin set covers"))
        let allowing = PinPolicy(pinSets, unpinnedHosts: .allow)
        let unpinned = PinEvaluation.evaluate(chain, host: "localhost", policy: allowing)
        #expect(unpinned.outcome == .notPinned && !unpinned.refusesConnection)
        // An empty policy pins nothing and refuses nothing.
        #expect(PinEvaluation.evaluate(chain, host: "localhost", policy: PinPolicy([])).outcome == .notPinned)
    }

    @Test(arguments: ["API.EXAMPLE.COM.", "[0:0:0:0:0:0:0:1]", "0::1", "::1", "[::1]"])
    func aHostSpelledAnotherWayFindsItsPinSet(host: String) throws {
        let chain = try TestPKI.serverChain.map(fixture.certificate)
        let other = try fixture.pin("other")
        let policy = PinPolicy(
            [try PinSet(host: "api.example.com", pins: [other]), try PinSet(host: "0:0::1", pins: [other])],
            unpinnedHosts: .allow
        )
        let evaluation = PinEvaluation.evaluate(chain, host: host, policy: policy)
        #expect(evaluation.outcome == .mismatched && evaluation.refusesConnection, "\(evaluation)")
    }

    @Test func backupPinRule() throws {
        let chain = try TestPKI.serverChain.map(fixture.certificate)
        let leaf = try fixture.pin("leaf-rsa")
        let ca = try fixture.pin("ca")
        // Every pin is in the chain: no backup.
        #expect(
            PinEvaluation.evaluate(
                chain,
                host: "localhost",
                policy: try PinPolicy(host: "localhost", pins: [leaf, ca])
            ).warnings == [.noBackupPin]
        )
        // One pin outside the chain is a backup.
        #expect(
            PinEvaluation.evaluate(
                chain,
                host: "localhost",
                policy: try PinPolicy(host: "localhost", pins: [leaf, try fixture.pin("other")])
            ).warnings.isEmpty
        )
    }

    @Test func allowListChecksHostPortAndScheme() throws {
        let list = EndpointAllowList([
            try .init(host: "api.example.com", port: 443, scheme: "HTTPS"),
            try .init(host: "**.internal.test", port: 8443),
            try .init(host: "*.any.test"),
        ])
        #expect(list.permits(host: "API.example.com.", port: 443, scheme: "https"))
        #expect(!list.permits(host: "api.example.com", port: 8443, scheme: "https"))
        #expect(!list.permits(host: "api.example.com", port: 443, scheme: "imaps"))
        #expect(!list.permits(host: "api.example.com.evil.net", port: 443, scheme: "https"))
        #expect(list.permits(host: "a.b.internal.test", port: 8443, scheme: "tls"))
        #expect(!list.permits(host: "a.b.internal.test", port: 443, scheme: "tls"))
        #expect(list.permits(host: "x.any.test", port: 1, scheme: "anything"))
        #expect(!list.permits(host: "any.test", port: 1, scheme: "anything"))
    }
}
