import SecCrypto
import SecTLS

/// What `IdentityStore` keeps about a stored identity outside its secret: enough to list and choose
/// identities without reading a private key.
public struct StoredIdentity: Sendable, Equatable {
    /// The name the identity was saved under.
    public var name: String
    /// The client certificate's subject, RFC 2253 (`X509Certificate.subject`).
    public var subject: String
    /// The client certificate's issuer, RFC 2253.
    public var issuer: String
    /// The end of the client certificate's validity period.
    public var notAfter: Date
    /// The RFC 7469 pin of the client certificate's public key.
    public var publicKeyPin: PublicKeyPin

    /// A summary with these values, as `IdentityStore` reads it back from an item's attributes.
    ///
    /// - Parameters:
    ///   - name: the name the identity was saved under.
    ///   - subject: the client certificate's subject, RFC 2253.
    ///   - issuer: the client certificate's issuer, RFC 2253.
    ///   - notAfter: the end of the client certificate's validity period.
    ///   - publicKeyPin: the RFC 7469 pin of the client certificate's public key.
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
    ///
    /// - Parameter date: the time to check; now by default.
    /// - Returns: whether `notAfter` is at or before `date`.
    public func isExpired(at date: Date = Date()) -> Bool { notAfter <= date }

    /// True when the certificate expires within `window` after `date` (or already has).
    ///
    /// - Parameters:
    ///   - window: how long before `notAfter` counts as soon; ``renewalWindow`` (30 days) by default.
    ///   - date: the time to check from; now by default.
    /// - Returns: whether `notAfter` is at or before `date` plus `window`.
    public func expiresSoon(within window: TimeInterval = renewalWindow, at date: Date = Date()) -> Bool {
        notAfter <= date.addingTimeInterval(window)
    }
}

/// What `IdentityStore.list()` found: the identities whose summaries read, and the items that hold
/// none, so that one bad item never hides the others.
public struct IdentityList: Sendable, Equatable {
    /// The readable identities, by name.
    public var identities: [StoredIdentity] = []
    /// The items of the identities' service whose attributes hold no readable summary, by name.
    public var unreadable: [UnreadableIdentity] = []

    /// A list with these entries.
    ///
    /// - Parameters:
    ///   - identities: the readable identities, by name.
    ///   - unreadable: the items whose summaries cannot be read, by name.
    public init(identities: [StoredIdentity] = [], unreadable: [UnreadableIdentity] = []) {
        self.identities = identities
        self.unreadable = unreadable
    }
}

/// An item stored as an identity whose summary cannot be read: another tool wrote it with the
/// identity's service and a name, or its attributes were altered. `IdentityStore.identity(named:)`
/// still tells whether its secret holds an identity.
public struct UnreadableIdentity: Sendable, Equatable {
    /// The name (the item's account).
    public var name: String
    /// Why its summary cannot be read (`TLSError.invalidClientIdentity`).
    public var error: TLSError

    /// An entry for the item stored as `name`.
    ///
    /// - Parameters:
    ///   - name: the item's account.
    ///   - error: why its summary cannot be read.
    public init(name: String, error: TLSError) {
        self.name = name
        self.error = error
    }
}
