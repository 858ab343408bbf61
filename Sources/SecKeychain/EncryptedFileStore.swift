import SecCrypto
import Synchronization

/// A keychain in one file, for servers without a Secret Service: AES-256-GCM under a key derived
/// with PBKDF2-HMAC-SHA256 from a master password (salt and iteration count in the file's header).
/// Chosen explicitly, never a silent fallback.
///
/// Writes replace the file atomically (temporary file, `fsync`, `rename`, `fsync` of the folder)
/// with mode 0600, under an advisory lock on `<path>.lock` held across read-modify-write, so
/// concurrent processes never lose an update. Reads take no lock. The key is derived once per
/// store value (PBKDF2 is slow on purpose; the first call pays for it, outside its timeout).
///
/// ```swift
/// let store = try EncryptedFileStore(path: "/var/lib/app/credentials.store", password: try SecretSource.environment("STORE_PASSWORD").read())
/// try store.upsert(.genericPassword(service: "db", account: "app"), string: dbPassword)
/// ```
public struct EncryptedFileStore: CredentialStore {
    /// PBKDF2-HMAC-SHA256 iterations for new files: OWASP's 2023 figure (about 0.2 s here).
    public static let defaultIterations = 600_000

    /// The store file.
    public let path: String
    private let iterations: Int
    private let keys: KeyCache

    /// A store in the file at `path` (created by the first write). `iterations` applies to a new
    /// file; an existing one says its own. Throws `invalidAttribute` for fewer iterations than
    /// OWASP's minimum.
    public init(path: String, password: SecureBytes, iterations: Int = defaultIterations) throws(KeychainError) {
        let minimum = KDF.PBKDF2.minimumIterations(for: .sha256)
        guard (minimum...EncryptedFileHeader.maximumIterations).contains(iterations) else {
            throw .invalidAttribute("PBKDF2 iterations must be between \(minimum) and \(EncryptedFileHeader.maximumIterations), got \(iterations)")
        }
        self.path = path
        self.iterations = iterations
        keys = KeyCache(password: password)
    }

    public func upsert(
        _ identity: CredentialIdentity, secret: some ContiguousBytes, attributes: CredentialAttributes, timeout: Duration
    ) throws(KeychainError) {
        try Self.validate(identity, attributes, secret: secret)
        try modify(until: OperationDeadline(timeout)) { items in
            let now = Date()
            let existing = items.filter { ItemAttributes.identity(from: $0.pairs) == identity }
            items.removeAll { ItemAttributes.identity(from: $0.pairs) == identity }
            items.append(FileItem(
                pairs: ItemAttributes.pairs(for: identity, attributes), label: attributes.label ?? ItemAttributes.defaultLabel(for: identity),
                created: existing.map(\.created).min() ?? now, modified: now, secret: SecureBytes(secret)))
        }
    }

    public func item(for identity: CredentialIdentity, includeSecret: Bool, timeout: Duration) throws(KeychainError) -> CredentialItem {
        try ItemAttributes.validate(identity)
        guard let item = try load().items.last(where: { ItemAttributes.identity(from: $0.pairs) == identity }) else { throw .notFound }
        return Self.credentialItem(identity, item, includeSecret: includeSecret)
    }

    public func delete(_ identity: CredentialIdentity, timeout: Duration) throws(KeychainError) {
        try ItemAttributes.validate(identity)
        try modify(until: OperationDeadline(timeout)) { (items) throws(KeychainError) in
            let before = items.count
            items.removeAll { ItemAttributes.identity(from: $0.pairs) == identity }
            guard items.count < before else { throw .notFound }
        }
    }

    public func search(_ query: CredentialQuery, timeout: Duration) throws(KeychainError) -> [CredentialItem] {
        let found = try load().items.compactMap { item -> CredentialItem? in
            guard let identity = ItemAttributes.identity(from: item.pairs), query.matches(identity) else { return nil }
            return Self.credentialItem(identity, item, includeSecret: query.includeSecrets)
        }
        return try query.applyingLimit(to: found) { .notFound }
    }

