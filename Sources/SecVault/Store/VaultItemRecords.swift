import SecCrypto
import SecKeychain

/// A path's KV metadata (`GET <mount>/metadata/<path>`): what search and list read.
struct VaultItemMetadata: Decodable {
    struct Version: Decodable {
        var created_time: String?
        var deletion_time: String?
        var destroyed: Bool?
    }

    var created_time: String?
    var updated_time: String?
    var current_version: Int?
    var custom_metadata: [String: String]?
    var versions: [String: Version]?

    /// The current version exists and is neither deleted nor destroyed.
    var hasLiveVersion: Bool {
        guard let current = current_version, current > 0, let version = versions?[String(current)] else { return false }
        return (version.deletion_time ?? "").isEmpty && version.destroyed != true
    }

    /// The item these metadata describe, without its secret.
    func item(_ identity: CredentialIdentity) -> CredentialItem {
        let pairs = Self.joined(custom_metadata ?? [:])
        let modified = current_version.flatMap { versions?[String($0)]?.created_time } ?? updated_time
        return CredentialItem(
            identity: identity,
            label: pairs[Self.label] ?? ItemAttributes.defaultLabel(for: identity),
            comment: pairs[ItemAttributes.comment],
            expiresAt: ItemAttributes.expiry(from: pairs),
            created: created_time.flatMap(CredentialAttributes.expiryDate(parsing:)),
            modified: modified.flatMap(CredentialAttributes.expiryDate(parsing:))
        )
    }

    static let label = "label"
    /// The most bytes of one custom metadata value (Vault's and OpenBao's limit).
    static let valueLimit = 512
    /// The custom metadata SecKit writes, besides the names of `ItemAttributes`; a longer value
    /// continues in `<name>.2`, `<name>.3`, …
    private static let managed: Set = [
        "service", "account", "username", "user", "server", "protocol", "port", "object", "authtype", "realm",
        "access-group", "expires", "comment", "seckit-id", label,
    ]

    /// The custom metadata of an item: its identity and attributes (as the Secret Service keeps them),
    /// and the label, over the `stored` pairs other tools wrote.
    static func pairs(
        for identity: CredentialIdentity,
        _ attributes: CredentialAttributes,
        keeping stored: [String: String]
    ) throws(KeychainError) -> [(String, String)] {
        var pairs = ItemAttributes.pairs(for: identity, attributes)
        pairs[label] = attributes.label ?? ItemAttributes.defaultLabel(for: identity)
        var result = stored.filter { !managed.contains(String($0.key.prefix { $0 != "." })) }.sorted { $0.key < $1.key }
        // The server refuses empty values (an empty account is in the path, not here).
        for (name, value) in pairs.sorted(by: { $0.key < $1.key }) where !value.isEmpty {
            for (index, piece) in split(value).enumerated() {
                result.append((index == 0 ? name : "\(name).\(index + 1)", piece))
            }
        }
        guard result.count <= 64 else {
            throw .invalidAttribute(
                "the item's attributes need \(result.count) custom metadata keys; the server keeps 64"
            )
        }
        return result
    }

    /// The pairs with continued values joined again.
    static func joined(_ pairs: [String: String]) -> [String: String] {
        var result: [String: String] = [:]
        for (name, value) in pairs where !name.contains(".") {
            var whole = value
            var index = 2
            while let next = pairs["\(name).\(index)"] {
                whole += next
                index += 1
            }
            result[name] = whole
        }
        return result
    }

    static func expiry(_ pairs: [String: String]) -> Date? { ItemAttributes.expiry(from: joined(pairs)) }

    /// `value` in pieces of at most `valueLimit` bytes, cut between characters.
    private static func split(_ value: String) -> [String] {
        var pieces: [String] = []
        var current = ""
        var count = 0
        for character in value {
            let size = character.utf8.count
            if count + size > valueLimit, !current.isEmpty {
                pieces.append(current)
                (current, count) = ("", 0)
            }
            current.append(character)
            count += size
        }
        pieces.append(current)
        return pieces
    }
}

