import SecCrypto
import SecIO

/// The calls of `CredentialStore` for Swift concurrency. Each runs the blocking call on a thread of
/// its own, never on the cooperative pool, and honours cancellation: a task cancelled before the
/// call starts throws `cancelled` at once; one cancelled during it cancels the call's D-Bus requests
/// and its wait for the writers' lock, which then throws `cancelled` promptly (not after `timeout`).
/// The encrypted-file store's own work (a read, a decryption, an atomic write) is short and finishes
/// once started; only its wait for the file lock is cut short.
///
/// ```swift
/// let task = Task { try await store.secret(for: id, timeout: .seconds(30)) }
/// task.cancel()  // the D-Bus call ends; the task throws KeychainError.cancelled
/// ```
extension CredentialStore {
    /// Stores `secret` under `identity` (see `upsert(_:secret:attributes:timeout:)`).
    public func upsert(
        _ identity: CredentialIdentity,
        secret: some ContiguousBytes & Sendable,
        attributes: CredentialAttributes = CredentialAttributes(),
        timeout: Duration = Self.defaultTimeout
    ) async throws(KeychainError) {
        try await BlockingThread.run { () throws(KeychainError) in
            try self.upsert(identity, secret: secret, attributes: attributes, timeout: timeout)
        }
    }

    /// Stores a UTF-8 string under `identity`.
    public func upsert(
        _ identity: CredentialIdentity,
        string: String,
        attributes: CredentialAttributes = CredentialAttributes(),
        timeout: Duration = Self.defaultTimeout
    ) async throws(KeychainError) {
        try await BlockingThread.run { () throws(KeychainError) in
            try self.upsert(identity, string: string, attributes: attributes, timeout: timeout)
        }
    }

    /// The item with exactly this identity, with its secret when `includeSecret` is true.
    public func item(
        for identity: CredentialIdentity,
        includeSecret: Bool = false,
        timeout: Duration = Self.defaultTimeout
    ) async throws(KeychainError) -> CredentialItem {
        try await BlockingThread.run { () throws(KeychainError) in
            try self.item(for: identity, includeSecret: includeSecret, timeout: timeout)
        }
    }

    /// The secret stored under exactly this identity.
    public func secret(
        for identity: CredentialIdentity,
        timeout: Duration = Self.defaultTimeout
    ) async throws(KeychainError) -> SecureBytes {
        try await BlockingThread.run { () throws(KeychainError) in try self.secret(for: identity, timeout: timeout) }
    }

    /// The secret stored under exactly this identity with its expiry.
    public func expiringSecret(
        for identity: CredentialIdentity,
        timeout: Duration = Self.defaultTimeout
    ) async throws(KeychainError) -> ExpiringSecret {
        try await BlockingThread.run { () throws(KeychainError) in
            try self.expiringSecret(for: identity, timeout: timeout)
        }
    }

    /// Deletes every item with exactly this identity. Throws `notFound` when there is none.
    public func delete(
        _ identity: CredentialIdentity,
        timeout: Duration = Self.defaultTimeout
    ) async throws(KeychainError) {
        try await BlockingThread.run { () throws(KeychainError) in try self.delete(identity, timeout: timeout) }
    }

    /// Deletes every item matching `query`; returns how many.
    public func deleteAll(
        matching query: CredentialQuery,
        timeout: Duration = Self.defaultTimeout
    ) async throws(KeychainError) -> Int {
        try await BlockingThread.run { () throws(KeychainError) in try self.deleteAll(matching: query, timeout: timeout)
        }
    }

    /// The items matching `query`.
    public func search(
        _ query: CredentialQuery,
        timeout: Duration = Self.defaultTimeout
    ) async throws(KeychainError) -> [CredentialItem] {
        try await BlockingThread.run { () throws(KeychainError) in try self.search(query, timeout: timeout) }
    }
}
