import SecCrypto
import SecIO

/// The calls of `CredentialStore` for Swift concurrency. Each runs the blocking call on a thread of
/// its own, never on the cooperative pool, and honours cancellation: a task cancelled before the
/// call starts throws `cancelled` at once; one cancelled during it cancels the call's D-Bus requests
/// and its wait for the writers' lock, which then throws `cancelled` promptly (not after `timeout`).
/// The encrypted-file store's own work (a read, a decryption, an atomic write) is short and finishes
/// once started; only its wait for the file lock is cut short. A store that waits without a thread
/// (`VaultStore` over AsyncHTTPClient, an audited store) takes its own path instead
/// (`NonBlockingCredentialStore`), whatever type the caller holds it as.
///
/// ```swift
/// let task = Task { try await store.secret(for: id, timeout: .seconds(30)) }
/// task.cancel()  // the D-Bus call ends; the task throws KeychainError.cancelled
/// ```
extension CredentialStore {
    /// Stores `secret` under `identity` (see `upsert(_:secret:attributes:timeout:)`).
    ///
    /// - Parameters:
    ///   - identity: the item's identity.
    ///   - secret: the secret's bytes.
    ///   - attributes: the label, comment and expiry to store with it (none by default).
    ///   - timeout: how long the call may take (``CredentialStore/defaultTimeout`` by default).
    /// - Throws: ``KeychainError/cancelled`` when the task is cancelled before or during the call; what
    ///   `upsert(_:secret:attributes:timeout:)` throws: ``KeychainError/secretTooLarge(limit:)`` for a
    ///   secret over ``CredentialStore/maximumSecretByteCount`` bytes,
    ///   ``KeychainError/invalidAttribute(_:)`` for an identity or attributes no store can keep,
    ///   ``KeychainError/locked`` when the keyring is locked, ``KeychainError/timeout(_:)`` when the
    ///   call does not finish within `timeout`, and the store's own failures listed there.
    public func upsert(
        _ identity: CredentialIdentity,
        secret: some ContiguousBytes & Sendable,
        attributes: CredentialAttributes = CredentialAttributes(),
        timeout: Duration = Self.defaultTimeout
    ) async throws(KeychainError) {
        if let store = self as? any NonBlockingCredentialStore {
            return try await store.nonBlockingUpsert(
                identity,
                secret: SecureBytes(secret),
                attributes: attributes,
                timeout: timeout
            )
        }
        try await BlockingThread.run { () throws(KeychainError) in
            try self.upsert(identity, secret: secret, attributes: attributes, timeout: timeout)
        }
    }

    /// Stores a UTF-8 string under `identity`.
    ///
    /// - Parameters:
    ///   - identity: the item's identity.
    ///   - string: the secret, stored as its UTF-8 bytes.
    ///   - attributes: the label, comment and expiry to store with it (none by default).
    ///   - timeout: how long the call may take (``CredentialStore/defaultTimeout`` by default).
    /// - Throws: ``KeychainError/cancelled`` when the task is cancelled before or during the call; what
    ///   `upsert(_:secret:attributes:timeout:)` throws: ``KeychainError/secretTooLarge(limit:)`` for a
    ///   secret over ``CredentialStore/maximumSecretByteCount`` bytes,
    ///   ``KeychainError/invalidAttribute(_:)`` for an identity or attributes no store can keep,
    ///   ``KeychainError/locked`` when the keyring is locked, ``KeychainError/timeout(_:)`` when the
    ///   call does not finish within `timeout`, and the store's own failures listed there.
    public func upsert(
        _ identity: CredentialIdentity,
        string: String,
        attributes: CredentialAttributes = CredentialAttributes(),
        timeout: Duration = Self.defaultTimeout
    ) async throws(KeychainError) {
        if let store = self as? any NonBlockingCredentialStore {
            return try await store.nonBlockingUpsert(
                identity,
                secret: SecureBytes(utf8: string),
                attributes: attributes,
                timeout: timeout
            )
        }
        try await BlockingThread.run { () throws(KeychainError) in
            try self.upsert(identity, string: string, attributes: attributes, timeout: timeout)
        }
    }

    /// The item with exactly this identity, with its secret when `includeSecret` is true.
    ///
    /// - Parameters:
    ///   - identity: the item's identity.
    ///   - includeSecret: whether to load the secret into the item (false by default).
    ///   - timeout: how long the call may take (``CredentialStore/defaultTimeout`` by default).
    /// - Returns: the item, with its attributes and times, and its secret when `includeSecret` is true.
    /// - Throws: ``KeychainError/cancelled`` when the task is cancelled before or during the call; what
    ///   `item(for:includeSecret:timeout:)` throws: ``KeychainError/notFound`` when no item has exactly
    ///   this identity (``KeychainError/locked`` when the keyring is locked and might hold it),
    ///   ``KeychainError/invalidAttribute(_:)`` for an identity no store can keep,
    ///   ``KeychainError/timeout(_:)`` when the call does not finish within `timeout`, and the store's
    ///   own failures listed there.
    public func item(
        for identity: CredentialIdentity,
        includeSecret: Bool = false,
        timeout: Duration = Self.defaultTimeout
    ) async throws(KeychainError) -> CredentialItem {
        if let store = self as? any NonBlockingCredentialStore {
            return try await store.nonBlockingItem(for: identity, includeSecret: includeSecret, timeout: timeout)
        }
        return try await BlockingThread.run { () throws(KeychainError) in
            try self.item(for: identity, includeSecret: includeSecret, timeout: timeout)
        }
    }

