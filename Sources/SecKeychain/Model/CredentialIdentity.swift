import SecCrypto

/// What names one credential in a store, like a keychain item's primary key: a generic password is
/// named by service and account, an internet password by server, account, protocol, port, path,
/// authentication type and HTTP realm. Both live in an optional access group.
///
/// Two items with equal identities are the same item: `upsert` keeps exactly one per identity.
/// Unset optional parts are part of the identity too (an item without an access group is not the
/// one in group "tools"). Label, comment and expiry are not part of it.
///
/// ```swift
/// let api = CredentialIdentity.genericPassword(service: "api.example.com", account: "deploy", accessGroup: "ci-tools")
/// let web = CredentialIdentity.internetPassword(server: "git.example.com", account: "alice", protocol: "https")
/// ```
public struct CredentialIdentity: Hashable, Sendable, CustomStringConvertible {
    /// The two item classes and what names each besides the account.
    public enum Kind: Hashable, Sendable {
        /// A generic password, named by its service (`kSecClassGenericPassword`).
        case genericPassword(service: String)
        /// An internet password, named by where it is used (`kSecClassInternetPassword`).
        case internetPassword(InternetLocation)
    }

    public var kind: Kind
    /// The user name or account the secret belongs to. Never empty for a generic password, where
    /// service and account are the whole name and an empty account is a mistake (`keyring:SERVICE/`,
    /// an unset variable). An internet password may have an empty one: a login without a user name,
    /// as git's credential helpers store `username=` (the `user` attribute empty).
    public var account: String
    /// A shared namespace for a family of tools (`kSecAttrAccessGroup`). Not an isolation boundary:
    /// every process of the same user can read the user's unlocked items.
    public var accessGroup: String?

    /// An identity of these parts.
    ///
    /// - Parameters:
    ///   - kind: the item class, with the service or the internet location.
    ///   - account: the user name or account.
    ///   - accessGroup: the access group; nil (the default) for none.
    public init(kind: Kind, account: String, accessGroup: String? = nil) {
        self.kind = kind
        self.account = account
        self.accessGroup = accessGroup
    }

    /// A generic password item: `service` and `account`.
    ///
    /// - Parameters:
    ///   - service: the service, such as a host name or an application's name.
    ///   - account: the account; not empty.
    ///   - accessGroup: the access group; nil (the default) for none.
    /// - Returns: the identity.
    public static func genericPassword(
        service: String,
        account: String,
        accessGroup: String? = nil
    ) -> CredentialIdentity {
        CredentialIdentity(kind: .genericPassword(service: service), account: account, accessGroup: accessGroup)
    }

    /// An internet password item: `server` and `account`, optionally protocol, port, path,
    /// authentication type and realm.
    ///
    /// - Parameters:
    ///   - server: the host name or address; not empty.
    ///   - account: the user name; may be empty (a login without one).
    ///   - protocol: the protocol, such as `https`; nil (the default) for none.
    ///   - port: the port, 1 to 65535; nil (the default) for none.
    ///   - path: the path on the server; nil (the default) for none.
    ///   - authenticationType: the authentication type, such as `basic`; nil (the default) for none.
    ///   - realm: the HTTP realm; nil (the default) for none.
    ///   - accessGroup: the access group; nil (the default) for none.
    /// - Returns: the identity.
    public static func internetPassword(
        server: String,
        account: String,
        protocol: String? = nil,
        port: Int? = nil,
        path: String? = nil,
        authenticationType: String? = nil,
        realm: String? = nil,
        accessGroup: String? = nil
    ) -> CredentialIdentity {
        let location = InternetLocation(
            server: server,
            protocol: `protocol`,
            port: port,
            path: path,
            authenticationType: authenticationType,
            realm: realm
        )
        return CredentialIdentity(kind: .internetPassword(location), account: account, accessGroup: accessGroup)
    }

    /// The service of a generic password, nil for an internet password.
    public var service: String? {
        if case .genericPassword(let service) = kind { return service }
        return nil
    }

    /// The location of an internet password, nil for a generic password.
    public var internetLocation: InternetLocation? {
        if case .internetPassword(let location) = kind { return location }
        return nil
    }

    public var description: String {
        let group = accessGroup.map { " in group \($0)" } ?? ""
        switch kind {
        case .genericPassword(let service): return "service \(service), account \(account)\(group)"
        case .internetPassword(let location): return "\(location), account \(account)\(group)"
        }
    }
}

/// Where an internet password is used.
public struct InternetLocation: Hashable, Sendable, CustomStringConvertible {
    /// Host name or address, never empty.
    public var server: String
    /// For example "https", "ssh", "imap".
    public var `protocol`: String?
    /// 1 to 65535.
    public var port: Int?
    /// A path on the server, for example "/api".
    public var path: String?
    /// For example "basic", "digest", "ntlm".
    public var authenticationType: String?
    /// The realm an HTTP server names in its challenge (RFC 9110 §11.5): two realms on one server
    /// are two items. Case-sensitive, as the RFC has it.
    public var realm: String?

    /// A location of these parts.
    ///
    /// - Parameters:
    ///   - server: the host name or address; not empty.
    ///   - protocol: the protocol, such as `https`; nil (the default) for none.
    ///   - port: the port, 1 to 65535; nil (the default) for none.
    ///   - path: the path on the server; nil (the default) for none.
    ///   - authenticationType: the authentication type, such as `basic`; nil (the default) for none.
    ///   - realm: the HTTP realm; nil (the default) for none.
    public init(
        server: String,
        protocol: String? = nil,
        port: Int? = nil,
        path: String? = nil,
        authenticationType: String? = nil,
        realm: String? = nil
    ) {
        self.server = server
        self.protocol = `protocol`
        self.port = port
        self.path = path
        self.authenticationType = authenticationType
        self.realm = realm
    }

    public var description: String {
        var text = `protocol`.map { "\($0)://" } ?? ""
        text += server
        if let port { text += ":\(port)" }
        text += path ?? ""
        if let authenticationType { text += " (\(authenticationType))" }
        if let realm { text += " realm \"\(realm)\"" }
        return text
    }
}
