/// Where an HTTP client finds the credential for a protection space, and keeps the ones that worked
/// (the role of Foundation's `URLCredentialStorage`).
///
/// ```swift
/// let provider = KeychainCredentialProvider(store: SecretServiceStore())
/// if let credential = try await provider.credential(for: space) {
///     // answer the challenge; after a 2xx:
///     try await provider.save(credential, for: space, persistence: .permanent)
/// }
/// ```
public protocol HTTPCredentialProvider: Sendable {
    /// The credential to answer `space`'s challenge with, or nil when none is kept for it. A
    /// credential kept for the same space without a realm (one for the whole origin) answers any realm
    /// that has none of its own.
    ///
    /// - Parameter space: the protection space of the challenge.
    /// - Returns: the credential to answer with, or nil when the provider keeps none for `space`.
    /// - Throws: the provider's own error when its store cannot be read (`KeychainCredentialProvider`:
    ///   SecKeychain's `KeychainError`); `InMemoryCredentialProvider` never throws.
    func credential(for space: ProtectionSpace) async throws -> HTTPCredential?

    /// Keeps `credential` for `space` as `persistence` says, replacing the one the same user had
    /// there; `credential(for:)` then answers with it. Call it only once the credential worked.
    ///
    /// - Parameters:
    ///   - credential: the credential that answered `space`'s challenge.
    ///   - space: the protection space it answered.
    ///   - persistence: where to keep it: nowhere (`.none`), in memory (`.forSession`), or in the
    ///     provider's store (`.permanent`).
    /// - Throws: the provider's own error when its store cannot be written
    ///   (`KeychainCredentialProvider`: SecKeychain's `KeychainError`); `InMemoryCredentialProvider`
    ///   never throws.
    func save(_ credential: HTTPCredential, for space: ProtectionSpace, persistence: CredentialPersistence) async throws

    /// Forgets every credential kept for exactly `space` (every user's); returns how many.
    ///
    /// - Parameter space: the protection space whose credentials to forget.
    /// - Returns: how many credentials were forgotten; 0 when there were none.
    /// - Throws: the provider's own error when its store cannot be changed
    ///   (`KeychainCredentialProvider`: SecKeychain's `KeychainError`); `InMemoryCredentialProvider`
    ///   never throws.
    @discardableResult
    func remove(space: ProtectionSpace) async throws -> Int

    /// Forgets every credential kept for `host`: every scheme, port, realm, method and user; returns
    /// how many.
    ///
    /// - Parameter host: the host whose credentials to forget.
    /// - Returns: how many credentials were forgotten; 0 when there were none.
    /// - Throws: the provider's own error when its store cannot be changed
    ///   (`KeychainCredentialProvider`: SecKeychain's `KeychainError`); `InMemoryCredentialProvider`
    ///   never throws.
    @discardableResult
    func removeAll(host: String) async throws -> Int
}
