import SecCrypto

/// Single sign-on for a family of tools that share an access group (the enterprise-SSO pattern of
/// iOS apps sharing a keychain group): one tool logs the user in, every tool of the group then
/// finds the token, until it expires or a tool logs out.
///
/// Two generic-password items in the group, both with service `service`: account `user` holds the
/// user name, account `token` holds the token and its expiry. Logging out deletes the token and
/// keeps the user name, so the next login can suggest it.
///
/// The Secret Service lets every process of the same user read unlocked items: the group is a
/// shared namespace, not an isolation boundary between tools.
///
/// ```swift
/// let sso = SingleSignOn(group: "acme-tools")
/// try sso.login(user: "alice", token: token, expiresAt: Date().addingTimeInterval(3600))
/// // …in another tool of the group:
/// if let token = try SingleSignOn(group: "acme-tools").currentToken() { use(token) }
/// ```
public struct SingleSignOn: Sendable {
    /// The access group the tools share.
    public let group: String
    /// The service name of the two items.
    public let service: String
    /// The timeout of each store call.
    public let timeout: Duration
    private let store: any CredentialStore

    /// The SSO state of `group` in `store` (the Secret Service unless another store is given).
    ///
    /// - Parameters:
    ///   - group: the access group the tools share.
    ///   - store: the keychain the two items are kept in (the Secret Service by default).
    ///   - service: the service name of the two items (`seckit-sso` by default).
    ///   - timeout: the timeout of each store call (10 s by default).
    public init(
        group: String,
        store: any CredentialStore = SecretServiceStore(),
        service: String = "seckit-sso",
        timeout: Duration = defaultKeychainTimeout
    ) {
        self.group = group
        self.service = service
        self.timeout = timeout
        self.store = store
    }

    private var userIdentity: CredentialIdentity {
        .genericPassword(service: service, account: "user", accessGroup: group)
    }
    private var tokenIdentity: CredentialIdentity {
        .genericPassword(service: service, account: "token", accessGroup: group)
    }

    /// Stores the user name and the token (with its expiry) for every tool of the group.
    ///
    /// - Parameters:
    ///   - user: the user name; not empty.
    ///   - token: the token's bytes.
    ///   - expiresAt: when the token stops being valid; nil for never.
    /// - Throws: ``KeychainError/invalidAttribute(_:)`` for an empty `user` or one with a NUL
    ///   character, or an empty `group`; what `CredentialStore.upsert(_:secret:attributes:timeout:)`
    ///   throws when an item cannot be written (``KeychainError/locked``,
    ///   ``KeychainError/timeout(_:)``, ``KeychainError/secretTooLarge(limit:)``, for example). The
    ///   user name is written first: when the token cannot be, the old token, if any, is kept.
    public func login(user: String, token: some ContiguousBytes, expiresAt: Date?) throws(KeychainError) {
        try ItemAttributes.validate(.genericPassword(service: service, account: user, accessGroup: group))
        try store.upsert(
            userIdentity,
            string: user,
            attributes: CredentialAttributes(label: "SSO user of \(group)"),
            timeout: timeout
        )
        let attributes = CredentialAttributes(label: "SSO token of \(user) for \(group)", expiresAt: expiresAt)
        try store.upsert(tokenIdentity, secret: token, attributes: attributes, timeout: timeout)
    }

    /// Stores the user name and a UTF-8 token.
    ///
    /// - Parameters:
    ///   - user: the user name; not empty.
    ///   - token: the token, stored as its UTF-8 bytes.
    ///   - expiresAt: when the token stops being valid; nil for never.
    /// - Throws: ``KeychainError/invalidAttribute(_:)`` for an empty `user` or one with a NUL
    ///   character, or an empty `group`; what `CredentialStore.upsert(_:secret:attributes:timeout:)`
    ///   throws when an item cannot be written (``KeychainError/locked``,
    ///   ``KeychainError/timeout(_:)``, ``KeychainError/secretTooLarge(limit:)``, for example). The
    ///   user name is written first: when the token cannot be, the old token, if any, is kept.
    public func login(user: String, token: String, expiresAt: Date?) throws(KeychainError) {
        try login(user: user, token: SecureBytes(utf8: token), expiresAt: expiresAt)
    }

    /// Whether the group has a token, and whether it is still valid.
    public enum TokenState: Sendable, Equatable {
        /// Nobody is logged in (never, or logged out).
        case absent
        /// A token that expired at the given date.
        case expired(Date)
        /// A valid token, with its expiry if it has one.
        case valid(SecureBytes, expiresAt: Date?)
    }

    /// The state of the group's token at `now`.
    ///
    /// - Parameter now: the time the expiry is compared with (now by default).
    /// - Returns: ``SingleSignOn/TokenState/absent`` when there is no token,
    ///   ``SingleSignOn/TokenState/expired(_:)`` with its expiry when it expired at or before `now`,
    ///   ``SingleSignOn/TokenState/valid(_:expiresAt:)`` otherwise.
    /// - Throws: what `CredentialStore.expiringSecret(for:timeout:)` throws but
    ///   ``KeychainError/notFound``: ``KeychainError/locked``, ``KeychainError/timeout(_:)``,
    ///   ``KeychainError/noSessionBus(_:)``, for example.
    public func tokenState(now: Date = Date()) throws(KeychainError) -> TokenState {
        let token: ExpiringSecret
        do {
            token = try store.expiringSecret(for: tokenIdentity, timeout: timeout)
        } catch .notFound {
            return .absent
        }
        if let expiresAt = token.expiresAt, token.isExpired(at: now) { return .expired(expiresAt) }
        return .valid(token.secret, expiresAt: token.expiresAt)
    }

    /// The token, while there is one that has not expired at `now`; nil otherwise.
    ///
    /// - Parameter now: the time the expiry is compared with (now by default).
    /// - Returns: the token, or nil when there is none or it has expired.
    /// - Throws: what `CredentialStore.expiringSecret(for:timeout:)` throws but
    ///   ``KeychainError/notFound``: ``KeychainError/locked``, ``KeychainError/timeout(_:)``,
    ///   ``KeychainError/noSessionBus(_:)``, for example.
    public func currentToken(now: Date = Date()) throws(KeychainError) -> SecureBytes? {
        guard case .valid(let token, _) = try tokenState(now: now) else { return nil }
        return token
    }

    /// The user name of the last login, kept after logout; nil if nobody ever logged in.
    ///
    /// - Returns: the user name, or nil when nobody ever logged in.
    /// - Throws: what ``CredentialStore/string(for:timeout:)`` throws but ``KeychainError/notFound``:
    ///   ``KeychainError/locked``, ``KeychainError/timeout(_:)``, ``KeychainError/noSessionBus(_:)``,
    ///   for example.
    public func currentUser() throws(KeychainError) -> String? {
        do {
            return try store.string(for: userIdentity, timeout: timeout)
        } catch .notFound {
            return nil
        }
    }

    /// Deletes the token and keeps the user name. Logging out twice is not an error.
    ///
    /// - Throws: what `CredentialStore.delete(_:timeout:)` throws but ``KeychainError/notFound``:
    ///   ``KeychainError/locked``, ``KeychainError/timeout(_:)``, ``KeychainError/noSessionBus(_:)``,
    ///   for example.
    public func logout() throws(KeychainError) {
        do {
            try store.delete(tokenIdentity, timeout: timeout)
        } catch .notFound {
            return
        }
    }
}
