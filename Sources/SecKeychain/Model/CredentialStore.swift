import SecCrypto
import SecIO

/// A keychain: credentials kept under an identity, with the operations of `SecItemAdd/Update`
/// (`upsert`), `SecItemCopyMatching` (`item(for:)`, `search`) and `SecItemDelete` (`delete`).
///
/// Two implementations: `SecretServiceStore` (the user's desktop keyring over D-Bus) and
/// `EncryptedFileStore` (one AES-256-GCM file for machines without a Secret Service). Both throw
/// the same `KeychainError`s, and every call finishes or throws `timeout` within its `timeout`.
/// Every store is a `SecretKeyring`: `SecretSource.read(keyring: store)` reads `keyring:` sources from it.
///
/// ```swift
/// let store: any CredentialStore = SecretServiceStore()
/// let id = CredentialIdentity.genericPassword(service: "api.example.com", account: "deploy")
/// try store.upsert(id, string: token)
/// let secret = try store.secret(for: id)          // SecureBytes, wiped when released
/// ```
public protocol CredentialStore: SecretKeyring, Sendable {
    /// Stores `secret` under `identity`, replacing the secret and attributes of an existing item,
    /// and leaves exactly one item with that identity (stray copies are removed). Concurrent
    /// writers of the same store, in any process, are serialised. Secrets up to
    /// `maximumSecretByteCount` bytes, any bytes (NUL included).
    ///
    /// - Parameters:
    ///   - identity: the item's identity.
    ///   - secret: the secret's bytes, any bytes (NUL included), up to
    ///     ``CredentialStore/maximumSecretByteCount``.
    ///   - attributes: the label, comment and expiry to store with it.
    ///   - timeout: how long the call may take.
    /// - Throws: ``KeychainError/secretTooLarge(limit:)`` for a secret over
    ///   ``CredentialStore/maximumSecretByteCount`` bytes; ``KeychainError/invalidAttribute(_:)`` for
    ///   an identity no store can keep (an empty or NUL-containing part, a port outside 1 to 65535), or
    ///   attributes it cannot keep; ``KeychainError/locked`` when the keyring is locked; the Secret
    ///   Service's ``KeychainError/noDefaultCollection`` (or ``KeychainError/noSessionCollection``)
    ///   when it has no collection to create the item in; ``KeychainError/timeout(_:)`` when the call
    ///   does not finish within `timeout`; the Secret Service's ``KeychainError/noSessionBus(_:)``,
    ///   ``KeychainError/noSecretService(_:)`` and ``KeychainError/backendFailure(_:)``, or the
    ///   encrypted file's ``KeychainError/wrongStorePassword``, ``KeychainError/corruptStore(_:)`` and
    ///   ``KeychainError/io(path:reason:)``.
    func upsert(
        _ identity: CredentialIdentity,
        secret: some ContiguousBytes,
        attributes: CredentialAttributes,
        timeout: Duration
    ) throws(KeychainError)

    /// The item with exactly this identity, with its secret when `includeSecret` is true.
    /// Throws `notFound`, or `locked` when the keyring is locked and might hold it.
    ///
    /// - Parameters:
    ///   - identity: the item's identity.
    ///   - includeSecret: whether to load the secret into the item.
    ///   - timeout: how long the call may take.
    /// - Returns: the item, with its attributes and times, and its secret when `includeSecret` is true.
    /// - Throws: ``KeychainError/notFound`` when no item has exactly this identity, or
    ///   ``KeychainError/locked`` when the keyring is locked and might hold it;
    ///   ``KeychainError/invalidAttribute(_:)`` for an identity no store can keep (an empty or
    ///   NUL-containing part, a port outside 1 to 65535); ``KeychainError/timeout(_:)`` when the call
    ///   does not finish within `timeout`; the Secret Service's ``KeychainError/noSessionBus(_:)``,
    ///   ``KeychainError/noSecretService(_:)`` and ``KeychainError/backendFailure(_:)``, or the
    ///   encrypted file's ``KeychainError/wrongStorePassword``, ``KeychainError/corruptStore(_:)`` and
    ///   ``KeychainError/io(path:reason:)``.
    func item(
        for identity: CredentialIdentity,
        includeSecret: Bool,
        timeout: Duration
    ) throws(KeychainError) -> CredentialItem

