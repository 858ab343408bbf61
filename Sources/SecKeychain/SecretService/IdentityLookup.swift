import SecCrypto

/// Finds the items of one identity in the Secret Service with one `SearchItems` in the common case.
///
/// gnome-keyring answers every call by going through all its items (a search, and also the look-up
/// of an item by path behind each `Get` of a property and each secret), so what a lookup costs is the
/// number of such calls. The first search is the one that finds the identity's items whoever wrote
/// them (`ItemAttributes.commonSearch`: the account left out, since writers name it differently);
/// it decides the answer on its own when it finds nothing, and otherwise the `Attributes` of each
/// item found tell which ones are the identity's. Only when it finds more than `attributeReadLimit`
/// items (a service with many accounts), or a locked one, do the searches by account decide instead.
struct IdentityLookup {
    let identity: CredentialIdentity
    let session: SecretServiceSession

    /// How many items the first search may find before the searches by account are cheaper than
    /// reading each one's attributes. Reading n items costs gnome-keyring n property reads; the
    /// searches by account cost two searches and a read; a search costs it one to two reads, more
    /// as the keyring grows (docs/performance-journal.md), so past three items the searches win.
    static let attributeReadLimit = 3

    init(_ identity: CredentialIdentity, in session: SecretServiceSession) {
        self.identity = identity
        self.session = session
    }

    /// Every item with exactly the identity, with its attributes and `properties`, and its secret
    /// when `loadingSecrets`. Empty when the identity has no item (no locked item could be one of its).
    func items(reading properties: ItemProperties, loadingSecrets: Bool) throws(KeychainError) -> [ServiceItem] {
        let (matches, complete) = try matches(reading: properties, loadingSecrets: loadingSecrets)
        return complete
            ? matches
            : try session.read(properties.subtracting(.attributes), of: matches, loadingSecrets: loadingSecrets)
    }

    /// The identity's item, with its attributes and `properties`, and its secret when `loadingSecret`:
    /// when there are copies (another tool added one, or a writer was interrupted), the one SecKit
    /// wrote (its `seckit-id`), else the most recently modified. `locked` or `notFound` when there is none.
    func item(reading properties: ItemProperties, loadingSecret: Bool) throws(KeychainError) -> ServiceItem {
        let (matches, complete) = try matches(reading: properties, loadingSecrets: loadingSecret)
        guard let chosen = try chosen(among: matches) else { throw try session.missing() }
        return complete
            ? chosen
            : try session.read(properties.subtracting(.attributes), of: [chosen], loadingSecrets: loadingSecret)[0]
    }

    /// The identity's item (as `item(reading:loadingSecret:)`) and its secret.
    func itemAndSecret(
        reading properties: ItemProperties
    ) throws(KeychainError) -> (item: ServiceItem, secret: SecureBytes) {
        let item = try item(reading: properties, loadingSecret: true)
        guard let secret = item.secret else { throw .backendFailure("the item's secret could not be loaded") }
        return (item, secret)
    }

    /// The candidates that have the identity. When there is one candidate (the common case), it is
    /// read with everything asked for in one round trip, and `complete` is true (a secret read for
    /// another account's item is dropped with it); otherwise the candidates' attributes are read first.
    private func matches(
        reading properties: ItemProperties,
        loadingSecrets: Bool
    ) throws(KeychainError) -> (items: [ServiceItem], complete: Bool) {
        let candidates = try candidates()
        let complete = candidates.count == 1
        let read = try session.read(
            complete ? properties.union(.attributes) : .attributes,
            of: candidates,
            loadingSecrets: complete && loadingSecrets
        )
        return (read.filter(hasIdentity), complete)
    }

    /// Which of several copies of the identity a read returns.
    private func chosen(among matches: [ServiceItem]) throws(KeychainError) -> ServiceItem? {
        guard matches.count > 1 else { return matches.first }
        let fingerprint = ItemAttributes.fingerprint(of: identity)
        let own = matches.filter { $0.pairs[ItemAttributes.fingerprint] == fingerprint }
        if own.count == 1 { return own[0] }
        return try session.read(.modified, of: matches, loadingSecrets: false)
            .max { ($0.modified ?? .distantPast) < ($1.modified ?? .distantPast) }
    }

    /// The items that may be the identity's: what the first search found, or, when that is more
    /// than `attributeReadLimit` items or a locked one is among them, what the searches by account
    /// found (sent together). A locked item among those is `locked`: it may be the identity's.
    private func candidates() throws(KeychainError) -> [ServiceItem] {
        let common = try session.searchPaths([ItemAttributes.commonSearch(for: identity)])[0]
        if common.locked.isEmpty && common.unlocked.count <= Self.attributeReadLimit {
            return common.unlocked.map { ServiceItem(path: $0) }
        }
        return try session.searchPaths(ItemAttributes.accountSearches(for: identity))
            .unlockedItems()
    }

    private func hasIdentity(_ item: ServiceItem) -> Bool {
        ItemAttributes.identity(from: item.pairs) == identity
    }
}
