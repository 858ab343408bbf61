import SecCrypto
import SecKeychain

/// The store's calls for Swift concurrency (`CredentialStore`'s async `secret(for:)`, `item`,
/// `upsert`, `delete`, `deleteAll`, `search`, which hand over to these whatever type the caller
/// holds the store as). Over an `AsyncVaultTransport` (AsyncHTTPClient's, `AsyncHTTPClientTransport`
/// in SecVaultHTTPClient) each runs in the calling task end to end: the same protocol core as the
/// blocking calls (`VaultPlan`), with every request awaited on the client's event loop, back-off
/// slept with `Task.sleep`, and no thread blocked. A cancelled task cancels the request in flight and
/// throws `KeychainError.cancelled`. Over libcurl (`CurlTransport`) each call runs the blocking core
/// on a thread of its own, as the other stores' async calls do.
extension VaultStore: NonBlockingCredentialStore {
    package func nonBlockingUpsert(
        _ identity: CredentialIdentity,
        secret: SecureBytes,
        attributes: CredentialAttributes,
        timeout: Duration
    ) async throws(KeychainError) {
        try Self.validate(identity, attributes, secret: secret)
        let data = VaultItemData.encode(secret)
        try await perform(timeout) { deadline throws(KeychainError) in
            try upsertPlan(identity, data, attributes, deadline)
        }
    }

    package func nonBlockingItem(
        for identity: CredentialIdentity,
        includeSecret: Bool,
        timeout: Duration
    ) async throws(KeychainError) -> CredentialItem {
        try ItemAttributes.validate(identity)
        return try await perform(timeout) { deadline throws(KeychainError) in
            try itemPlan(identity, includeSecret: includeSecret, deadline)
        }
    }

    /// One read of the item's current version.
    package func nonBlockingSecret(
        for identity: CredentialIdentity,
        timeout: Duration
    ) async throws(KeychainError) -> SecureBytes {
        try await nonBlockingExpiringSecret(for: identity, timeout: timeout).secret
    }

    package func nonBlockingExpiringSecret(
        for identity: CredentialIdentity,
        timeout: Duration
    ) async throws(KeychainError) -> ExpiringSecret {
        try ItemAttributes.validate(identity)
        let path = VaultPath.of(identity, prefix: prefix)
        return try await perform(timeout) { deadline throws(KeychainError) in
            try expiringSecret(at: path, until: deadline)
        }
    }

    package func nonBlockingDelete(_ identity: CredentialIdentity, timeout: Duration) async throws(KeychainError) {
        try ItemAttributes.validate(identity)
        try await perform(timeout) { deadline throws(KeychainError) in try deletePlan(identity, deadline) }
    }

    package func nonBlockingDeleteAll(
        matching query: CredentialQuery,
        timeout: Duration
    ) async throws(KeychainError) -> Int {
        try await perform(timeout) { deadline throws(KeychainError) in try deleteAllPlan(query, deadline) }
    }

    package func nonBlockingSearch(
        _ query: CredentialQuery,
        timeout: Duration
    ) async throws(KeychainError) -> [CredentialItem] {
        try await perform(timeout) { deadline throws(KeychainError) in try searchPlan(query, deadline) }
    }
}