    /// The secret stored under exactly this identity (what `item(for:includeSecret: true…)` holds,
    /// found with as few round trips as the backend allows).
    ///
    /// - Parameters:
    ///   - identity: the item's identity.
    ///   - timeout: how long the call may take.
    /// - Returns: the secret, in memory that is wiped on release.
    /// - Throws: ``KeychainError/notFound`` when no item has exactly this identity, or
    ///   ``KeychainError/locked`` when the keyring is locked and might hold it;
    ///   ``KeychainError/invalidAttribute(_:)`` for an identity no store can keep (an empty or
    ///   NUL-containing part, a port outside 1 to 65535); ``KeychainError/timeout(_:)`` when the call
    ///   does not finish within `timeout`; the Secret Service's ``KeychainError/noSessionBus(_:)``,
    ///   ``KeychainError/noSecretService(_:)`` and ``KeychainError/backendFailure(_:)``, or the
    ///   encrypted file's ``KeychainError/wrongStorePassword``, ``KeychainError/corruptStore(_:)`` and
    ///   ``KeychainError/io(path:reason:)``.
    func secret(for identity: CredentialIdentity, timeout: Duration) throws(KeychainError) -> SecureBytes

    /// The secret stored under exactly this identity with its expiry: what `item(for:includeSecret:
    /// true…)` holds of it, without reading the label and times when the backend can skip them.
    ///
    /// - Parameters:
    ///   - identity: the item's identity.
    ///   - timeout: how long the call may take.
    /// - Returns: the secret and its expiry (nil when the item has none).
    /// - Throws: ``KeychainError/notFound`` when no item has exactly this identity, or
    ///   ``KeychainError/locked`` when the keyring is locked and might hold it;
    ///   ``KeychainError/invalidAttribute(_:)`` for an identity no store can keep (an empty or
    ///   NUL-containing part, a port outside 1 to 65535); ``KeychainError/timeout(_:)`` when the call
    ///   does not finish within `timeout`; the Secret Service's ``KeychainError/noSessionBus(_:)``,
    ///   ``KeychainError/noSecretService(_:)`` and ``KeychainError/backendFailure(_:)``, or the
    ///   encrypted file's ``KeychainError/wrongStorePassword``, ``KeychainError/corruptStore(_:)`` and
    ///   ``KeychainError/io(path:reason:)``.
    func expiringSecret(for identity: CredentialIdentity, timeout: Duration) throws(KeychainError) -> ExpiringSecret

    /// Deletes every item with exactly this identity. Throws `notFound` when there is none.
    ///
    /// - Parameters:
    ///   - identity: the identity whose items to delete.
    ///   - timeout: how long the call may take.
    /// - Throws: ``KeychainError/notFound`` when no item has exactly this identity, or
    ///   ``KeychainError/locked`` when the keyring is locked and might hold it;
    ///   ``KeychainError/invalidAttribute(_:)`` for an identity no store can keep (an empty or
    ///   NUL-containing part, a port outside 1 to 65535); ``KeychainError/timeout(_:)`` when the call
    ///   does not finish within `timeout`; the Secret Service's ``KeychainError/noSessionBus(_:)``,
    ///   ``KeychainError/noSecretService(_:)`` and ``KeychainError/backendFailure(_:)``, or the
    ///   encrypted file's ``KeychainError/wrongStorePassword``, ``KeychainError/corruptStore(_:)`` and
    ///   ``KeychainError/io(path:reason:)``.
    func delete(_ identity: CredentialIdentity, timeout: Duration) throws(KeychainError)

    /// Deletes every item matching `query` (as `search` finds them; `limit` and `includeSecrets` do
    /// not apply) and returns how many were deleted, as `SecItemDelete` deletes all that a query
    /// matches: an empty query deletes every item. Throws `notFound` when none matches, and `locked`
    /// (deleting nothing) when a locked item could match.
    ///
    /// - Parameters:
    ///   - query: the items to delete; an empty query matches every item.
    ///   - timeout: how long the call may take.
    /// - Returns: how many items were deleted; at least one.
    /// - Throws: ``KeychainError/notFound`` when no item matches; ``KeychainError/locked``, deleting
    ///   nothing, when a locked item could match; ``KeychainError/timeout(_:)`` when the call does not
    ///   finish within `timeout`; the Secret Service's ``KeychainError/noSessionBus(_:)``,
    ///   ``KeychainError/noSecretService(_:)`` and ``KeychainError/backendFailure(_:)``, or the
    ///   encrypted file's ``KeychainError/wrongStorePassword``, ``KeychainError/corruptStore(_:)`` and
    ///   ``KeychainError/io(path:reason:)``.
    func deleteAll(matching query: CredentialQuery, timeout: Duration) throws(KeychainError) -> Int

