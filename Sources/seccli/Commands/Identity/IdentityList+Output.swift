import SecKit

/// How `identity list` (and `identity import`) show identities: one line each, or a JSON array.
extension SecCLI.IdentityCommand.IdentityList {
    /// `work: subject "CN=…", issuer "CN=…", notAfter 2026-12-31T00:00:00Z (expires soon), pin sha256/…`.
    static func line(for identity: StoredIdentity, now: Date = Date()) -> String {
        let flag = identity.isExpired(at: now) ? " (EXPIRED)" : identity.expiresSoon(at: now) ? " (expires soon)" : ""
        return UntrustedText.escaped(identity.name) + ": subject \(UntrustedText.quoted(identity.subject)), "
            + "issuer \(UntrustedText.quoted(identity.issuer)), notAfter \(identity.notAfter.formatted(.iso8601))"
            + "\(flag), pin \(identity.publicKeyPin)"
    }

    private struct Entry: Encodable {
        var name: String
        var subject: String
        var issuer: String
        var notAfter: String
        var expired: Bool
        var expiresSoon: Bool
        var pin: String

        init(_ identity: StoredIdentity, now: Date) {
            name = identity.name
            subject = identity.subject
            issuer = identity.issuer
            notAfter = identity.notAfter.formatted(.iso8601)
            expired = identity.isExpired(at: now)
            expiresSoon = identity.expiresSoon(at: now)
            pin = identity.publicKeyPin.description
        }
    }

    static func json(_ identities: [StoredIdentity], now: Date = Date()) throws -> String {
        try JSONOutput.text(identities.map { Entry($0, now: now) })
    }
}
