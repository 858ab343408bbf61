import SecCrypto

/// One item as the encrypted-file store keeps it: the same attribute pairs the Secret Service gets.
struct FileItem {
    let pairs: [String: String]
    let label: String
    let created: Date
    let modified: Date
    let secret: SecureBytes
    /// The identity the pairs describe (nil for pairs that describe none).
    let identity: CredentialIdentity?

    init(pairs: [String: String], label: String, created: Date, modified: Date, secret: SecureBytes) {
        self.pairs = pairs
        self.label = label
        self.created = created
        self.modified = modified
        self.secret = secret
        identity = ItemAttributes.identity(from: pairs)
    }
}

/// The layout of an encrypted keychain file (all integers big-endian):
///
///     "SECKITKC" | version 1 (1 byte) | KDF 1 = PBKDF2-HMAC-SHA256 (1) | iterations (4) | salt (16)
///     | check (32) = HMAC-SHA256(key, "SecKeychain password check") | nonce (12) | ciphertext | tag (16)
///
/// The key is PBKDF2 of the master password; AES-256-GCM seals the items with the 62 header bytes
/// as associated data. The check tells a wrong password (`wrongStorePassword`) from an altered
/// file (`corruptStore`). The plaintext is: item count (4), then per item: pair count (4), each
/// name and value as length (4) + UTF-8, label likewise, created and modified as milliseconds
/// since 1970 (8 each), secret as length (4) + bytes.
struct EncryptedFileHeader: Equatable {
    static let magic = Array("SECKITKC".utf8)
    static let version: UInt8 = 1
    static let pbkdf2SHA256: UInt8 = 1
    static let saltByteCount = 16
    static let byteCount = magic.count + 2 + 4 + saltByteCount + 32
    /// More would make opening the file a denial of service.
    static let maximumIterations = 100_000_000

    var iterations: Int
    var salt: [UInt8]
    var check: [UInt8]

    /// The header of a file sealed with `key`.
    init(iterations: Int, salt: [UInt8], key: SymmetricKey) {
        self.iterations = iterations
        self.salt = salt
        check = Self.check(for: key)
    }

    static func check(for key: SymmetricKey) -> [UInt8] {
        HMAC<SHA256>.authenticationCode(for: Array("SecKeychain password check".utf8), using: key).bytes
    }

    var bytes: [UInt8] {
        var bytes = Self.magic + [Self.version, Self.pbkdf2SHA256]
        bytes.appendBigEndian(UInt32(iterations))
        return bytes + salt + check
    }

    /// Reads the header at the start of `file`.
    init(parsing file: [UInt8]) throws(KeychainError) {
        guard file.count >= Self.byteCount + 12 + 16 else { throw .corruptStore("the file is too short") }
        guard Array(file.prefix(Self.magic.count)) == Self.magic else { throw .corruptStore("not a SecKeychain file") }
        let fields = try file.withUnsafeBufferPointer { (buffer) throws(KeychainError) in
            var reader = ByteReader(
                UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[Self.magic.count..<Self.byteCount]))
            )
            let version = try reader.byte()
            let kdf = try reader.byte()
            guard version == Self.version, kdf == Self.pbkdf2SHA256 else {
                throw .corruptStore("unknown format version \(version).\(kdf)")
            }
            return (
                iterations: Int(try reader.uint32()), salt: try reader.bytes(Self.saltByteCount),
                check: try reader.bytes(32)
            )
        }
        guard (KDF.PBKDF2.minimumIterations(for: .sha256)...Self.maximumIterations).contains(fields.iterations) else {
            throw .corruptStore("implausible PBKDF2 iteration count \(fields.iterations)")
        }
        (iterations, salt, check) = fields
    }
}