    /// The items matching `query` (most recently modified first), with secrets only when
    /// `query.includeSecrets` is set. An empty result is not an error, except for `limit: .one`,
    /// which throws `notFound` (or `ambiguous` when several identities match).
    ///
    /// - Parameters:
    ///   - query: what the items must match, how many to return, and whether with their secrets.
    ///   - timeout: how long the call may take.
    /// - Returns: the matching items, most recently modified first (one at most with `limit: .one`).
    /// - Throws: ``KeychainError/locked`` when a locked item could match; with `limit: .one`,
    ///   ``KeychainError/notFound`` when no item matches and ``KeychainError/ambiguous(count:)`` when
    ///   items of several identities do; ``KeychainError/timeout(_:)`` when the call does not finish
    ///   within `timeout`; the Secret Service's ``KeychainError/noSessionBus(_:)``,
    ///   ``KeychainError/noSecretService(_:)`` and ``KeychainError/backendFailure(_:)``, or the
    ///   encrypted file's ``KeychainError/wrongStorePassword``, ``KeychainError/corruptStore(_:)`` and
    ///   ``KeychainError/io(path:reason:)``.
    func search(_ query: CredentialQuery, timeout: Duration) throws(KeychainError) -> [CredentialItem]
}

/// How long a keychain call waits when its caller gives none, here and in the modules built on the
/// keychain (SSO, identities, HTTP credentials): a locked keyring's prompt or a busy daemon.
@usableFromInline package let defaultKeychainTimeout: Duration = .seconds(10)

extension CredentialStore {
    /// The timeout of calls that do not give one: 10 s.
    public static var defaultTimeout: Duration { defaultKeychainTimeout }

    /// The largest secret a store accepts: 1 MiB.
    public static var maximumSecretByteCount: Int { 1 << 20 }

    /// Stores `secret` under `identity` within `defaultTimeout` (see `upsert(_:secret:attributes:timeout:)`).
    ///
    /// - Parameters:
    ///   - identity: the item's identity.
    ///   - secret: the secret's bytes.
    ///   - attributes: the label, comment and expiry to store with it (none by default).
    /// - Throws: what `upsert(_:secret:attributes:timeout:)` throws:
    ///   ``KeychainError/secretTooLarge(limit:)`` for a secret over
    ///   ``CredentialStore/maximumSecretByteCount`` bytes, ``KeychainError/invalidAttribute(_:)`` for
    ///   an identity or attributes no store can keep, ``KeychainError/locked`` when the keyring is
    ///   locked, ``KeychainError/timeout(_:)`` when the call does not finish within
    ///   ``CredentialStore/defaultTimeout``, and the store's own failures listed there.
    public func upsert(
        _ identity: CredentialIdentity,
        secret: some ContiguousBytes,
        attributes: CredentialAttributes = CredentialAttributes()
    ) throws(KeychainError) {
        try upsert(identity, secret: secret, attributes: attributes, timeout: Self.defaultTimeout)
    }

    /// Stores a UTF-8 string under `identity`.
    ///
    /// - Parameters:
    ///   - identity: the item's identity.
    ///   - string: the secret, stored as its UTF-8 bytes.
    ///   - attributes: the label, comment and expiry to store with it (none by default).
    ///   - timeout: how long the call may take (``CredentialStore/defaultTimeout`` by default).
    /// - Throws: what `upsert(_:secret:attributes:timeout:)` throws:
    ///   ``KeychainError/secretTooLarge(limit:)`` for a secret over
    ///   ``CredentialStore/maximumSecretByteCount`` bytes, ``KeychainError/invalidAttribute(_:)`` for
    ///   an identity or attributes no store can keep, ``KeychainError/locked`` when the keyring is
    ///   locked, ``KeychainError/timeout(_:)`` when the call does not finish within `timeout`, and the
    ///   store's own failures listed there.
    public func upsert(
        _ identity: CredentialIdentity,
        string: String,
        attributes: CredentialAttributes = CredentialAttributes(),
        timeout: Duration = Self.defaultTimeout
    ) throws(KeychainError) {
        try upsert(identity, secret: SecureBytes(utf8: string), attributes: attributes, timeout: timeout)
    }

