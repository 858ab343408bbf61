import SecCrypto

/// The descriptive parts of an item that are not its identity: changing them updates the item in place.
public struct CredentialAttributes: Hashable, Sendable {
    /// A human-readable name shown by keyring managers (Seahorse, KeePassXC). Nil lets the store
    /// choose one ("Password for 'alice' on 'api.example.com'").
    public var label: String?
    /// Free text.
    public var comment: String?
    /// When the secret stops being valid. The store keeps the item after this date; `currentToken()`
    /// and `CredentialItem.isExpired(at:)` use it.
    public var expiresAt: Date?

    public init(label: String? = nil, comment: String? = nil, expiresAt: Date? = nil) {
        self.label = label
        self.comment = comment
        self.expiresAt = expiresAt
    }

    /// The date in an `expires` attribute or an `--expires` option: ISO 8601 with a `Z` or a
    /// `±HH:MM` offset, with or without fractional seconds (`2026-12-31T23:59:59Z`, Python's
    /// `isoformat()` `2026-12-31T23:59:59.123456+00:00`), or a day (`2026-12-31`, midnight UTC).
    /// Nil for anything else.
    public static func expiryDate(parsing text: String) -> Date? {
        let styles = [
            Date.ISO8601FormatStyle(),
            Date.ISO8601FormatStyle(includingFractionalSeconds: true),
            Date.ISO8601FormatStyle().year().month().day(),
        ]
        return styles.lazy.compactMap { try? Date(text, strategy: $0) }.first
    }
}

/// One item found in a store: its identity, attributes and times, and its secret only when asked
/// for (`CredentialQuery.includeSecrets`).
public struct CredentialItem: Sendable, Equatable {
    public var identity: CredentialIdentity
    /// The label as stored (never nil for items SecKit wrote).
    public var label: String?
    public var comment: String?
    public var expiresAt: Date?
    /// When the item was first stored; nil when the backend does not say.
    public var created: Date?
    /// When the item was last changed; nil when the backend does not say.
    public var modified: Date?
    /// The secret bytes, when the query asked for them.
    public var secret: SecureBytes?

    public init(
        identity: CredentialIdentity,
        label: String? = nil,
        comment: String? = nil,
        expiresAt: Date? = nil,
        created: Date? = nil,
        modified: Date? = nil,
        secret: SecureBytes? = nil
    ) {
        self.identity = identity
        self.label = label
        self.comment = comment
        self.expiresAt = expiresAt
        self.created = created
        self.modified = modified
        self.secret = secret
    }

    /// The label, comment and expiry.
    public var attributes: CredentialAttributes {
        CredentialAttributes(label: label, comment: comment, expiresAt: expiresAt)
    }

    /// True when the item has an expiry date that is not after `date`.
    public func isExpired(at date: Date = Date()) -> Bool {
        guard let expiresAt else { return false }
        return expiresAt <= date
    }
}
