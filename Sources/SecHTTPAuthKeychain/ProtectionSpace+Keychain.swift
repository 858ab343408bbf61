import SecCrypto
import SecHTTPAuth
import SecKeychain

/// How a protection space is kept as a SecKeychain internet password: `server` the host, `protocol`
/// the scheme (`http-proxy`/`https-proxy` for a proxy, as Apple's keychain keeps proxy passwords
/// apart), `port`, `authtype` the method in lower case (`basic`, `digest`) and `realm`.
extension ProtectionSpace {
    var keychainProtocol: String { isProxy ? "\(scheme)-proxy" : scheme }

    var keychainAuthenticationType: String { method.rawValue.lowercased() }

    /// The identity `user`'s credential for this space is stored under.
    func keychainIdentity(user: String, accessGroup: String?) -> CredentialIdentity {
        .internetPassword(
            server: host,
            account: user,
            protocol: keychainProtocol,
            port: port,
            authenticationType: keychainAuthenticationType,
            realm: realm,
            accessGroup: accessGroup
        )
    }

    /// How well an item stored at `location` answers this space: 0 for one of its realm, 1 for
    /// one of the whole origin (no realm), nil for none. Parts the item leaves out (as
    /// `secret-tool store server H user U realm R` does) match any value, a missing port the
    /// scheme's default one; an item with a path is for that path only, which a space does not name.
    func rank(of location: InternetLocation) -> Int? {
        func agrees(_ stored: String?, _ wanted: String) -> Bool {
            stored.map { $0.lowercased() == wanted } ?? true
        }
        guard Self.canonicalHost(location.server) == host, location.path == nil,
            agrees(location.protocol, keychainProtocol),
            agrees(location.authenticationType, keychainAuthenticationType),
            (location.port ?? Self.defaultPort(forScheme: scheme)) == port
        else { return nil }
        if location.realm == realm { return 0 }
        return location.realm == nil ? 1 : nil
    }
}