    /// The item with exactly this identity, without its secret.
    ///
    /// - Parameters:
    ///   - identity: the item's identity.
    ///   - timeout: how long the call may take (``CredentialStore/defaultTimeout`` by default).
    /// - Returns: the item, with its attributes and times; its `secret` is nil.
    /// - Throws: what `item(for:includeSecret:timeout:)` throws: ``KeychainError/notFound`` when no
    ///   item has exactly this identity (``KeychainError/locked`` when the keyring is locked and might
    ///   hold it), ``KeychainError/invalidAttribute(_:)`` for an identity no store can keep,
    ///   ``KeychainError/timeout(_:)`` when the call does not finish within `timeout`, and the store's
    ///   own failures listed there.
    public func item(
        for identity: CredentialIdentity,
        timeout: Duration = Self.defaultTimeout
    ) throws(KeychainError) -> CredentialItem {
        try item(for: identity, includeSecret: false, timeout: timeout)
    }

    /// The secret of `item(for: identity, includeSecret: true, timeout:)`.
    ///
    /// - Parameters:
    ///   - identity: the item's identity.
    ///   - timeout: how long the call may take.
    /// - Returns: the secret, in memory that is wiped on release.
    /// - Throws: what `item(for:includeSecret:timeout:)` throws: ``KeychainError/notFound`` when no
    ///   item has exactly this identity (``KeychainError/locked`` when the keyring is locked and might
    ///   hold it), ``KeychainError/invalidAttribute(_:)`` for an identity no store can keep,
    ///   ``KeychainError/timeout(_:)`` when the call does not finish within `timeout`, and the store's
    ///   own failures listed there.
    public func secret(for identity: CredentialIdentity, timeout: Duration) throws(KeychainError) -> SecureBytes {
        try expiringSecret(for: identity, timeout: timeout).secret
    }

    /// The secret and expiry of `item(for: identity, includeSecret: true, timeout:)`.
    ///
    /// - Parameters:
    ///   - identity: the item's identity.
    ///   - timeout: how long the call may take.
    /// - Returns: the secret and its expiry (nil when the item has none).
    /// - Throws: what `item(for:includeSecret:timeout:)` throws: ``KeychainError/notFound`` when no
    ///   item has exactly this identity (``KeychainError/locked`` when the keyring is locked and might
    ///   hold it), ``KeychainError/invalidAttribute(_:)`` for an identity no store can keep,
    ///   ``KeychainError/timeout(_:)`` when the call does not finish within `timeout`, and the store's
    ///   own failures listed there.
    public func expiringSecret(
        for identity: CredentialIdentity,
        timeout: Duration
    ) throws(KeychainError) -> ExpiringSecret {
        let item = try item(for: identity, includeSecret: true, timeout: timeout)
        guard let secret = item.secret else { throw .backendFailure("the item's secret could not be loaded") }
        return ExpiringSecret(secret: secret, expiresAt: item.expiresAt)
    }

    /// The secret stored under exactly this identity, within `defaultTimeout`.
    ///
    /// - Parameter identity: the item's identity.
    /// - Returns: the secret, in memory that is wiped on release.
    /// - Throws: what `secret(for:timeout:)` throws: ``KeychainError/notFound`` when no item has
    ///   exactly this identity (``KeychainError/locked`` when the keyring is locked and might hold it),
    ///   ``KeychainError/invalidAttribute(_:)`` for an identity no store can keep,
    ///   ``KeychainError/timeout(_:)`` when the call does not finish within
    ///   ``CredentialStore/defaultTimeout``, and the store's own failures listed there.
    public func secret(for identity: CredentialIdentity) throws(KeychainError) -> SecureBytes {
        try secret(for: identity, timeout: Self.defaultTimeout)
    }

