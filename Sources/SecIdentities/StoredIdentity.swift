import SecCrypto
import SecTLS

/// What `IdentityStore` keeps about a stored identity outside its secret: enough to list and choose
/// identities without reading a private key.
public struct StoredIdentity: Sendable, Equatable {
    /// The name the identity was saved under.
    public var name: String
    /// The client certificate's subject, RFC 2253 (`Certificate.subject`).
    public var subject: String
    /// The client certificate's issuer, RFC 2253.
    public var issuer: String
    /// The end of the client certificate's validity period.
    public var notAfter: Date
    /// The RFC 7469 pin of the client certificate's public key.
    public var publicKeyPin: PublicKeyPin

    public init(name: String, subject: String, issuer: String, notAfter: Date, publicKeyPin: PublicKeyPin) {
        self.name = name
        self.subject = subject
        self.issuer = issuer
        self.notAfter = notAfter
        self.publicKeyPin = publicKeyPin
    }

    /// The summary of `identity` saved as `name`.
    init(name: String, identity: ClientIdentity) {
        let certificate = identity.certificate
        self.init(
            name: name,
            subject: certificate.subject,
            issuer: certificate.issuer,
            notAfter: certificate.notAfter,
            publicKeyPin: certificate.publicKeyPin
        )
    }

    /// How long before `notAfter` an identity counts as expiring soon: 30 days.
    public static let renewalWindow: TimeInterval = 30 * 24 * 3600

    /// True when the certificate is no longer valid at `date`.
    public func isExpired(at date: Date = Date()) -> Bool { notAfter <= date }

    /// True when the certificate expires within `window` after `date` (or already has).
    public func expiresSoon(within window: TimeInterval = renewalWindow, at date: Date = Date()) -> Bool {
        notAfter <= date.addingTimeInterval(window)
    }
}
