import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The chains a verifier verified lately, so that a peer presenting the same chain again (every new
/// connection to the same server, every request of the same client) is not verified again
/// signature by signature. OpenSSL's verdict on a chain depends on the chain, the trust store (fixed
/// for a verifier), the host name, the purpose (fixed) and the time; an entry is keyed by the exact
/// certificates and host, and used only within the time every certificate of its verified chain is
/// valid, so the answer is the one OpenSSL would give. Only successes are kept. Pins and pin set
/// expiry are checked on every verification.
final class VerificationCache: Sendable {
    private struct Key: Hashable {
        let presented: [X509Certificate]
        let host: String?
    }
    private struct Entry {
        let chain: [X509Certificate]
        let validFrom: Date
        let validUntil: Date
    }
    private let entries = Mutex<[Key: Entry]>([:])
    /// Beyond this many chains the cache starts again empty: a bound on memory when many peers
    /// connect; a handful of peers, the usual case, stay cached.
    private let capacity: Int

    init(capacity: Int = 64) { self.capacity = capacity }

    /// The verified chain of `presented` for `host` at `now`: cached, or made by `verify` (and kept).
    func chain(
        _ presented: [X509Certificate],
        host: String?,
        at now: Date,
        verify: () throws(TLSError) -> [X509Certificate]
    ) throws(TLSError) -> [X509Certificate] {
        let key = Key(presented: presented, host: host)
        if let entry = entries.withLock({ $0[key] }), entry.validFrom <= now, now <= entry.validUntil {
            return entry.chain
        }
        let chain = try verify()
        let entry = Entry(
            chain: chain,
            validFrom: chain.map(\.notBefore).max() ?? now,
            validUntil: chain.map(\.notAfter).min() ?? now
        )
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll() }
            entries[key] = entry
        }
        return chain
    }
}
