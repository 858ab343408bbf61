import SecCrypto
import SecKeychain
import SecTLS

/// How a stored identity's summary is kept in its item's attributes, which searches return without
/// secrets: the expiry is the item's `expiresAt` (the certificate's notAfter), subject, issuer and
/// key pin a JSON object in its comment. Nothing of the private key is ever among them.
enum IdentityMetadata {
    private struct Record: Codable {
        var subject: String
        var issuer: String
        var pin: String
    }

    /// The attributes of the item that stores `identity`.
    static func attributes(of identity: StoredIdentity) throws -> CredentialAttributes {
        let record = Record(subject: identity.subject, issuer: identity.issuer, pin: identity.publicKeyPin.description)
        return CredentialAttributes(
            label: "Client identity \(identity.name) (\(identity.subject))",
            comment: String(decoding: try JSONEncoder().encode(record), as: UTF8.self),
            expiresAt: identity.notAfter
        )
    }

    /// The summary kept in `item`'s attributes; `invalidClientIdentity` when they are not what
    /// `attributes(of:)` writes (another tool wrote the item, or it was altered).
    static func identity(from item: CredentialItem) throws(TLSError) -> StoredIdentity {
        guard let comment = item.comment, let notAfter = item.expiresAt,
            let record = try? JSONDecoder().decode(Record.self, from: Data(comment.utf8)),
            let pin = try? PublicKeyPin(parsing: record.pin)
        else {
            throw .invalidClientIdentity(
                "the item has no readable certificate summary (another tool wrote it, or it was altered)"
            )
        }
        return StoredIdentity(
            name: item.identity.account,
            subject: record.subject,
            issuer: record.issuer,
            notAfter: notAfter,
            publicKeyPin: pin
        )
    }
}