/// The plaintext of an encrypted keychain file.
enum EncryptedFilePayload {
    /// The plaintext, in a buffer allocated once (no copies of secrets left behind by growth);
    /// the caller wipes it.
    static func encode(_ items: [FileItem]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(
            items.reduce(4) { total, item in
                let pairs = item.pairs.reduce(0) { $0 + 8 + $1.key.utf8.count + $1.value.utf8.count }
                return total + 4 + pairs + 4 + item.label.utf8.count + 16 + 4 + item.secret.count
            }
        )
        bytes.appendBigEndian(UInt32(items.count))
        for item in items {
            bytes.appendBigEndian(UInt32(item.pairs.count))
            for (name, value) in item.pairs.sorted(by: { $0.key < $1.key }) {
                bytes.appendField(Array(name.utf8))
                bytes.appendField(Array(value.utf8))
            }
            bytes.appendField(Array(item.label.utf8))
            bytes.appendBigEndian(UInt64(bitPattern: Int64((item.created.timeIntervalSince1970 * 1000).rounded())))
            bytes.appendBigEndian(UInt64(bitPattern: Int64((item.modified.timeIntervalSince1970 * 1000).rounded())))
            item.secret.withUnsafeBytes { bytes.appendField($0) }
        }
        return bytes
    }

    static func decode(_ plaintext: UnsafeRawBufferPointer) throws(KeychainError) -> [FileItem] {
        var reader = ByteReader(plaintext)
        var items: [FileItem] = []
        for _ in 0..<(try reader.uint32()) {
            var pairs: [String: String] = [:]
            for _ in 0..<(try reader.uint32()) {
                pairs[try reader.string()] = try reader.string()
            }
            let label = try reader.string()
            let created = try reader.date()
            let modified = try reader.date()
            let secret = try reader.secureField()
            items.append(FileItem(pairs: pairs, label: label, created: created, modified: modified, secret: secret))
        }
        guard reader.isAtEnd else { throw .corruptStore("bytes after the last item") }
        return items
    }
}

/// Reads big-endian integers and length-prefixed fields in place (secrets are copied only into
/// `SecureBytes`); running short is `corruptStore`.
struct ByteReader {
    private let buffer: UnsafeRawBufferPointer
    private var offset = 0

    init(_ buffer: UnsafeRawBufferPointer) { self.buffer = buffer }

    var isAtEnd: Bool { offset == buffer.count }

    private mutating func take(_ count: Int) throws(KeychainError) -> UnsafeRawBufferPointer {
        guard count >= 0, buffer.count - offset >= count else { throw .corruptStore("the contents are truncated") }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + count])
    }

    mutating func bytes(_ count: Int) throws(KeychainError) -> [UInt8] { Array(try take(count)) }
    mutating func byte() throws(KeychainError) -> UInt8 { try take(1)[0] }
    mutating func uint32() throws(KeychainError) -> UInt32 { try take(4).reduce(0) { $0 << 8 | UInt32($1) } }
    mutating func uint64() throws(KeychainError) -> UInt64 { try take(8).reduce(0) { $0 << 8 | UInt64($1) } }

    /// Milliseconds since 1970, within the years 0001–9999 that `encode` can write back (a value
    /// near Int64.max would trap there).
    mutating func date() throws(KeychainError) -> Date {
        let milliseconds = Int64(bitPattern: try uint64())
        guard (-62_135_596_800_000...253_402_300_799_999).contains(milliseconds) else {
            throw .corruptStore("a date is out of range")
        }
        return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    mutating func string() throws(KeychainError) -> String {
        let field = try take(Int(try uint32()))
        guard let text = String(validating: field, as: UTF8.self) else {
            throw .corruptStore("an attribute is not UTF-8")
        }
        return text
    }

    mutating func secureField() throws(KeychainError) -> SecureBytes {
        SecureBytes(try take(Int(try uint32())))
    }
}

extension [UInt8] {
    mutating func appendBigEndian(_ value: some FixedWidthInteger) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }

    mutating func appendField(_ field: some Collection<UInt8>) {
        appendBigEndian(UInt32(field.count))
        append(contentsOf: field)
    }
}
