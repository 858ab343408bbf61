import SecCrypto

/// Which items a search returns: every part that is set must match exactly; unset parts match
/// anything (`SecItemCopyMatching`'s query dictionary).
///
/// ```swift
/// var query = CredentialQuery(accessGroup: "ci-tools")
/// query.service = "api.example.com"
/// let items = try store.search(query, timeout: .seconds(5))   // attributes only, no secrets
/// ```
public struct CredentialQuery: Hashable, Sendable {
    /// How many items a search returns.
    public enum Limit: Hashable, Sendable {
        /// The single matching identity: more than one throws `ambiguous`. (Copies of one identity
        /// left by an interrupted writer count once; the most recently modified is returned.)
        case one
        /// Every matching item, most recently modified first.
        case all
    }

    /// The item class an item must have.
    public enum ItemClass: String, Hashable, Sendable, CaseIterable {
        case genericPassword = "generic"
        case internetPassword = "internet"
    }

    public var itemClass: ItemClass?
    public var service: String?
    public var account: String?
    public var accessGroup: String?
    public var server: String?
    public var `protocol`: String?
    public var port: Int?
    public var path: String?
    public var authenticationType: String?
    /// The HTTP realm of an internet password.
    public var realm: String?
    public var limit: Limit
    /// Whether returned items carry their secrets. Off by default: listing never loads secrets.
    public var includeSecrets: Bool

    /// A query of the parts given; every part left nil matches anything.
    ///
    /// - Parameters:
    ///   - itemClass: the item class; nil (the default) for both.
    ///   - service: a generic password's service.
    ///   - account: the account.
    ///   - accessGroup: the access group.
    ///   - server: an internet password's server.
    ///   - protocol: an internet password's protocol.
    ///   - port: an internet password's port.
    ///   - path: an internet password's path.
    ///   - authenticationType: an internet password's authentication type.
    ///   - realm: an internet password's HTTP realm.
    ///   - limit: every matching item (the default), or the single matching identity.
    ///   - includeSecrets: whether the items found carry their secrets (false by default: listing never
    ///     loads secrets).
    public init(
        itemClass: ItemClass? = nil,
        service: String? = nil,
        account: String? = nil,
        accessGroup: String? = nil,
        server: String? = nil,
        protocol: String? = nil,
        port: Int? = nil,
        path: String? = nil,
        authenticationType: String? = nil,
        realm: String? = nil,
        limit: Limit = .all,
        includeSecrets: Bool = false
    ) {
        self.itemClass = itemClass
        self.service = service
        self.account = account
        self.accessGroup = accessGroup
        self.server = server
        self.protocol = `protocol`
        self.port = port
        self.path = path
        self.authenticationType = authenticationType
        self.realm = realm
        self.limit = limit
        self.includeSecrets = includeSecrets
    }

    /// True when `identity` has every part this query sets.
    ///
    /// - Parameter identity: the identity of an item.
    /// - Returns: true when every part the query sets equals `identity`'s.
    public func matches(_ identity: CredentialIdentity) -> Bool {
        func agrees<T: Equatable>(_ wanted: T?, _ actual: T?) -> Bool { wanted == nil || wanted == actual }
        let location = identity.internetLocation
        let actualClass: ItemClass = location == nil ? .genericPassword : .internetPassword
        return agrees(itemClass, actualClass) && agrees(service, identity.service) && agrees(account, identity.account)
            && agrees(accessGroup, identity.accessGroup) && agrees(server, location?.server)
            && agrees(`protocol`, location?.protocol) && agrees(port, location?.port) && agrees(path, location?.path)
            && agrees(authenticationType, location?.authenticationType) && agrees(realm, location?.realm)
    }
}

extension CredentialQuery {
    /// `found` sorted most recently modified first and cut to `limit`: for `.one`, the newest copy
    /// of the single matching identity; none throws `missing()`, several identities `ambiguous`.
    package func applyingLimit(
        to found: [CredentialItem],
        missing: () throws(KeychainError) -> KeychainError
    ) throws(KeychainError) -> [CredentialItem] {
        let sorted = found.sorted { ($0.modified ?? .distantPast) > ($1.modified ?? .distantPast) }
        guard limit == .one else { return sorted }
        guard let newest = sorted.first else { throw try missing() }
        let identities = Set(sorted.map(\.identity)).count
        guard identities == 1 else { throw .ambiguous(count: identities) }
        return [newest]
    }
}
