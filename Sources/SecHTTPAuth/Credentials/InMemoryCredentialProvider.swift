/// Credentials kept in this process's memory only, gone when the provider is released: for tests,
/// for clients that must not write anywhere, and as `KeychainCredentialProvider`'s `.forSession` store.
/// `.forSession` and `.permanent` both keep a credential for the provider's lifetime.
public actor InMemoryCredentialProvider: HTTPCredentialProvider {
    /// Each space's credentials, the most recently saved last.
    private var credentials: [ProtectionSpace: [HTTPCredential]] = [:]

    /// An empty provider.
    public init() {}

    public func credential(for space: ProtectionSpace) -> HTTPCredential? {
        credentials[space]?.last ?? credentials[space.withoutRealm]?.last
    }

    public func save(_ credential: HTTPCredential, for space: ProtectionSpace, persistence: CredentialPersistence) {
        guard persistence != .none else { return }
        removeCredential(of: credential.user, for: space)
        credentials[space, default: []].append(credential)
    }

    @discardableResult
    public func remove(space: ProtectionSpace) -> Int {
        credentials.removeValue(forKey: space)?.count ?? 0
    }

    @discardableResult
    public func removeAll(host: String) -> Int {
        let host = ProtectionSpace.canonicalHost(host)
        let spaces = credentials.keys.filter { $0.host == host }
        return spaces.reduce(0) { $0 + remove(space: $1) }
    }

    /// Forgets `user`'s credential for `space`, so that a newer one kept elsewhere is not shadowed.
    package func removeCredential(of user: String, for space: ProtectionSpace) {
        credentials[space]?.removeAll { $0.user == user }
        if credentials[space]?.isEmpty == true { credentials[space] = nil }
    }
}
