import SecCrypto

/// A store whose async calls wait without holding a thread: `VaultStore` over AsyncHTTPClient, and
/// an audited store, which awaits the store under it. `CredentialStore`'s async calls hand over to
/// it whatever type the caller holds the store as, so `any CredentialStore` (SSO, identities,
/// SecHTTPAuth's keychain credentials) takes the same path as the concrete type.
///
/// These are not async requirements of `CredentialStore` itself: a store's synchronous methods of
/// the same names would satisfy them, and the async calls of every store that does not write its
/// own would then block the cooperative pool and ignore cancellation.
package protocol NonBlockingCredentialStore: CredentialStore {
    func nonBlockingUpsert(
        _ identity: CredentialIdentity,
        secret: SecureBytes,
        attributes: CredentialAttributes,
        timeout: Duration
    ) async throws(KeychainError)

    func nonBlockingItem(
        for identity: CredentialIdentity,
        includeSecret: Bool,
        timeout: Duration
    ) async throws(KeychainError) -> CredentialItem

    func nonBlockingSecret(
        for identity: CredentialIdentity,
        timeout: Duration
    ) async throws(KeychainError) -> SecureBytes

    func nonBlockingExpiringSecret(
        for identity: CredentialIdentity,
        timeout: Duration
    ) async throws(KeychainError) -> ExpiringSecret

    func nonBlockingDelete(_ identity: CredentialIdentity, timeout: Duration) async throws(KeychainError)

    func nonBlockingDeleteAll(matching query: CredentialQuery, timeout: Duration) async throws(KeychainError) -> Int

    func nonBlockingSearch(_ query: CredentialQuery, timeout: Duration) async throws(KeychainError) -> [CredentialItem]
}
