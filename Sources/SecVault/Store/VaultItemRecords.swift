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

/// A version's data and metadata (`GET <mount>/data/<path>`).
struct VaultItemData: Decodable {
    struct Metadata: Decodable { var custom_metadata: [String: String]? }
    /// A value of the data: SecKit reads strings only.
    enum Value: Decodable {
        case string(String)
        case other

        init(from decoder: any Decoder) throws {
            self = (try? decoder.singleValueContainer().decode(String.self)).map(Value.string) ?? .other
        }
    }

    var data: [String: Value]?
    var metadata: Metadata?

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
        let data = data ?? [:]
        if case .string(let text)? = data[Self.secretKey] { return SecureBytes(utf8: text) }
        if case .string(let text)? = data[Self.base64Key] {
            guard let bytes = try? Base64.decode(text) else {
                throw .invalidResponse("the item's secret_base64 is not base64")
            }
            return SecureBytes(bytes)
        }
        if data.count == 1, case .string(let text)? = data.first?.value { return SecureBytes(utf8: text) }
        throw .invalidResponse(
            "the item's data has no `secret` or `secret_base64` field (and not one single text field)"
        )
    }
}
