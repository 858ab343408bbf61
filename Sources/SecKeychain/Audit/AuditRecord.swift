import SecCrypto

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

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

    /// A record of one call.
    ///
    /// - Parameters:
    ///   - sequence: its position in the log (`AuditLog.append(_:)` sets it).
    ///   - time: when the call ended.
    ///   - operation: read, write or delete.
    ///   - call: the `CredentialStore` call.
    ///   - backend: the store's name.
    ///   - identity: the item's attributes, or those a query matched.
    ///   - result: `ok` or the error's case name.
    ///   - count: the items a search returned or a `deleteAll` deleted.
    ///   - secretReturned: whether the call returned a secret.
    ///   - pid: the calling process.
    ///   - uid: its user.
    ///   - executable: its executable.
    ///   - previous: the SHA-256 of the previous line (`AuditLog.append(_:)` sets it).
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

    /// Reads a record from its JSON object (the `time` as `timeStyle` writes it).
    ///
    /// - Parameter decoder: the decoder.
    /// - Throws: `DecodingError` for a missing or mistyped field.
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

    /// Writes the record as its JSON object, as a line of the log holds it.
    ///
    /// - Parameter encoder: the encoder.
    /// - Throws: the encoder's errors.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sequence, forKey: .sequence)
        try container.encode(Self.timeText(time), forKey: .time)
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

    /// The record as one line of JSON (sorted keys, no newline), as `JSONEncoder` with sorted keys
    /// writes it, but written here: every seccli process that touches a store writes one, and
    /// Foundation's encoder and date formatter would page in far more code than the line needs
    /// (docs/performance-journal.md).
    func line() -> [UInt8] {
        var json = JSONLine()
        json.open()
        json.field("backend", string: backend)
        json.field("call", string: call)
        if let count { json.field("count", number: count) }
        json.field("executable", string: executable)
        json.key("identity")
        identity.write(to: &json)
        json.field("operation", string: operation.rawValue)
        json.field("pid", number: Int(pid))
        json.field("previous", string: previous)
        json.field("result", string: result)
        json.field("secretReturned", bool: secretReturned)
        json.field("sequence", number: sequence)
        json.field("time", string: Self.timeText(time))
        json.field("uid", number: Int(uid))
        json.close()
        return json.bytes
    }

    /// `2026-11-28T06:55:00.123Z`, what `timeStyle` writes, from `gmtime_r`. To the nearest
    /// millisecond: a time read back from a line is the double nearest its milliseconds, often just
    /// below them, so rounding down wrote a record read from the log 1 ms earlier than its line.
    static func timeText(_ time: Date) -> String {
        let milliseconds = Int64((time.timeIntervalSince1970 * 1000).rounded())
        return ItemAttributes.utcDateTime(time_t(milliseconds / 1000)) + "."
            + ItemAttributes.digits(Int32(milliseconds % 1000), 3) + "Z"
    }

    /// The `sequence` of a line this type wrote, found without parsing the rest: the last
    /// `"sequence":` of the line (in a string value the closing quote would be escaped); nil when none.
    static func sequence(of line: [UInt8]) -> Int? {
        let key = Array(#""sequence":"#.utf8)
        guard line.count > key.count else { return nil }
        for start in stride(from: line.count - key.count, through: 0, by: -1)
        where line[start..<(start + key.count)].elementsEqual(key) {
            var value = 0
            var index = start + key.count
            while index < line.count, (0x30...0x39).contains(line[index]), value < Int.max / 10 - 9 {
                value = value * 10 + Int(line[index] - 0x30)
                index += 1
            }
            return index > start + key.count ? value : nil
        }
        return nil
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

    /// The attributes of an item's identity.
    ///
    /// - Parameter identity: the identity.
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

    /// The attributes a query matches (its limit and `includeSecrets` aside).
    ///
    /// - Parameter query: the query.
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

    /// Writes the attributes as a JSON object with sorted keys, unset ones left out.
    func write(to json: inout JSONLine) {
        json.open()
        if let accessGroup { json.field("accessGroup", string: accessGroup) }
        if let account { json.field("account", string: account) }
        if let authenticationType { json.field("authenticationType", string: authenticationType) }
        if let itemClass { json.field("itemClass", string: itemClass) }
        if let path { json.field("path", string: path) }
        if let port { json.field("port", number: port) }
        if let `protocol` { json.field("protocol", string: `protocol`) }
        if let realm { json.field("realm", string: realm) }
        if let server { json.field("server", string: server) }
        if let service { json.field("service", string: service) }
        json.close()
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

/// A JSON object written byte by byte: keys in the order given, strings escaped as RFC 8259 asks,
/// and DEL, C1 controls and U+2028/U+2029 escaped too, so that a line of the log stays one line
/// for any reader (as seccli's `--json` output does).
struct JSONLine {
    private(set) var bytes: [UInt8] = []
    private var first = true

    init() { bytes.reserveCapacity(512) }

    mutating func open() {
        bytes.append(UInt8(ascii: "{"))
        first = true
    }

    mutating func close() {
        bytes.append(UInt8(ascii: "}"))
        first = false
    }

    mutating func key(_ name: String) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        string(name)
        bytes.append(UInt8(ascii: ":"))
    }

    mutating func field(_ name: String, string value: String) {
        key(name)
        string(value)
    }

    mutating func field(_ name: String, number value: Int) {
        key(name)
        bytes += Array(String(value).utf8)
    }

    mutating func field(_ name: String, bool value: Bool) {
        key(name)
        bytes += Array((value ? "true" : "false").utf8)
    }

    private mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": bytes += Array(#"\""#.utf8)
            case "\\": bytes += Array(#"\\"#.utf8)
            case "\n": bytes += Array(#"\n"#.utf8)
            case "\r": bytes += Array(#"\r"#.utf8)
            case "\t": bytes += Array(#"\t"#.utf8)
            default:
                let value = scalar.value
                if value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029 {
                    let hex = String(value, radix: 16)
                    bytes += Array(("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
                } else {
                    bytes += Array(String(scalar).utf8)
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
