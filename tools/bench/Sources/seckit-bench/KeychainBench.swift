import SecCrypto
import SecKeychain

// MARK: Keychain

/// `keychain-lookup-N`: N generic passwords (service `seckit-bench-lookup`, accounts `user-0000`…)
/// in the access group `seckit-bench` of the Secret Service, stored through `SecretServiceStore.upsert`
/// unless the group already holds exactly them. One operation reads the secret of the next account
/// with `secret(for:)` (an exact-identity lookup among the N) and checks it. Needs a Secret Service:
/// tools/bench/keychain-session runs it in a private one.
func keychainLookup(itemCount: Int) -> Benchmark {
    Benchmark(
        name: "keychain-lookup-\(itemCount)",
        summary:
            "SecretServiceStore.secret(for:) of one of \(itemCount) generic passwords in one access group, secret checked"
            + " (needs a Secret Service: run through tools/bench/keychain-session)"
    ) {
        let store = SecretServiceStore()
        let group = "seckit-bench"
        let identities = (0..<itemCount).map { index in
            let digits = String(index)
            let account = "user-" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
            return CredentialIdentity.genericPassword(
                service: "seckit-bench-lookup",
                account: account,
                accessGroup: group
            )
        }
        func expected(_ index: Int) -> [UInt8] { Array("secret-\(index)".utf8) }
        do {
            let stored = try store.search(CredentialQuery(accessGroup: group), timeout: .seconds(60))
            if Set(stored.map(\.identity)) != Set(identities) {
                log("  keychain-lookup-\(itemCount): storing \(itemCount) items in group \(group)")
                for (index, identity) in identities.enumerated() {
                    try store.upsert(
                        identity,
                        secret: expected(index),
                        attributes: CredentialAttributes(),
                        timeout: .seconds(10)
                    )
                }
            }
        } catch {
            fail("keychain-lookup-\(itemCount): \(error)")
        }
        var next = 0
        return Prepared(operation: {
            let index = next
            next = (next + 1) % itemCount
            let secret: SecureBytes
            do { secret = try store.secret(for: identities[index], timeout: .seconds(10)) } catch {
                fail("lookup: \(error)")
            }
            guard secret.withUnsafeBytes({ $0.elementsEqual(expected(index)) }) else {
                fail("lookup: item \(index) holds another secret")
            }
            return UInt8(truncatingIfNeeded: secret.count)
        })
    }
}
