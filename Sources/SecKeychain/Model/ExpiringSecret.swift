import SecCrypto

/// A secret and the expiry stored with it: what a reader that honours `expiresAt` needs (`seccli
/// cred get`, `SingleSignOn`), without the label and times of a `CredentialItem`.
public struct ExpiringSecret: Sendable {
    public var secret: SecureBytes
    /// When the secret stops being valid; nil when the item has no expiry.
    public var expiresAt: Date?

    /// A secret with its expiry.
    ///
    /// - Parameters:
    ///   - secret: the secret.
    ///   - expiresAt: when it stops being valid; nil for never.
    public init(secret: SecureBytes, expiresAt: Date?) {
        self.secret = secret
        self.expiresAt = expiresAt
    }

    /// True when there is an expiry date and it is not after `date`.
    ///
    /// - Parameter date: the time to compare with (now by default).
    /// - Returns: true when `expiresAt` is set and not after `date`.
    public func isExpired(at date: Date = Date()) -> Bool {
        guard let expiresAt else { return false }
        return expiresAt <= date
    }
}
