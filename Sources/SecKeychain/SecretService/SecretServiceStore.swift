import SecCrypto

/// The user's keychain on the freedesktop Secret Service (gnome-keyring, KeePassXC, KWallet),
/// reached over the D-Bus session bus: reads through GIO's D-Bus calls directly, writes through libsecret.
///
/// Items are found in every collection and created in `collection`: the default one ("login"),
/// or the session collection for items that end with the user's session. Their
/// attributes are the ones `secret-tool` and Python `keyring` use, so each finds the others' items
/// (see docs/SecKeychain.md). Writers in every SecKit process of the user are serialised by an
/// advisory lock in `$XDG_RUNTIME_DIR`; an update never leaves a moment without the item.
///
/// Every unlocked item is readable by every process of the same user: access groups organise
/// items, they do not isolate them.
public struct SecretServiceStore: CredentialStore {
    /// Where `upsert` keeps items; every other call covers every collection.
    public let collection: SecretServiceCollection

    /// The user's Secret Service, keeping the items it writes in `collection`.
    ///
    /// - Parameter collection: where `upsert` creates items: the default collection (the login keyring,
    ///   the default) or the session collection.
    public init(collection: SecretServiceCollection = .default) {
        self.collection = collection
    }

    public func upsert(
        _ identity: CredentialIdentity,
        secret: some ContiguousBytes,
        attributes: CredentialAttributes,
        timeout: Duration
    ) throws(KeychainError) {
        try Self.validate(identity, attributes, secret: secret)
        let session = try SecretServiceSession(deadline: OperationDeadline(timeout))
        let pairs = ItemAttributes.pairs(for: identity, attributes)
        let label = attributes.label ?? ItemAttributes.defaultLabel(for: identity)
        let writer = try SecretServiceWriter(session, writingSecrets: true)
        try FileLock(path: SessionBus.writerLockPath).withExclusiveLock(until: session.deadline) {
            () throws(KeychainError) in
            var existing = try IdentityLookup(identity, in: session).items(reading: .label, loadingSecrets: false)
            if existing.count > 1 { existing = try session.read(.created, of: existing, loadingSecrets: false) }
            // Keep the oldest copy (its creation date stays) and update it in place; remove the others.
            let kept = try keepable(existing, in: session)
                .min { ($0.created ?? .distantFuture) < ($1.created ?? .distantFuture) }
            try secret.withBytes { (bytes) throws(KeychainError) in
                if let kept {
                    try writer.update(
                        kept,
                        pairs: ItemAttributes.updating(kept.pairs, to: pairs),
                        label: label,
                        secret: bytes
                    )
                } else {
                    try writer.create(
                        pairs,
                        label: label,
                        secret: bytes,
                        isInternetPassword: identity.service == nil,
                        in: collection
                    )
                }
            }
            for stray in existing where stray.path != kept?.path {
                try writer.delete(stray)
            }
        }
    }

    /// The copies `upsert` may update in place: any for the default collection; for the session
    /// collection only those in it (one `ReadAlias` tells its path), so an item stored for the
    /// session never stays in the login keyring.
    private func keepable(
        _ existing: [ServiceItem],
        in session: SecretServiceSession
    ) throws(KeychainError)
        -> [ServiceItem]
    {
        guard collection == .session, !existing.isEmpty else { return existing }
        guard let path = try session.collectionPath(alias: collection.alias) else { return [] }
        return existing.filter { $0.path.hasPrefix(path + "/") }
    }

    public func item(
        for identity: CredentialIdentity,
        includeSecret: Bool,
        timeout: Duration
    ) throws(KeychainError) -> CredentialItem {
        try ItemAttributes.validate(identity)
        let session = try SecretServiceSession(deadline: OperationDeadline(timeout))
        let item = try IdentityLookup(identity, in: session).item(reading: .all, loadingSecret: includeSecret)
        return Self.credentialItem(identity, item)
    }

    /// One `SearchItems`, then the item's `Attributes` (for the expiry) and its secret, together.
    ///
    /// - Parameters:
    ///   - identity: the item's identity.
    ///   - timeout: how long the call may take.
    /// - Returns: the secret and the expiry stored in the item's attributes (nil when it has none).
    /// - Throws: ``KeychainError/notFound`` when no item has exactly this identity, or
    ///   ``KeychainError/locked`` when the keyring is locked and might hold it;
    ///   ``KeychainError/invalidAttribute(_:)`` for an identity no store can keep (an empty or
    ///   NUL-containing part, a port outside 1 to 65535); ``KeychainError/timeout(_:)`` when the call
    ///   does not finish within `timeout`, ``KeychainError/noSessionBus(_:)``,
    ///   ``KeychainError/noSecretService(_:)``, or ``KeychainError/backendFailure(_:)`` for a failure
    ///   of the service.
    public func expiringSecret(
        for identity: CredentialIdentity,
        timeout: Duration
    ) throws(KeychainError) -> ExpiringSecret {
        try ItemAttributes.validate(identity)
        let session = try SecretServiceSession(deadline: OperationDeadline(timeout))
        let (item, secret) = try IdentityLookup(identity, in: session).itemAndSecret(reading: .attributes)
        return ExpiringSecret(secret: secret, expiresAt: ItemAttributes.expiry(from: item.pairs))
    }