    // MARK: - The file

    private var lock: FileLock { FileLock(path: path + ".lock") }

    /// Reads the items, changes them with `change`, and writes them back, under the lock.
    private func modify(until deadline: OperationDeadline, _ change: (inout [FileItem]) throws(KeychainError) -> Void) throws(KeychainError) {
        try lock.withExclusiveLock(until: deadline) { () throws(KeychainError) in
            var (header, items) = try load()
            try change(&items)
            try write(items, header: header)
        }
    }

    /// The file's header (a new one when there is no file yet) and items.
    private func load() throws(KeychainError) -> (header: EncryptedFileHeader, items: [FileItem]) {
        guard let file = try StoreFile.read(path) else {
            let salt: [UInt8]
            do { salt = try SecureRandom.bytes(count: EncryptedFileHeader.saltByteCount) } catch { throw .backendFailure("\(error)") }
            let key = try keys.key(salt: salt, iterations: iterations)
            return (EncryptedFileHeader(iterations: iterations, salt: salt, key: key), [])
        }
        let header = try EncryptedFileHeader(parsing: file)
        let key = try keys.key(salt: header.salt, iterations: header.iterations)
        guard constantTimeEquals(EncryptedFileHeader.check(for: key), header.check) else { throw .wrongStorePassword }
        var plaintext: Data
        do {
            plaintext = try AES.GCM.open(AES.GCM.SealedBox(combined: file.dropFirst(EncryptedFileHeader.byteCount)), using: key, authenticating: header.bytes)
        } catch {
            throw .corruptStore("it does not authenticate under the master password")
        }
        defer { plaintext.withUnsafeMutableBytes { secureZero($0) } }
        return (header, try plaintext.withUnsafeBytes { buffer in Result { () throws(KeychainError) in try EncryptedFilePayload.decode(buffer) } }.get())
    }

    private func write(_ items: [FileItem], header: EncryptedFileHeader) throws(KeychainError) {
        let key = try keys.key(salt: header.salt, iterations: header.iterations)
        var plaintext = EncryptedFilePayload.encode(items)
        defer { plaintext.withUnsafeMutableBytes { secureZero($0) } }
        let sealed: Data
        do {
            guard let combined = try AES.GCM.seal(plaintext, using: key, authenticating: header.bytes).combined else {
                throw KeychainError.backendFailure("AES-GCM produced no combined box")
            }
            sealed = combined
        } catch {
            throw .backendFailure("\(error)")
        }
        try StoreFile.replace(path, with: header.bytes + sealed)
    }

    private static func credentialItem(_ identity: CredentialIdentity, _ item: FileItem, includeSecret: Bool) -> CredentialItem {
        CredentialItem(
            identity: identity, label: item.label, comment: item.pairs[ItemAttributes.comment], expiresAt: ItemAttributes.expiry(from: item.pairs),
            created: item.created, modified: item.modified, secret: includeSecret ? item.secret : nil)
    }
}

/// The master password and the key last derived from it, shared by copies of one store value.
private final class KeyCache: Sendable {
    private let password: SecureBytes
    private let derived = Mutex<(salt: [UInt8], iterations: Int, key: SymmetricKey)?>(nil)

    init(password: SecureBytes) { self.password = password }

    /// The key for this salt and iteration count, derived once.
    func key(salt: [UInt8], iterations: Int) throws(KeychainError) -> SymmetricKey {
        if let cached = derived.withLock({ $0 }), cached.salt == salt, cached.iterations == iterations { return cached.key }
        let key: SymmetricKey
        do {
            key = try KDF.PBKDF2.deriveKey(from: password, salt: salt, using: .sha256, iterations: iterations, outputByteCount: 32)
        } catch {
            throw .backendFailure("\(error)")
        }
        derived.withLock { $0 = (salt, iterations, key) }
        return key
    }
}
