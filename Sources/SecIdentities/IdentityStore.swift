import SecCrypto
import SecKeychain
import SecTLS

/// Client identities (certificate, chain and private key: the books' `SecIdentity`) kept in a
/// keychain under a name, and loaded from it as `ClientIdentity` for mutual TLS.
///
/// Each identity is one generic-password item with service `service` (default `seckit-identity`)
/// and the name as its account. Its secret holds the certificate, the chain and the private key as
/// one PEM text (the key unencrypted PKCS#8: the keyring encrypts its secrets). Its attributes hold
/// only the certificate's summary (`StoredIdentity`), so `list()` never reads a secret, and
/// the private key is never in an attribute.
///
/// ```swift
/// let identities = IdentityStore()
/// try identities.save(ClientIdentity(pkcs12: p12, passphrase: passphrase), as: "work")
/// configuration.clientIdentity = try identities.identity(named: "work")
/// ```
public struct IdentityStore: Sendable {
    /// The service of the items when none is given.
    public static let defaultService = "seckit-identity"

    /// The service of the identities' items.
    public let service: String
    /// The timeout of each store call.
    public let timeout: Duration
    private let store: any CredentialStore

    /// The identities kept in `store` (the Secret Service unless another store is given).
    ///
    /// - Parameters:
    ///   - store: the keychain the identities' items are kept in.
    ///   - service: the service of the identities' items.
    ///   - timeout: the timeout of each store call.
    public init(
        store: any CredentialStore = SecretServiceStore(),
        service: String = defaultService,
        timeout: Duration = defaultKeychainTimeout
    ) {
        self.store = store
        self.service = service
        self.timeout = timeout
    }

    private func itemIdentity(_ name: String) -> CredentialIdentity {
        .genericPassword(service: service, account: name)
    }

    /// Stores `identity` as `name`, replacing an identity saved under that name.
    ///
    /// - Parameters:
    ///   - identity: the certificate, its chain and its private key.
    ///   - name: the name to save it under, the item's account; not empty.
    /// - Returns: the summary kept in the item's attributes.
    /// - Throws: `KeychainError` (`invalidAttribute` for an empty name), or `TLSError` when the
    ///   identity's key cannot be written as PEM.
    @discardableResult
    public func save(_ identity: ClientIdentity, as name: String) throws -> StoredIdentity {
        guard !name.isEmpty else { throw KeychainError.invalidAttribute("the identity name must not be empty") }
        let summary = StoredIdentity(name: name, identity: identity)
        try store.upsert(
            itemIdentity(name),
            secret: try identity.combinedPEM(),
            attributes: try IdentityMetadata.attributes(of: summary),
            timeout: timeout
        )
        return summary
    }

    /// The identity saved as `name`, loaded and checked as `ClientIdentity(combinedPEM:)` does.
    ///
    /// - Parameter name: the name the identity was saved under.
    /// - Returns: the identity, ready for `TLSConfiguration.clientIdentity`.
    /// - Throws: `KeychainError.notFound` when there is none (or another `KeychainError` of the
    ///   store), `TLSError` when the item does not hold an identity.
    public func identity(named name: String) throws -> ClientIdentity {
        let secret = try store.secret(for: itemIdentity(name), timeout: timeout)
        return try ClientIdentity(combinedPEM: secret)
    }

    /// Every saved identity, by name, read from the items' attributes alone (no secret is loaded).
    /// An item of the service whose attributes hold no readable summary (another tool wrote it, or
    /// it was altered) is listed among `unreadable` and hides none of the others.
    ///
    /// - Returns: the identities' summaries, sorted by name, and the unreadable items.
    /// - Throws: `KeychainError` when the store cannot be searched.
    public func list() throws(KeychainError) -> IdentityList {
        let items = try store.search(
            CredentialQuery(itemClass: .genericPassword, service: service),
            timeout: timeout
        )
        var list = IdentityList()
        // The query's nil group matches every group; the identities are the items without one.
        for item in items where item.identity.accessGroup == nil {
            do {
                list.identities.append(try IdentityMetadata.identity(from: item))
            } catch {
                list.unreadable.append(UnreadableIdentity(name: item.identity.account, error: error))
            }
        }
        list.identities.sort { $0.name < $1.name }
        list.unreadable.sort { $0.name < $1.name }
        return list
    }

    /// Deletes the identity saved as `name`.
    ///
    /// - Parameter name: the name the identity was saved under.
    /// - Throws: `KeychainError.notFound` when there is none, or another `KeychainError` of the store.
    public func delete(named name: String) throws(KeychainError) {
        try store.delete(itemIdentity(name), timeout: timeout)
    }
}