    /// When SecKit wrote the item: its `SearchItems` by `seckit-id` (with the `OpenSession` of the
    /// process's first read) and one `GetSecrets`; items of other tools, copies and locked items take
    /// the path of `expiringSecret(for:)`.
    ///
    /// - Parameters:
    ///   - identity: the item's identity.
    ///   - timeout: how long the call may take.
    /// - Returns: the secret, in memory that is wiped on release.
    /// - Throws: ``KeychainError/notFound`` when no item has exactly this identity, or
    ///   ``KeychainError/locked`` when the keyring is locked and might hold it;
    ///   ``KeychainError/invalidAttribute(_:)`` for an identity no store can keep (an empty or
    ///   NUL-containing part, a port outside 1 to 65535); ``KeychainError/timeout(_:)`` when the call
    ///   does not finish within `timeout`, ``KeychainError/noSessionBus(_:)``,
    ///   ``KeychainError/noSecretService(_:)``, or ``KeychainError/backendFailure(_:)`` for a failure
    ///   of the service.
    public func secret(for identity: CredentialIdentity, timeout: Duration) throws(KeychainError) -> SecureBytes {
        try ItemAttributes.validate(identity)
        let session = try SecretServiceSession(deadline: OperationDeadline(timeout))
        let fingerprint = [ItemAttributes.fingerprint: ItemAttributes.fingerprint(of: identity)]
        let found = try session.searchPaths([fingerprint])[0]
        if let path = found.onlyUnlocked, let secret = try session.secret(at: path) {
            return secret
        }
        return try IdentityLookup(identity, in: session).itemAndSecret(reading: []).secret
    }

    public func delete(_ identity: CredentialIdentity, timeout: Duration) throws(KeychainError) {
        try ItemAttributes.validate(identity)
        let session = try SecretServiceSession(deadline: OperationDeadline(timeout))
        try FileLock(path: SessionBus.writerLockPath).withExclusiveLock(until: session.deadline) {
            () throws(KeychainError) in
            let found = try IdentityLookup(identity, in: session).items(reading: [], loadingSecrets: false)
            guard !found.isEmpty else { throw try session.missing() }
            let writer = try SecretServiceWriter(session, writingSecrets: false)
            for item in found { try writer.delete(item) }
        }
    }

    /// The query's searches, then the attributes of the items found (at once), then one `Delete` per
    /// matching item, under the writer lock. A locked item among the results deletes nothing: `locked`.
    ///
    /// - Parameters:
    ///   - query: the items to delete; an empty query matches every item.
    ///   - timeout: how long the call may take.
    /// - Returns: how many items were deleted; at least one.
    /// - Throws: ``KeychainError/notFound`` when no item matches; ``KeychainError/locked``, deleting
    ///   nothing, when a locked item could match; ``KeychainError/timeout(_:)`` when the call does not
    ///   finish within `timeout`, ``KeychainError/noSessionBus(_:)``,
    ///   ``KeychainError/noSecretService(_:)``, or ``KeychainError/backendFailure(_:)`` for a failure
    ///   of the service.
    public func deleteAll(matching query: CredentialQuery, timeout: Duration) throws(KeychainError) -> Int {
        let session = try SecretServiceSession(deadline: OperationDeadline(timeout))
        return try FileLock(path: SessionBus.writerLockPath).withExclusiveLock(until: session.deadline) {
            () throws(KeychainError) -> Int in
            let matching = try Self.items(matching: query, in: session, reading: .attributes, loadingSecrets: false)
            guard !matching.isEmpty else { throw try session.missing() }
            let writer = try SecretServiceWriter(session, writingSecrets: false)
            for (_, item) in matching { try writer.delete(item) }
            return matching.count
        }
    }

    /// The query's searches (one, or one per name of the account when it names one), sent together;
    /// then the properties of every item found and their secrets, at once. A locked item among the results
    /// means the answer is unknown: `locked`.
    ///
    /// - Parameters:
    ///   - query: what the items must match, how many to return, and whether with their secrets.
    ///   - timeout: how long the call may take.
    /// - Returns: the matching items, most recently modified first (one at most with `limit: .one`).
    /// - Throws: ``KeychainError/locked`` when a locked item could match; with `limit: .one`,
    ///   ``KeychainError/notFound`` when no item matches and ``KeychainError/ambiguous(count:)`` when
    ///   items of several identities do; ``KeychainError/timeout(_:)`` when the call does not finish
    ///   within `timeout`, ``KeychainError/noSessionBus(_:)``, ``KeychainError/noSecretService(_:)``,
    ///   or ``KeychainError/backendFailure(_:)`` for a failure of the service.
    public func search(_ query: CredentialQuery, timeout: Duration) throws(KeychainError) -> [CredentialItem] {
        let session = try SecretServiceSession(deadline: OperationDeadline(timeout))
        let matching = try Self.items(matching: query, in: session, reading: .all, loadingSecrets: query.includeSecrets)
            .map { identity, item in Self.credentialItem(identity, item) }
        return try query.applyingLimit(to: matching) { () throws(KeychainError) in try session.missing() }
    }

    /// The items `query` matches, with their identities and `properties`: what its searches find
    /// (`locked` when that includes a locked item), narrowed to the items whose identity it matches.
    private static func items(
        matching query: CredentialQuery,
        in session: SecretServiceSession,
        reading properties: ItemProperties,
        loadingSecrets: Bool
    ) throws(KeychainError) -> [(CredentialIdentity, ServiceItem)] {
        let found = try session.searchPaths(ItemAttributes.searches(for: query))
        let items = try session.read(properties, of: try found.unlockedItems(), loadingSecrets: loadingSecrets)
        return items.compactMap { item in
            guard let identity = ItemAttributes.identity(from: item.pairs), query.matches(identity) else { return nil }
            return (identity, item)
        }
    }

    private static func credentialItem(_ identity: CredentialIdentity, _ item: ServiceItem) -> CredentialItem {
        CredentialItem(
            identity: identity,
            label: item.label,
            comment: item.pairs[ItemAttributes.comment],
            expiresAt: ItemAttributes.expiry(from: item.pairs),
            created: item.created,
            modified: item.modified,
            secret: item.secret
        )
    }
}