    /// The secret stored under exactly this identity, as UTF-8 text (invalid sequences replaced).
    ///
    /// - Parameters:
    ///   - identity: the item's identity.
    ///   - timeout: how long the call may take (``CredentialStore/defaultTimeout`` by default).
    /// - Returns: the secret decoded as UTF-8, invalid sequences replaced (a `String` is never wiped:
    ///   prefer `secret(for:timeout:)` for secrets that must not linger).
    /// - Throws: what `item(for:includeSecret:timeout:)` throws: ``KeychainError/notFound`` when no
    ///   item has exactly this identity (``KeychainError/locked`` when the keyring is locked and might
    ///   hold it), ``KeychainError/invalidAttribute(_:)`` for an identity no store can keep,
    ///   ``KeychainError/timeout(_:)`` when the call does not finish within `timeout`, and the store's
    ///   own failures listed there.
    public func string(
        for identity: CredentialIdentity,
        timeout: Duration = Self.defaultTimeout
    ) throws(KeychainError) -> String {
        try secret(for: identity, timeout: timeout).withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Deletes every item with exactly this identity. Throws `notFound` when there is none.
    ///
    /// - Parameter identity: the identity whose items to delete.
    /// - Throws: what `delete(_:timeout:)` throws: ``KeychainError/notFound`` when no item has exactly
    ///   this identity (``KeychainError/locked`` when the keyring is locked and might hold it),
    ///   ``KeychainError/invalidAttribute(_:)`` for an identity no store can keep,
    ///   ``KeychainError/timeout(_:)`` when the call does not finish within
    ///   ``CredentialStore/defaultTimeout``, and the store's own failures listed there.
    public func delete(_ identity: CredentialIdentity) throws(KeychainError) {
        try delete(identity, timeout: Self.defaultTimeout)
    }

    /// Deletes every item matching `query` within `defaultTimeout`; returns how many.
    ///
    /// - Parameter query: the items to delete; an empty query matches every item.
    /// - Returns: how many items were deleted; at least one.
    /// - Throws: what `deleteAll(matching:timeout:)` throws: ``KeychainError/notFound`` when no item
    ///   matches, ``KeychainError/locked`` (deleting nothing) when a locked item could match,
    ///   ``KeychainError/timeout(_:)`` when the call does not finish within
    ///   ``CredentialStore/defaultTimeout``, and the store's own failures listed there.
    public func deleteAll(matching query: CredentialQuery) throws(KeychainError) -> Int {
        try deleteAll(matching: query, timeout: Self.defaultTimeout)
    }

    /// The items matching `query`.
    ///
    /// - Parameter query: what the items must match, how many to return, and whether with their
    ///   secrets.
    /// - Returns: the matching items, most recently modified first (one at most with `limit: .one`).
    /// - Throws: what `search(_:timeout:)` throws: ``KeychainError/locked`` when a locked item could
    ///   match, and, with `limit: .one`, ``KeychainError/notFound`` when none does and
    ///   ``KeychainError/ambiguous(count:)`` when items of several identities do,
    ///   ``KeychainError/timeout(_:)`` when the call does not finish within
    ///   ``CredentialStore/defaultTimeout``, and the store's own failures listed there.
    public func search(_ query: CredentialQuery) throws(KeychainError) -> [CredentialItem] {
        try search(query, timeout: Self.defaultTimeout)
    }
}

extension CredentialStore {
    /// Refuses a secret over `maximumSecretByteCount`, and an identity or attributes no store can keep.
    package static func validate(
        _ identity: CredentialIdentity,
        _ attributes: CredentialAttributes,
        secret: some ContiguousBytes
    ) throws(KeychainError) {
        guard secret.withUnsafeBytes({ $0.count }) <= maximumSecretByteCount else {
            throw .secretTooLarge(limit: maximumSecretByteCount)
        }
        try ItemAttributes.validate(identity, attributes)
    }
}

extension SecureBytes {
    /// The UTF-8 bytes of `text`, copied once into wiped-on-release memory (no intermediate array).
    package init(utf8 text: String) {
        var text = text
        self = text.withUTF8 { SecureBytes(UnsafeRawBufferPointer($0)) }
    }
}
