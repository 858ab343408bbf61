import Foundation
import TestSupport
import Testing

@testable import SecTLS

/// The verifiers' cache of verified chains: a chain is verified once per host while every
/// certificate of it is valid; another host, a time outside that window, a failure or a full cache
/// send it to OpenSSL again.
@Suite struct VerificationCacheTests {
    let fixture = TestPKI.shared

    @Test func aChainIsVerifiedAgainOnlyWhereTheKeptVerdictCouldDiffer() throws {
        let cache = VerificationCache(capacity: 2)
        let presented = try ["leaf-rsa", "intermediate"].map(fixture.certificate)
        let valid = presented.map(\.notBefore).max()!.addingTimeInterval(60)
        var verifications = 0
        func chain(host: String?, at now: Date = valid, failing: Bool = false) throws -> [X509Certificate] {
            try cache.chain(presented, host: host, at: now) { () throws(TLSError) in
                verifications += 1
                if failing { throw .invalidConfiguration("refused") }
                return presented
            }
        }

        #expect(try chain(host: "localhost") == presented)
        #expect(try chain(host: "localhost") == presented)
        #expect(verifications == 1, "the same chain and host again: kept")
        _ = try chain(host: "other.example")
        #expect(verifications == 2, "another host: verified")
        _ = try chain(host: "localhost", at: presented[0].notAfter.addingTimeInterval(1))
        #expect(verifications == 3, "after the leaf's notAfter: verified")

        #expect(throws: TLSError.self) { try chain(host: "refused.example", failing: true) }
        #expect(throws: TLSError.self) { try chain(host: "refused.example", failing: true) }
        #expect(verifications == 5, "a failure is never kept")

        // The expired look-up found the cache full and emptied it: it holds localhost only.
        _ = try chain(host: "third.example")
        _ = try chain(host: "localhost")
        #expect(verifications == 6, "two entries kept")
        _ = try chain(host: "fourth.example")
        _ = try chain(host: "localhost")
        #expect(verifications == 8, "a third entry empties the full cache first")
    }
}
