import SecCrypto
import SecHTTPAuth
import SecKeychain

/// Credentials kept as SecKeychain internet passwords (`ProtectionSpace+Keychain` says which
/// attributes), so that what `seccli cred set --server H --protocol https --account U --realm R`,
/// `secret-tool store … server H user U realm R` or git's libsecret helper stored answers a challenge.
///
/// `.permanent` writes the store. `.forSession` keeps the credential in this provider's memory
/// (an `InMemoryCredentialProvider`), not in the Secret Service's session collection: that one
/// outlives the process (until logout), needs a Secret Service (the encrypted-file store has no
/// session), and every process of the user could read it there.
///
/// Lookups read only items in `accessGroup` (nil: items without a group, as secret-tool stores them),
/// newest first, skipping expired ones; removals delete only those too.
public struct KeychainCredentialProvider: HTTPCredentialProvider {
    public let store: any CredentialStore
    public let accessGroup: String?
    /// The time limit of each keychain call.
    public let timeout: Duration
    private let session = InMemoryCredentialProvider()

    /// A provider that keeps its credentials in `store`.
    ///
    /// - Parameters:
    ///   - store: the keychain the internet passwords are read from and written to.
    ///   - accessGroup: the access group of the items it reads, writes and deletes; nil (the default)
    ///     for items without one, as secret-tool stores them.
    ///   - timeout: the time limit of each keychain call (10 s by default).
    public init(store: any CredentialStore, accessGroup: String? = nil, timeout: Duration = defaultKeychainTimeout) {
        self.store = store
        self.accessGroup = accessGroup
        self.timeout = timeout
    }

    /// The session's credential, else the newest unexpired item of the space's realm, else the newest
    /// of the whole origin (no realm).
    ///
    /// - Parameter space: the protection space of the challenge.
    /// - Returns: the credential, or nil when neither the session nor the store holds an unexpired one
    ///   for `space`.
    /// - Throws: the store's `KeychainError` when it cannot be searched or the item's secret cannot be
    ///   read: `locked`, `timeout(_:)` after `timeout`, `cancelled`, `noSessionBus(_:)` or
    ///   `noSecretService(_:)`, for example.
    public func credential(for space: ProtectionSpace) async throws -> HTTPCredential? {
        if let kept = await session.credential(for: space) { return kept }
        let ranked = try await items(of: space.host).compactMap { item in
            rank(of: item, for: space).map { (rank: $0, item: item) }
        }
        guard let best = ranked.filter({ !$0.item.isExpired() }).min(by: { $0.rank < $1.rank })?.item else {
            return nil
        }
        let password = try await store.secret(for: best.identity, timeout: timeout)
        return HTTPCredential(user: best.identity.account, password: password)
    }

    /// Keeps `credential` for `space` as `persistence` says: `.permanent` upserts the internet password
    /// of `credential.user` for `space` in `store` (and drops the session's copy), `.forSession` keeps
    /// it in this provider's memory only, `.none` keeps nothing.
    ///
    /// - Parameters:
    ///   - credential: the credential that answered the challenge.
    ///   - space: the protection space it answered.
    ///   - persistence: where to keep it.
    /// - Throws: for `.permanent`, the store's `KeychainError` when the item cannot be written
    ///   (`locked`, `noDefaultCollection`, `timeout(_:)` after `timeout`, `secretTooLarge(limit:)`, for
    ///   example); `.forSession` and `.none` do not throw.
    public func save(
        _ credential: HTTPCredential,
        for space: ProtectionSpace,
        persistence: CredentialPersistence
    ) async throws {
        switch persistence {
        case .none: return
        case .forSession: await session.save(credential, for: space, persistence: persistence)
        case .permanent:
            try await store.upsert(
                space.keychainIdentity(user: credential.user, accessGroup: accessGroup),
                secret: credential.password,
                timeout: timeout
            )
            await session.removeCredential(of: credential.user, for: space)
        }
    }

    /// Forgets the session's credentials of `space` and deletes the items of its realm that
    /// `credential(for:)` would answer it with.
    ///
    /// - Parameter space: the protection space whose credentials to forget.
    /// - Returns: how many were forgotten: the session's credentials plus the keychain identities
    ///   deleted.
    /// - Throws: the store's `KeychainError` when it cannot be searched or an item cannot be deleted
    ///   (`locked`, `timeout(_:)`, for example); an item another writer deleted meanwhile is not an
    ///   error.
    @discardableResult
    public func remove(space: ProtectionSpace) async throws -> Int {
        let forgotten = await session.remove(space: space)
        return try await forgotten
            + delete(items(of: space.host).filter { rank(of: $0, for: space) == 0 })
    }

    /// Forgets the session's credentials of `host` and deletes every internet password of it in
    /// `accessGroup`, whatever its protocol, port, path, realm or account.
    ///
    /// - Parameter host: the host whose credentials to forget (compared in its canonical form).
    /// - Returns: how many were forgotten: the session's credentials plus the keychain identities
    ///   deleted.
    /// - Throws: the store's `KeychainError` when it cannot be searched or an item cannot be deleted
    ///   (`locked`, `timeout(_:)`, for example); an item another writer deleted meanwhile is not an
    ///   error.
    @discardableResult
    public func removeAll(host: String) async throws -> Int {
        let forgotten = await session.removeAll(host: host)
        return try await forgotten + delete(items(of: ProtectionSpace.canonicalHost(host)))
    }

    /// The internet passwords of `host` in `accessGroup`, newest first, without secrets.
    private func items(of host: String) async throws(KeychainError) -> [CredentialItem] {
        let query = CredentialQuery(itemClass: .internetPassword, accessGroup: accessGroup, server: host)
        return try await store.search(query, timeout: timeout).filter { $0.identity.accessGroup == accessGroup }
    }

    /// `space.rank(of:)` of an internet password item (the only kind `items(of:)` returns).
    private func rank(of item: CredentialItem, for space: ProtectionSpace) -> Int? {
        item.identity.internetLocation.flatMap(space.rank(of:))
    }

    /// Deletes each item's identity; returns how many identities were deleted.
    private func delete(_ items: [CredentialItem]) async throws(KeychainError) -> Int {
        var deleted = 0
        for identity in Set(items.map(\.identity)) {
            do {
                try await store.delete(identity, timeout: timeout)
                deleted += 1
            } catch .notFound {
                continue  // removed meanwhile by another writer
            }
        }
        return deleted
    }
}
