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
    func credential(for space: ProtectionSpace) async throws -> HTTPCredential?

    /// Keeps `credential` for `space` as `persistence` says, replacing the one the same user had
    /// there; `credential(for:)` then answers with it. Call it only once the credential worked.
    func save(_ credential: HTTPCredential, for space: ProtectionSpace, persistence: CredentialPersistence) async throws

    /// Forgets every credential kept for exactly `space` (every user's); returns how many.
    @discardableResult
    func remove(space: ProtectionSpace) async throws -> Int

    /// Forgets every credential kept for `host`: every scheme, port, realm, method and user; returns
    /// how many.
    @discardableResult
    func removeAll(host: String) async throws -> Int
}
