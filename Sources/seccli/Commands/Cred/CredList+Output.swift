import SecKit

/// How `cred list` shows items: one readable line each, or a JSON array. Never secrets.
extension SecCLI.CredCommand.CredList {
    /// `service S, account A in group G: label "L", expires 2026-12-31T00:00:00Z`.
    static func line(for item: CredentialItem) -> String {
        var details: [String] = []
        if let label = item.label { details.append("label \(UntrustedText.quoted(label))") }
        if let expiresAt = item.expiresAt {
            details.append("\(item.isExpired() ? "expired" : "expires") \(expiresAt.formatted(.iso8601))")
        }
        return UntrustedText.escaped(item.identity.description)
            + (details.isEmpty ? "" : ": " + details.joined(separator: ", "))
    }

    private struct Entry: Encodable {
        var `class`: String
        var service: String?
        var server: String?
        var `protocol`: String?
        var port: Int?
        var path: String?
        var authType: String?
        var realm: String?
        var account: String
        var group: String?
        var label: String?
        var comment: String?
        var expires: String?
        var expired: Bool
        var created: String?
        var modified: String?

        init(_ item: CredentialItem) {
            let identity = item.identity
            let location = identity.internetLocation
            `class` = (location == nil ? CredentialQuery.ItemClass.genericPassword : .internetPassword).rawValue
            service = identity.service
            server = location?.server
            `protocol` = location?.protocol
            port = location?.port
            path = location?.path
            authType = location?.authenticationType
            realm = location?.realm
            account = identity.account
            group = identity.accessGroup
            label = item.label
            comment = item.comment
            expires = item.expiresAt?.formatted(.iso8601)
            expired = item.isExpired()
            created = item.created?.formatted(.iso8601)
            modified = item.modified?.formatted(.iso8601)
        }
    }

    static func json(_ items: [CredentialItem]) throws -> String {
        try JSONOutput.text(items.map(Entry.init))
    }
}