    /// The secret stored under exactly this identity.
    ///
    /// - Parameters:
    ///   - identity: the item's identity.
    ///   - timeout: how long the call may take (``CredentialStore/defaultTimeout`` by default).
    /// - Returns: the secret, in memory that is wiped on release.
    /// - Throws: ``KeychainError/cancelled`` when the task is cancelled before or during the call; what
    ///   `secret(for:timeout:)` throws: ``KeychainError/notFound`` when no item has exactly this
    ///   identity (``KeychainError/locked`` when the keyring is locked and might hold it),
    ///   ``KeychainError/invalidAttribute(_:)`` for an identity no store can keep,
    ///   ``KeychainError/timeout(_:)`` when the call does not finish within `timeout`, and the store's
    ///   own failures listed there.
    public func secret(
        for identity: CredentialIdentity,
        timeout: Duration = Self.defaultTimeout
    ) async throws(KeychainError) -> SecureBytes {
        if let store = self as? any NonBlockingCredentialStore {
            return try await store.nonBlockingSecret(for: identity, timeout: timeout)
        }
        return try await BlockingThread.run { () throws(KeychainError) in
            try self.secret(for: identity, timeout: timeout)
        }
    }

    /// The secret stored under exactly this identity with its expiry.
    ///
    /// - Parameters:
    ///   - identity: the item's identity.
    ///   - timeout: how long the call may take (``CredentialStore/defaultTimeout`` by default).
    /// - Returns: the secret and its expiry (nil when the item has none).
    /// - Throws: ``KeychainError/cancelled`` when the task is cancelled before or during the call; what
    ///   `expiringSecret(for:timeout:)` throws: ``KeychainError/notFound`` when no item has exactly
    ///   this identity (``KeychainError/locked`` when the keyring is locked and might hold it),
    ///   ``KeychainError/invalidAttribute(_:)`` for an identity no store can keep,
    ///   ``KeychainError/timeout(_:)`` when the call does not finish within `timeout`, and the store's
    ///   own failures listed there.
    public func expiringSecret(
        for identity: CredentialIdentity,
        timeout: Duration = Self.defaultTimeout
    ) async throws(KeychainError) -> ExpiringSecret {
        if let store = self as? any NonBlockingCredentialStore {
            return try await store.nonBlockingExpiringSecret(for: identity, timeout: timeout)
        }
        return try await BlockingThread.run { () throws(KeychainError) in
            try self.expiringSecret(for: identity, timeout: timeout)
        }
    }

    /// Deletes every item with exactly this identity. Throws `notFound` when there is none.
    ///
    /// - Parameters:
    ///   - identity: the identity whose items to delete.
    ///   - timeout: how long the call may take (``CredentialStore/defaultTimeout`` by default).
    /// - Throws: ``KeychainError/cancelled`` when the task is cancelled before or during the call; what
    ///   `delete(_:timeout:)` throws: ``KeychainError/notFound`` when no item has exactly this identity
    ///   (``KeychainError/locked`` when the keyring is locked and might hold it),
    ///   ``KeychainError/invalidAttribute(_:)`` for an identity no store can keep,
    ///   ``KeychainError/timeout(_:)`` when the call does not finish within `timeout`, and the store's
    ///   own failures listed there.
    public func delete(
        _ identity: CredentialIdentity,
        timeout: Duration = Self.defaultTimeout
    ) async throws(KeychainError) {
        if let store = self as? any NonBlockingCredentialStore {
            return try await store.nonBlockingDelete(identity, timeout: timeout)
        }
        try await BlockingThread.run { () throws(KeychainError) in try self.delete(identity, timeout: timeout) }
    }

    /// Deletes every item matching `query`; returns how many.
    ///
    /// - Parameters:
    ///   - query: the items to delete; an empty query matches every item.
    ///   - timeout: how long the call may take (``CredentialStore/defaultTimeout`` by default).
    /// - Returns: how many items were deleted; at least one.
    /// - Throws: ``KeychainError/cancelled`` when the task is cancelled before or during the call; what
    ///   `deleteAll(matching:timeout:)` throws: ``KeychainError/notFound`` when no item matches,
    ///   ``KeychainError/locked`` (deleting nothing) when a locked item could match,
    ///   ``KeychainError/timeout(_:)`` when the call does not finish within `timeout`, and the store's
    ///   own failures listed there.
    public func deleteAll(
        matching query: CredentialQuery,
        timeout: Duration = Self.defaultTimeout
    ) async throws(KeychainError) -> Int {
        if let store = self as? any NonBlockingCredentialStore {
            return try await store.nonBlockingDeleteAll(matching: query, timeout: timeout)
        }
        return try await BlockingThread.run { () throws(KeychainError) in
            try self.deleteAll(matching: query, timeout: timeout)
        }
    }

    /// The items matching `query`.
    ///
    /// - Parameters:
    ///   - query: what the items must match, how many to return, and whether with their secrets.
    ///   - timeout: how long the call may take (``CredentialStore/defaultTimeout`` by default).
    /// - Returns: the matching items, most recently modified first (one at most with `limit: .one`).
    /// - Throws: ``KeychainError/cancelled`` when the task is cancelled before or during the call; what
    ///   `search(_:timeout:)` throws: ``KeychainError/locked`` when a locked item could match, and,
    ///   with `limit: .one`, ``KeychainError/notFound`` when none does and
    ///   ``KeychainError/ambiguous(count:)`` when items of several identities do,
    ///   ``KeychainError/timeout(_:)`` when the call does not finish within `timeout`, and the store's
    ///   own failures listed there.
    public func search(
        _ query: CredentialQuery,
        timeout: Duration = Self.defaultTimeout
    ) async throws(KeychainError) -> [CredentialItem] {
        if let store = self as? any NonBlockingCredentialStore {
            return try await store.nonBlockingSearch(query, timeout: timeout)
        }
        return try await BlockingThread.run { () throws(KeychainError) in try self.search(query, timeout: timeout) }
    }
}
