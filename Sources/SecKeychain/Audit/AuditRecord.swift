import SecCrypto

/// One line of an audit log: who did what to which credential, and how it ended. Never a secret:
/// the identity's attributes (service, account, server, …) are what `secret-tool search` shows.
///
/// A line is this record as one JSON object with sorted keys; `previous` is the SHA-256 (hex) of the
/// previous line's bytes (without its newline), so that editing, deleting or reordering a line
/// breaks the chain at the next one (`AuditLog.verify()`).
public struct AuditRecord: Codable, Hashable, Sendable {
    /// What a call did to the store.
    public enum Operation: String, Codable, Hashable, Sendable {
        /// A lookup or search (`item(for:)`, `secret(for:)`, `expiringSecret(for:)`, `search`).
        case read
        /// `upsert`.
        case write
        /// `delete`, `deleteAll(matching:)`.
        case delete
    }

    /// The position of the record in the log, from 1, continued across rotated files.
    public var sequence: Int
    /// When the call ended (UTC, milliseconds).
    public var time: Date
    public var operation: Operation
    /// The `CredentialStore` call (`secret`, `expiringSecret`, `item`, `search`, `upsert`, `delete`, `deleteAll`).
    public var call: String
    /// The store: `secret-service`, `file`, or the type's name for another `CredentialStore`.
    public var backend: String
    /// The identity of the item, or the attributes a search or `deleteAll` matched (unset ones absent).
    public var identity: AuditedAttributes
    /// `ok`, or the `KeychainError` case that ended the call (`notFound`, `locked`, `timeout`, …).
    public var result: String
    /// For `search` and `deleteAll`: how many items were returned or deleted.
    public var count: Int?
    /// Whether the call returned a secret (to the caller, never to the log).
    public var secretReturned: Bool
    public var pid: Int32
    public var uid: UInt32
    /// The executable that made the call (`/proc/self/exe`).
    public var executable: String
    /// SHA-256 (hex) of the previous line; 64 zeros for the first record of a log.
    public var previous: String

    /// The `previous` of a log's first record.
    public static let genesis = String(repeating: "0", count: 64)

    private enum CodingKeys: String, CodingKey {
        case sequence, time, operation, call, backend, identity, result, count, secretReturned, pid, uid, executable,
            previous
    }

    public init(
        sequence: Int,
        time: Date,
        operation: Operation,
        call: String,
        backend: String,
        identity: AuditedAttributes,
        result: String,
        count: Int? = nil,
        secretReturned: Bool,
        pid: Int32,
        uid: UInt32,
        executable: String,
        previous: String
    ) {
        self.sequence = sequence
        self.time = time
        self.operation = operation
        self.call = call
        self.backend = backend
        self.identity = identity
        self.result = result
        self.count = count
        self.secretReturned = secretReturned
        self.pid = pid
        self.uid = uid
        self.executable = executable
        self.previous = previous
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        sequence = try container.decode(Int.self, forKey: .sequence)
        let timeText = try container.decode(String.self, forKey: .time)
        guard let time = try? Date(timeText, strategy: Self.timeStyle) else {
            throw DecodingError.dataCorruptedError(
                forKey: .time,
                in: container,
                debugDescription: "not an ISO 8601 time"
            )
        }
        self.time = time
        operation = try container.decode(Operation.self, forKey: .operation)
        call = try container.decode(String.self, forKey: .call)
        backend = try container.decode(String.self, forKey: .backend)
        identity = try container.decode(AuditedAttributes.self, forKey: .identity)
        result = try container.decode(String.self, forKey: .result)
        count = try container.decodeIfPresent(Int.self, forKey: .count)
        secretReturned = try container.decode(Bool.self, forKey: .secretReturned)
        pid = try container.decode(Int32.self, forKey: .pid)
        uid = try container.decode(UInt32.self, forKey: .uid)
        executable = try container.decode(String.self, forKey: .executable)
        previous = try container.decode(String.self, forKey: .previous)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sequence, forKey: .sequence)
        try container.encode(time.formatted(Self.timeStyle), forKey: .time)
        try container.encode(operation, forKey: .operation)
        try container.encode(call, forKey: .call)
        try container.encode(backend, forKey: .backend)
        try container.encode(identity, forKey: .identity)
        try container.encode(result, forKey: .result)
        try container.encodeIfPresent(count, forKey: .count)
        try container.encode(secretReturned, forKey: .secretReturned)
        try container.encode(pid, forKey: .pid)
        try container.encode(uid, forKey: .uid)
        try container.encode(executable, forKey: .executable)
        try container.encode(previous, forKey: .previous)
    }

    /// How `time` is written: `2026-11-28T06:55:00.123Z` (UTC, milliseconds).
    public static let timeStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// The record as one line of JSON (sorted keys, no newline).
    func line() throws(KeychainError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do { return [UInt8](try encoder.encode(self)) } catch {
            throw .backendFailure("audit record: \(error)")
        }
    }

    /// The record of one line, nil when the line is not one.
    static func parse(_ line: some DataProtocol) -> AuditRecord? {
        try? JSONDecoder().decode(AuditRecord.self, from: Data(line))
    }
}

/// The non-secret attributes that name an item (or that a search matched): those of
/// `CredentialIdentity` and `CredentialQuery`, unset ones left out.
public struct AuditedAttributes: Codable, Hashable, Sendable {
    /// `generic` or `internet`.
    public var itemClass: String?
    public var service: String?
    public var account: String?
    public var accessGroup: String?
    public var server: String?
    public var `protocol`: String?
    public var port: Int?
    public var path: String?
    public var authenticationType: String?
    public var realm: String?

    public init(_ identity: CredentialIdentity) {
        itemClass = identity.service == nil ? "internet" : "generic"
        service = identity.service
        account = identity.account
        accessGroup = identity.accessGroup
        let location = identity.internetLocation
        server = location?.server
        `protocol` = location?.protocol
        port = location?.port
        path = location?.path
        authenticationType = location?.authenticationType
        realm = location?.realm
    }

    public init(_ query: CredentialQuery) {
        itemClass = query.itemClass?.rawValue
        service = query.service
        account = query.account
        accessGroup = query.accessGroup
        server = query.server
        `protocol` = query.protocol
        port = query.port
        path = query.path
        authenticationType = query.authenticationType
        realm = query.realm
    }

    /// `service S, account A` or `server H, account A` (and the parts set besides), for one line of text.
    public var summary: String {
        var parts: [String] = []
        func add(_ name: String, _ value: String?) { if let value { parts.append("\(name) \(value)") } }
        add("class", itemClass)
        add("service", service)
        add("server", server)
        add("protocol", `protocol`)
        add("port", port.map(String.init))
        add("path", path)
        add("auth", authenticationType)
        add("realm", realm)
        add("account", account)
        add("group", accessGroup)
        return parts.isEmpty ? "every item" : parts.joined(separator: ", ")
    }
}
