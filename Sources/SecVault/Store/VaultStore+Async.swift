import SecCrypto
import SecKeychain

/// The store's calls for Swift concurrency. Over an `AsyncVaultTransport` (AsyncHTTPClient's,
/// `AsyncHTTPClientTransport` in SecVaultHTTPClient) each runs in the calling task end to end: the
/// same protocol core as the blocking calls (`VaultPlan`), with every request awaited on the
/// client's event loop, back-off slept with `Task.sleep`, and no thread blocked. A cancelled task
/// cancels the request in flight and throws `KeychainError.cancelled`. Over libcurl
/// (`CurlTransport`) each call runs the blocking core on a thread of its own, as `CredentialStore`'s
/// default async calls do.
///
/// These are `VaultStore`'s own methods: a caller holding `any CredentialStore` gets the
/// protocol's default calls, which run the blocking core on a thread of their own.
extension VaultStore {
    /// Stores `secret` under `identity` (see `upsert(_:secret:attributes:timeout:)`).
    ///
    /// - Parameters:
    ///   - identity: the item's identity, which names its KV path.
    ///   - secret: the secret's bytes, up to `CredentialStore.maximumSecretByteCount`.
    ///   - attributes: the label, comment and expiry to store with it (none by default).
    ///   - timeout: how long the call may take (`CredentialStore.defaultTimeout` by default).
    /// - Throws: `KeychainError.cancelled` when the task is cancelled before or during the call;
    ///   what `upsert(_:secret:attributes:timeout:)` throws.
    public func upsert(
        _ identity: CredentialIdentity,
        secret: some ContiguousBytes & Sendable,
        attributes: CredentialAttributes = CredentialAttributes(),
        timeout: Duration = Self.defaultTimeout
    ) async throws(KeychainError) {
        try Self.validate(identity, attributes, secret: secret)
        let data = VaultItemData.encode(SecureBytes(secret))
        try await perform(timeout) { deadline throws(KeychainError) in
            try upsertPlan(identity, data, attributes, deadline)
        }
    }

    /// Stores a UTF-8 string under `identity`.
    ///
    /// - Parameters:
    ///   - identity: the item's identity, which names its KV path.
    ///   - string: the secret, stored as its UTF-8 bytes.
    ///   - attributes: the label, comment and expiry to store with it (none by default).
    ///   - timeout: how long the call may take (`CredentialStore.defaultTimeout` by default).
    /// - Throws: `KeychainError.cancelled` when the task is cancelled before or during the call;
    ///   what `upsert(_:secret:attributes:timeout:)` throws.
    public func upsert(
        _ identity: CredentialIdentity,
        string: String,
        attributes: CredentialAttributes = CredentialAttributes(),
        timeout: Duration = Self.defaultTimeout
    ) async throws(KeychainError) {
        try await upsert(identity, secret: SecureBytes(utf8: string), attributes: attributes, timeout: timeout)
    }

    /// The item with exactly this identity, with its secret when `includeSecret` is true.
    ///
    /// - Parameters:
    ///   - identity: the item's identity.
    ///   - includeSecret: whether to read the secret too (false by default).
    ///   - timeout: how long the call may take (`CredentialStore.defaultTimeout` by default).
    /// - Returns: the item, with its secret when `includeSecret` is true.
    /// - Throws: `KeychainError.cancelled` when the task is cancelled before or during the call;
    ///   what `item(for:includeSecret:timeout:)` throws.
    public func item(
        for identity: CredentialIdentity,
        includeSecret: Bool = false,
        timeout: Duration = Self.defaultTimeout
    ) async throws(KeychainError) -> CredentialItem {
        try ItemAttributes.validate(identity)
        return try await perform(timeout) { deadline throws(KeychainError) in
            try itemPlan(identity, includeSecret: includeSecret, deadline)
        }
    }

    /// The secret stored under exactly this identity, from one read of its current version.
    ///
    /// - Parameters:
    ///   - identity: the item's identity.
    ///   - timeout: how long the call may take (`CredentialStore.defaultTimeout` by default).
    /// - Returns: the secret, in memory that is wiped on release.
    /// - Throws: `KeychainError.cancelled` when the task is cancelled before or during the call;
    ///   what `expiringSecret(for:timeout:)` throws.
    public func secret(
        for identity: CredentialIdentity,
        timeout: Duration = Self.defaultTimeout
    ) async throws(KeychainError) -> SecureBytes {
        try await expiringSecret(for: identity, timeout: timeout).secret
    }

    /// The secret stored under exactly this identity with its expiry.
    ///
    /// - Parameters:
    ///   - identity: the item's identity.
    ///   - timeout: how long the call may take (`CredentialStore.defaultTimeout` by default).
    /// - Returns: the secret, in memory that is wiped on release, and its expiry (nil for none).
    /// - Throws: `KeychainError.cancelled` when the task is cancelled before or during the call;
    ///   what `expiringSecret(for:timeout:)` throws.
    public func expiringSecret(
        for identity: CredentialIdentity,
        timeout: Duration = Self.defaultTimeout
    ) async throws(KeychainError) -> ExpiringSecret {
        try ItemAttributes.validate(identity)
        let path = VaultPath.of(identity, prefix: prefix)
        return try await perform(timeout) { deadline throws(KeychainError) in
            try expiringSecret(at: path, until: deadline)
        }
    }

    /// Deletes the item with exactly this identity, its metadata and every version.
    ///
    /// - Parameters:
    ///   - identity: the identity whose item to delete.
    ///   - timeout: how long the call may take (`CredentialStore.defaultTimeout` by default).
    /// - Throws: `KeychainError.cancelled` when the task is cancelled before or during the call;
    ///   what `delete(_:timeout:)` throws.
    public func delete(
        _ identity: CredentialIdentity,
        timeout: Duration = Self.defaultTimeout
    ) async throws(KeychainError) {
        try ItemAttributes.validate(identity)
        try await perform(timeout) { deadline throws(KeychainError) in try deletePlan(identity, deadline) }
    }

    /// Deletes every item matching `query`; returns how many.
    ///
    /// - Parameters:
    ///   - query: the items to delete; an empty query matches every item under the path prefix.
    ///   - timeout: how long the call may take (`CredentialStore.defaultTimeout` by default).
    /// - Returns: how many items were deleted; at least one.
    /// - Throws: `KeychainError.cancelled` when the task is cancelled before or during the call;
    ///   what `deleteAll(matching:timeout:)` throws.
    public func deleteAll(
        matching query: CredentialQuery,
        timeout: Duration = Self.defaultTimeout
    ) async throws(KeychainError) -> Int {
        try await perform(timeout) { deadline throws(KeychainError) in try deleteAllPlan(query, deadline) }
    }

    /// The items matching `query`, from metadata alone unless `query.includeSecrets` is set.
    ///
    /// - Parameters:
    ///   - query: what the items must match, how many to return, and whether with their secrets.
    ///   - timeout: how long the call may take (`CredentialStore.defaultTimeout` by default).
    /// - Returns: the matching items, most recently modified first.
    /// - Throws: `KeychainError.cancelled` when the task is cancelled before or during the call;
    ///   what `search(_:timeout:)` throws.
    public func search(
        _ query: CredentialQuery,
        timeout: Duration = Self.defaultTimeout
    ) async throws(KeychainError) -> [CredentialItem] {
        try await perform(timeout) { deadline throws(KeychainError) in try searchPlan(query, deadline) }
    }
}