/// A version's data and metadata (`GET <mount>/data/<path>`), the whole answer read in one pass:
/// of `data.data` only the fields SecKit reads (`secret`, `secret_base64`, or the one field of data
/// another tool wrote), of `data.metadata` only `custom_metadata`. Keyed containers rather than a
/// `[String: Value]` of every field: JSONDecoder's generic `Dictionary` decoding, with a container
/// per value, was a fifth of the decoding's instructions (docs/performance-journal.md, stop 38).
struct VaultItemData: Decodable {
    /// `secret`, when it is a string.
    private var text: String?
    /// `secret_base64`, when it is a string and there is no `secret` string.
    private var base64: String?
    /// The one field of data with no `secret` or `secret_base64` string, when it is a string.
    private var soleText: String?
    /// The path's custom metadata, which the answer carries beside the version's data.
    var customMetadata: [String: String] = [:]

    private enum AnswerKey: String, CodingKey { case data }
    private enum VersionKey: String, CodingKey { case data, metadata }
    private enum MetadataKey: String, CodingKey { case customMetadata = "custom_metadata" }
    /// A field of the data: any name another tool chose.
    private struct FieldKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
        static let secret = FieldKey(stringValue: VaultItemData.secretKey)
        static let base64 = FieldKey(stringValue: VaultItemData.base64Key)
    }

    /// Reads the answer; a value SecKit does not read may be of any type, as before (a `secret` that
    /// is not a string counts as absent), but `data`, `data.data` and `data.metadata` must be objects
    /// (or null, for the last two) and `custom_metadata` strings.
    init(from decoder: any Decoder) throws {
        let version = try decoder.container(keyedBy: AnswerKey.self).nestedContainer(
            keyedBy: VersionKey.self,
            forKey: .data
        )
        if version.contains(.data), try !version.decodeNil(forKey: .data) {
            let fields = try version.nestedContainer(keyedBy: FieldKey.self, forKey: .data)
            text = try? fields.decodeIfPresent(String.self, forKey: .secret)
            if text == nil { base64 = try? fields.decodeIfPresent(String.self, forKey: .base64) }
            if text == nil, base64 == nil, fields.allKeys.count == 1, let only = fields.allKeys.first {
                soleText = try? fields.decode(String.self, forKey: only)
            }
        }
        if version.contains(.metadata), try !version.decodeNil(forKey: .metadata) {
            let metadata = try version.nestedContainer(keyedBy: MetadataKey.self, forKey: .metadata)
            customMetadata = try metadata.decodeIfPresent([String: String].self, forKey: .customMetadata) ?? [:]
        }
    }

    static let secretKey = "secret"
    static let base64Key = "secret_base64"

    /// The data SecKit writes for `secret`: `secret` for UTF-8 text, `secret_base64` for other bytes.
    static func encode(_ secret: SecureBytes) -> VaultJSON.Value {
        let isText = secret.withUnsafeBytes { bytes in
            !transcode(bytes.makeIterator(), from: UTF8.self, to: UTF32.self, stoppingOnError: true) { _ in }
        }
        return isText
            ? .object([(secretKey, .string(secret))])
            : .object([(base64Key, .string(Base64.encodeSecret(secret)))])
    }

    /// The secret: `secret` as UTF-8, or `secret_base64` decoded, or the one string value of data
    /// another tool wrote with a name of its own (`bao kv put … password=…`).
    func secret() throws(KeychainError) -> SecureBytes {
        if let text { return SecureBytes(utf8: text) }
        if let base64 {
            guard let bytes = try? Base64.decode(base64) else {
                throw .invalidResponse("the item's secret_base64 is not base64")
            }
            return SecureBytes(bytes)
        }
        if let soleText { return SecureBytes(utf8: soleText) }
        throw .invalidResponse(
            "the item's data has no `secret` or `secret_base64` field (and not one single text field)"
        )
    }
}
