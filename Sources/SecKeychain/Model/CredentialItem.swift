import SecCrypto

#if canImport(Glibc)
import Glibc
#endif

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

    /// Attributes of these values.
    ///
    /// - Parameters:
    ///   - label: the label; nil (the default) lets the store choose one.
    ///   - comment: free text; nil (the default) for none.
    ///   - expiresAt: when the secret stops being valid; nil (the default) for never.
    public init(label: String? = nil, comment: String? = nil, expiresAt: Date? = nil) {
        self.label = label
        self.comment = comment
        self.expiresAt = expiresAt
    }

    /// The date in an `expires` attribute or an `--expires` option, parsed strictly: a day
    /// (`2026-12-31`, midnight UTC), or a day and time with a zone, `Z` or `±HH:MM`, in minutes
    /// (`2026-12-31T23:59Z`), seconds (`2026-12-31T23:59:59Z`) or fractions of a second (Python's
    /// `isoformat()`, `2026-12-31T23:59:59.123456+00:00`). Nil for anything else, an impossible day
    /// (`2026-02-30`) or time included: nothing is rolled over or cut off.
    ///
    /// - Parameter text: the date's text.
    /// - Returns: the date, or nil when `text` is not one of those forms or names an impossible day or
    ///   time.
    public static func expiryDate(parsing text: String) -> Date? {
        var reader = DateReader(Array(text.utf8))
        guard let year = reader.number(digits: 4), reader.skip("-"), let month = reader.number(digits: 2),
            reader.skip("-"), let day = reader.number(digits: 2), (1...12).contains(month),
            (1...DateReader.days(inMonth: month, of: year)).contains(day)
        else { return nil }
        // The fields are in range, so timegm (as certificates' dates are read) counts, not normalizes.
        var midnight = tm()
        (midnight.tm_year, midnight.tm_mon, midnight.tm_mday) = (Int32(year - 1900), Int32(month - 1), Int32(day))
        var seconds = Double(timegm(&midnight))
        guard !reader.atEnd else { return Date(timeIntervalSince1970: seconds) }
        guard reader.skip("T"), let hour = reader.number(digits: 2), reader.skip(":"),
            let minute = reader.number(digits: 2), hour < 24, minute < 60
        else { return nil }
        seconds += Double(hour * 3600 + minute * 60)
        if reader.skip(":") {
            guard let second = reader.number(digits: 2), second < 60 else { return nil }
            seconds += Double(second)
            if reader.skip(".") {
                guard let fraction = reader.fraction() else { return nil }
                seconds += fraction
            }
        }
        if reader.skip("Z") { return reader.atEnd ? Date(timeIntervalSince1970: seconds) : nil }
        let sign: Double = reader.skip("+") ? 1 : reader.skip("-") ? -1 : 0
        guard sign != 0, let offsetHours = reader.number(digits: 2), reader.skip(":"),
            let offsetMinutes = reader.number(digits: 2), offsetHours < 24, offsetMinutes < 60, reader.atEnd
        else { return nil }
        return Date(timeIntervalSince1970: seconds - sign * Double(offsetHours * 3600 + offsetMinutes * 60))
    }
}

/// Reads the fixed-width fields of an ISO 8601 date, byte by byte.
private struct DateReader {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { index == bytes.count }

    /// Consumes `character` when it comes next.
    mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    /// Exactly `digits` decimal digits.
    mutating func number(digits: Int) -> Int? {
        guard index + digits <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[index..<(index + digits)] {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        index += digits
        return value
    }

    /// One or more digits after the decimal point, as a fraction of a second.
    mutating func fraction() -> Double? {
        var value = 0.0
        var scale = 0.1
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
            value += Double(bytes[index] - UInt8(ascii: "0")) * scale
            scale /= 10
            index += 1
        }
        return index > start ? value : nil
    }

    static func days(inMonth month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
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

    /// An item of these parts.
    ///
    /// - Parameters:
    ///   - identity: the item's identity.
    ///   - label: its label; nil (the default) when the store has none.
    ///   - comment: its comment; nil (the default) for none.
    ///   - expiresAt: when its secret stops being valid; nil (the default) for never.
    ///   - created: when it was first stored; nil (the default) when unknown.
    ///   - modified: when it was last changed; nil (the default) when unknown.
    ///   - secret: its secret; nil (the default) when it was not loaded.
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
    ///
    /// - Parameter date: the time to compare with (now by default).
    /// - Returns: true when `expiresAt` is set and not after `date`.
    public func isExpired(at date: Date = Date()) -> Bool {
        guard let expiresAt else { return false }
        return expiresAt <= date
    }
}
