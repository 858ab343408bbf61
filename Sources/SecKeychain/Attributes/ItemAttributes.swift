import SecCrypto

#if canImport(Glibc)
import Glibc
#endif

/// How an item's identity and attributes are written as Secret Service attributes (string pairs),
/// and read back. The encrypted-file store keeps the same pairs, so both backends match alike.
///
/// Generic passwords: `service`, `account` and `username` (both the account: `secret-tool` users
/// look up `account`, Python keyring `username`). Internet passwords use the names of libsecret's
/// `org.gnome.keyring.NetworkPassword` schema: `server`, `user`, `protocol`, `port`, `object` (the
/// path), `authtype`, plus `account`, and `realm` when set (the schema has no realm; Secret Service
/// attributes are free-form, so `secret-tool search server H realm R` finds it). Both: `access-group`, and `expires` (ISO 8601, whole seconds)
/// and `comment` when set, and `seckit-id` (a digest of the identity, for one-call lookups). An
/// item with `server` is an internet password; otherwise one with `service` is a generic password;
/// others are not credentials SecKit lists.
package enum ItemAttributes {
    static let service = "service"
    static let account = "account"
    static let username = "username"
    static let user = "user"
    static let server = "server"
    static let `protocol` = "protocol"
    static let port = "port"
    static let path = "object"
    static let authenticationType = "authtype"
    static let realm = "realm"
    static let accessGroup = "access-group"
    package static let expires = "expires"
    package static let comment = "comment"
    /// A digest of the identity, so that one `SearchItems` call finds exactly an identity's items.
    static let fingerprint = "seckit-id"
    /// The libsecret schema an item was created with. Searches never match on it: other tools'
    /// items have none.
    static let schema = "xdg:schema"

    /// The schema of new items: libsecret's generic or network password.
    static func schemaName(_ isInternetPassword: Bool) -> String {
        isInternetPassword ? "org.gnome.keyring.NetworkPassword" : "org.freedesktop.Secret.Generic"
    }

    /// The pairs of a stored item after an update to `new`: SecKit's names take their new values
    /// (or go, when unset); other tools' attributes (Python keyring's `application`) and the item's
    /// `xdg:schema` stay.
    static func updating(_ stored: [String: String], to new: [String: String]) -> [String: String] {
        let managed: Set = [
            service, account, username, user, server, `protocol`, port, path, authenticationType, realm, accessGroup,
            expires, comment, fingerprint,
        ]
        return stored.filter { !managed.contains($0.key) }.merging(new) { _, new in new }
    }

    /// The pairs stored for an item.
    package static func pairs(for identity: CredentialIdentity, _ attributes: CredentialAttributes) -> [String: String]
    {
        var pairs: [String: String] = [account: identity.account, fingerprint: fingerprint(of: identity)]
        switch identity.kind {
        case .genericPassword(let serviceName):
            pairs[service] = serviceName
            pairs[username] = identity.account
        case .internetPassword(let location):
            pairs[server] = location.server
            pairs[user] = identity.account
            pairs[`protocol`] = location.protocol
            pairs[port] = location.port.map(String.init)
            pairs[path] = location.path
            pairs[authenticationType] = location.authenticationType
            pairs[realm] = location.realm
        }
        pairs[accessGroup] = identity.accessGroup
        pairs[expires] = attributes.expiresAt.map(formatDate)
        pairs[comment] = attributes.comment
        return pairs
    }

    /// The fingerprint of `identity`: the first 16 bytes of SHA-256 over its class and parts
    /// (absent ones empty, which no present optional part can be; the account, never absent, may be
    /// empty) joined by NUL, in hex. The realm is a last
    /// part only when set, so items stored before realms existed keep their fingerprint (no part
    /// holds a NUL, so the part count keeps identities with and without a realm apart).
    static func fingerprint(of identity: CredentialIdentity) -> String {
        let location = identity.internetLocation
        let parts =
            [
                location == nil ? "generic" : "internet", identity.service ?? location?.server ?? "", identity.account,
                location?.protocol ?? "", location?.port.map(String.init) ?? "", location?.path ?? "",
                location?.authenticationType ?? "",
                identity.accessGroup ?? "",
            ] + (location?.realm.map { [$0] } ?? [])
        return String(sha256Hex(parts.joined(separator: "\u{0}")).prefix(32))
    }

    /// The label of an item stored without one, in Python keyring's words.
    package static func defaultLabel(for identity: CredentialIdentity) -> String {
        switch identity.kind {
        case .genericPassword(let service): "Password for '\(identity.account)' on '\(service)'"
        case .internetPassword(let location): "Password for '\(identity.account)' on '\(location)'"
        }
    }

    /// The identity of stored pairs, or nil when they do not describe a credential.
    static func identity(from pairs: [String: String]) -> CredentialIdentity? {
        if let serverName = pairs[server] {
            guard let accountName = pairs[account] ?? pairs[user] else { return nil }
            var portNumber: Int?
            if let text = pairs[port] {
                guard let number = Int(text) else { return nil }
                portNumber = number
            }
            return .internetPassword(
                server: serverName,
                account: accountName,
                protocol: pairs[`protocol`],
                port: portNumber,
                path: pairs[path],
                authenticationType: pairs[authenticationType],
                realm: pairs[realm],
                accessGroup: pairs[accessGroup]
            )
        }
        guard let serviceName = pairs[service], let accountName = pairs[account] ?? pairs[username] else { return nil }
        return .genericPassword(service: serviceName, account: accountName, accessGroup: pairs[accessGroup])
    }

    /// The expiry stored in `pairs`, if any. A value that is there but not a date SecKit reads
    /// (another tool wrote it, or it was altered) fails closed: the Unix epoch, so the item is expired.
    package static func expiry(from pairs: [String: String]) -> Date? {
        pairs[expires].map { CredentialAttributes.expiryDate(parsing: $0) ?? Date(timeIntervalSince1970: 0) }
    }

    /// The attribute sets a store searches for `query`; their union, filtered with
    /// `query.matches`, is the answer. An account is looked up as `account` first, then under the
    /// names other tools use (`username`, `user`), so items written by those tools are found too.
    static func searches(for query: CredentialQuery) -> [[String: String]] {
        var base: [String: String] = [:]
        base[service] = query.service
        base[server] = query.server
        base[`protocol`] = query.protocol
        base[port] = query.port.map(String.init)
        base[path] = query.path
        base[authenticationType] = query.authenticationType
        base[realm] = query.realm
        base[accessGroup] = query.accessGroup
        guard let accountName = query.account else { return [base] }
        var names = [account]
        if query.itemClass != .internetPassword { names.append(username) }
        if query.itemClass != .genericPassword { names.append(user) }
        return names.map { base.merging([$0: accountName]) { _, new in new } }
    }

    /// The search that finds `identity`'s items whoever wrote them: the identity's pairs except the
    /// account, which writers name differently (SecKit `account` and `username` or `user`,
    /// `secret-tool` users `account`, Python keyring `username`, git's helper `user`). It finds the
    /// identity's items and the other accounts' items of the same service or location (filter with
    /// `identity(from:)`).
    static func commonSearch(for identity: CredentialIdentity) -> [String: String] {
        pairs(for: identity, CredentialAttributes()).filter {
            ![account, username, user, fingerprint].contains($0.key)
        }
    }

    /// The searches that find `identity`'s items by account, one per name writers give it: narrower
    /// than `commonSearch`, for when the service or location has many accounts.
    static func accountSearches(for identity: CredentialIdentity) -> [[String: String]] {
        let names = identity.service == nil ? [account, user] : [account, username]
        return names.map { commonSearch(for: identity).merging([$0: identity.account]) { _, new in new } }
    }

    /// Refuses identities and attributes a store cannot represent.
    package static func validate(
        _ identity: CredentialIdentity,
        _ attributes: CredentialAttributes = CredentialAttributes()
    ) throws(KeychainError) {
        func text(_ name: String, _ value: String?, allowEmpty: Bool = false) throws(KeychainError) {
            guard let value else { return }
            if value.isEmpty && !allowEmpty { throw .invalidAttribute("\(name) must not be empty") }
            if value.utf8.contains(0) { throw .invalidAttribute("\(name) must not contain NUL characters") }
        }
        try text("access group", identity.accessGroup)
        switch identity.kind {
        case .genericPassword(let serviceName):
            try text("account", identity.account)
            try text("service", serviceName)
        case .internetPassword(let location):
            // A login without a user name: git's helpers store `username=` as an empty `user`.
            try text("account", identity.account, allowEmpty: true)
            try text("server", location.server)
            try text("protocol", location.protocol)
            try text("path", location.path)
            try text("authentication type", location.authenticationType)
            try text("realm", location.realm, allowEmpty: true)
            if let port = location.port, !(1...65535).contains(port) {
                throw .invalidAttribute("port must be between 1 and 65535, got \(port)")
            }
        }
        try text("label", attributes.label)
        try text("comment", attributes.comment, allowEmpty: true)
    }

    // MARK: - Dates

    /// The first and last second an `expires` attribute can hold: four-digit years, as
    /// `CredentialAttributes.expiryDate(parsing:)` reads them.
    static let storableDates =
        Date(
            timeIntervalSince1970: -62_167_219_200
        )...Date(
            timeIntervalSince1970: 253_402_300_799
        )

    /// `2026-12-31T23:59:59Z`, in whole seconds (a fraction is dropped, so an item never outlives its
    /// `--expires`), counted as `expiryDate(parsing:)` counts them: in the proleptic Gregorian
    /// calendar, with `gmtime_r`. (Foundation's ISO 8601 style turns Julian before 1582, so a date it
    /// wrote read back as another day: tools/fuzz attributes.) A date outside `storableDates` is
    /// written as the nearest one in it.
    package static func formatDate(_ date: Date) -> String {
        let clamped = min(max(date, storableDates.lowerBound), storableDates.upperBound)
        return utcDateTime(time_t(clamped.timeIntervalSince1970.rounded(.down))) + "Z"
    }

    /// `2026-12-31T23:59:59` (UTC, no zone letter) of `seconds` since 1970, with `gmtime_r`.
    static func utcDateTime(_ seconds: time_t) -> String {
        var seconds = seconds
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return "\(digits(parts.tm_year + 1900, 4))-\(digits(parts.tm_mon + 1, 2))-\(digits(parts.tm_mday, 2))T"
            + "\(digits(parts.tm_hour, 2)):\(digits(parts.tm_min, 2)):\(digits(parts.tm_sec, 2))"
    }

    /// `value` in decimal, zero-padded to `count` digits.
    static func digits(_ value: Int32, _ count: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, count - text.count)) + text
    }
}
