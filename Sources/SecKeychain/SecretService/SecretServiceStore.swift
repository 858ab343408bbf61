import SecCrypto

/// The user's keychain on the freedesktop Secret Service (gnome-keyring, KeePassXC, KWallet),
/// reached over the D-Bus session bus: reads through GIO's D-Bus calls directly, writes through libsecret.
///
/// Items are found in every collection and created in the default one ("login"). Their
/// attributes are the ones `secret-tool` and Python `keyring` use, so each finds the others' items
/// (see docs/SecKeychain.md). Writers in every SecKit process of the user are serialised by an
/// advisory lock in `$XDG_RUNTIME_DIR`; an update never leaves a moment without the item.
///
/// Every unlocked item is readable by every process of the same user: access groups organise
/// items, they do not isolate them.
public struct SecretServiceStore: CredentialStore {
    public init() {}

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
        let writer = try SecretServiceWriter(session)
        try FileLock(path: SessionBus.writerLockPath).withExclusiveLock(until: session.deadline) {
            () throws(KeychainError) in
            let existing = try items(of: identity, in: session, loadSecrets: false, firstHitOnly: false)
            // Keep the oldest copy (its creation date stays) and update it in place; remove the others.
            let kept = existing.min { ($0.created ?? .distantFuture) < ($1.created ?? .distantFuture) }
            try secret.withBytes { (bytes) throws(KeychainError) in
                if let kept {
                    try writer.update(
                        kept,
                        pairs: ItemAttributes.updating(kept.pairs, to: pairs),
                        label: label,
                        secret: bytes
                    )
                } else {
                    try writer.create(pairs, label: label, secret: bytes, isInternetPassword: identity.service == nil)
                }
            }
            for stray in existing where stray.path != kept?.path {
                try writer.delete(stray)
            }
        }
    }

    public func item(
        for identity: CredentialIdentity,
        includeSecret: Bool,
        timeout: Duration
    ) throws(KeychainError) -> CredentialItem {
        try ItemAttributes.validate(identity)
        let session = try SecretServiceSession(deadline: OperationDeadline(timeout))
        return Self.credentialItem(identity, try newestItem(of: identity, in: session, loadSecret: includeSecret))
    }

    /// When SecKit wrote the item: its `SearchItems` by `seckit-id` (with the `OpenSession` of the
    /// process's first read) and one `GetSecrets`; items of other tools, copies and locked items take
    /// the path of `item(for:)`.
    public func secret(for identity: CredentialIdentity, timeout: Duration) throws(KeychainError) -> SecureBytes {
        try ItemAttributes.validate(identity)
        let session = try SecretServiceSession(deadline: OperationDeadline(timeout))
        let found = try session.searchPaths([Self.fingerprintSearch(identity)], preparingSecrets: true)[0]
        if let path = found.onlyUnlocked, let secret = try session.secret(at: path) {
            return secret
        }
        guard let secret = try newestItem(of: identity, in: session, loadSecret: true).secret else {
            throw .backendFailure("the item's secret could not be loaded")
        }
        return secret
    }

    public func delete(_ identity: CredentialIdentity, timeout: Duration) throws(KeychainError) {
        try ItemAttributes.validate(identity)
        let session = try SecretServiceSession(deadline: OperationDeadline(timeout))
        try FileLock(path: SessionBus.writerLockPath).withExclusiveLock(until: session.deadline) {
            () throws(KeychainError) in
            let found = try items(of: identity, in: session, loadSecrets: false, firstHitOnly: false)
            guard !found.isEmpty else { throw try missing(in: session) }
            let writer = try SecretServiceWriter(session)
            for item in found { try writer.delete(item) }
        }
    }

    public func search(_ query: CredentialQuery, timeout: Duration) throws(KeychainError) -> [CredentialItem] {
        let session = try SecretServiceSession(deadline: OperationDeadline(timeout))
        let found = try items(matching: query, in: session, firstHitOnly: false)
        return try query.applyingLimit(to: found.map { Self.credentialItem($0.identity, $0.item) }) {
            () throws(KeychainError) in
            try missing(in: session)
        }
    }

    // MARK: - Matching

    /// The most recently modified item with exactly `identity`: the one SecKit wrote, found by its
    /// `seckit-id`; otherwise (items of other tools, copies, locked items) by the first of the query's
    /// searches that finds any. The `seckit-id` search, the query's first search and the
    /// `OpenSession` of the process's first read go out at once; then the chosen items' `GetAll`
    /// and `GetSecrets` (when asked), at once.
    private func newestItem(
        of identity: CredentialIdentity,
        in session: SecretServiceSession,
        loadSecret: Bool
    ) throws(KeychainError) -> ServiceItem {
        let query = ItemAttributes.query(for: identity, includeSecrets: loadSecret)
        let firstSearch = ItemAttributes.searches(for: query)[0]
        let found = try session.searchPaths(
            [Self.fingerprintSearch(identity), firstSearch],
            preparingSecrets: loadSecret
        )
        if let path = found[0].onlyUnlocked, let item = try session.items(at: [path], loadSecrets: loadSecret).first,
            ItemAttributes.identity(from: item.pairs) == identity && (item.secret != nil || !loadSecret)
        {
            return item
        }
        let newest = try items(
            matching: query,
            in: session,
            firstHitOnly: true,
            exactly: identity,
            firstSearchFound: found[1]
        ).first
        guard let newest else { throw try missing(in: session) }
        return newest.item
    }

    /// The items with exactly `identity`, most recently modified first.
    private func items(
        of identity: CredentialIdentity,
        in session: SecretServiceSession,
        loadSecrets: Bool,
        firstHitOnly: Bool
    ) throws(KeychainError) -> [ServiceItem] {
        let query = ItemAttributes.query(for: identity, includeSecrets: loadSecrets)
        return try items(matching: query, in: session, firstHitOnly: firstHitOnly, exactly: identity).map(\.item)
    }

    /// The items matching `query` (and `exactly` an identity, when given), most recently modified
    /// first. Runs the query's searches all at once, or in turn when `firstHitOnly`, stopping at the
    /// first that finds something (`firstSearchFound`: what the first search found, when already
    /// known); then loads what they found at once. A locked item among the results means the answer
    /// is unknown: `locked`.
    private func items(
        matching query: CredentialQuery,
        in session: SecretServiceSession,
        firstHitOnly: Bool,
        exactly identity: CredentialIdentity? = nil,
        firstSearchFound: ItemPaths? = nil
    ) throws(KeychainError) -> [(identity: CredentialIdentity, item: ServiceItem)] {
        var searches = ArraySlice(ItemAttributes.searches(for: query))
        var seen: Set<String> = []
        var found: [(identity: CredentialIdentity, item: ServiceItem)] = []
        var results = firstSearchFound.map { [$0] } ?? []
        repeat {
            if results.isEmpty {
                results = try session.searchPaths(
                    Array(firstHitOnly ? searches.prefix(1) : searches),
                    preparingSecrets: false
                )
            }
            searches.removeFirst(results.count)
            guard results.allSatisfy(\.locked.isEmpty) else { throw .locked }
            let paths = results.flatMap(\.unlocked).filter { seen.insert($0).inserted }
            for item in try session.items(at: paths, loadSecrets: query.includeSecrets) {
                if item.isLocked { throw .locked }
                guard let itemIdentity = ItemAttributes.identity(from: item.pairs), query.matches(itemIdentity),
                    identity == nil || itemIdentity == identity
                else { continue }
                found.append((itemIdentity, item))
            }
            results = []
        } while !searches.isEmpty && !(firstHitOnly && !found.isEmpty)
        return found.sorted { ($0.item.modified ?? .distantPast) > ($1.item.modified ?? .distantPast) }
    }

    /// The search for the items SecKit wrote for `identity`: its `seckit-id`.
    private static func fingerprintSearch(_ identity: CredentialIdentity) -> [String: String] {
        [ItemAttributes.fingerprint: ItemAttributes.fingerprint(of: identity)]
    }

    /// `locked` when the default collection is locked (a search cannot see into it, so the item may
    /// be there), `notFound` otherwise.
    private func missing(in session: SecretServiceSession) throws(KeychainError) -> KeychainError {
        try session.defaultCollectionIsLocked() ? .locked : .notFound
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
