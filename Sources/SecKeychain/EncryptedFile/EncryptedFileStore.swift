import SecCrypto

/// A keychain in one file, for servers without a Secret Service: AES-256-GCM under a key derived
/// with PBKDF2-HMAC-SHA256 from a master password (salt and iteration count in the file's header).
/// Chosen explicitly, never a silent fallback.
///
/// The first write creates the file's missing folders (mode 0700). Writes replace the file
/// atomically (temporary file, `fsync`, `rename`, `fsync` of the folder) with mode 0600, under an
/// advisory lock on `<path>.lock` held across read-modify-write, so concurrent processes never lose
/// an update. Reads take no lock. The key is derived once per
/// store value (PBKDF2 is slow on purpose; the first call pays for it, outside its timeout), and
/// the decrypted items are kept until the file changes (lookups then cost a read and a comparison
/// of the file, not a decryption).
///
/// ```swift
/// let store = try EncryptedFileStore(path: "/var/lib/app/credentials.store", password: try SecretSource.environment("STORE_PASSWORD").read())
/// try store.upsert(.genericPassword(service: "db", account: "app"), string: dbPassword)
/// ```
public struct EncryptedFileStore: CredentialStore {
    /// PBKDF2-HMAC-SHA256 iterations for new files: OWASP's 2023 figure.
    public static let defaultIterations = 600_000

    /// The store file.
    public let path: String
    private let iterations: Int
    private let state: EncryptedFileState

    /// A store in the file at `path` (created by the first write). `iterations` applies to a new
    /// file; an existing one says its own. Throws `invalidAttribute` for fewer iterations than
    /// OWASP's minimum.
    ///
    /// - Parameters:
    ///   - path: the store file; it and its missing folders are created by the first write.
    ///   - password: the master password the key is derived from.
    ///   - iterations: the PBKDF2-HMAC-SHA256 iteration count for a new file
    ///     (``EncryptedFileStore/defaultIterations`` by default); an existing file keeps its own.
    /// - Throws: ``KeychainError/invalidAttribute(_:)`` when `iterations` is outside 600,000 (OWASP's
    ///   minimum for PBKDF2-HMAC-SHA256) to 100,000,000 (the format's maximum). The file is not read
    ///   here: a wrong password is found by the first call.
    public init(path: String, password: SecureBytes, iterations: Int = defaultIterations) throws(KeychainError) {
        let minimum = KDF.PBKDF2.minimumIterations(for: .sha256)
        guard (minimum...EncryptedFileHeader.maximumIterations).contains(iterations) else {
            throw .invalidAttribute(
                "PBKDF2 iterations must be between \(minimum) and \(EncryptedFileHeader.maximumIterations), got \(iterations)"
            )
        }
        self.path = path
        self.iterations = iterations
        state = EncryptedFileState(password: password)
    }

    public func upsert(
        _ identity: CredentialIdentity,
        secret: some ContiguousBytes,
        attributes: CredentialAttributes,
        timeout: Duration
    ) throws(KeychainError) {
        try Self.validate(identity, attributes, secret: secret)
        try modify(until: OperationDeadline(timeout)) { items in
            let now = Date()
            let created = items.filter { $0.identity == identity }.map(\.created).min() ?? now
            items.removeAll { $0.identity == identity }
            items.append(
                FileItem(
                    pairs: ItemAttributes.pairs(for: identity, attributes),
                    label: attributes.label ?? ItemAttributes.defaultLabel(for: identity),
                    created: created,
                    modified: now,
                    secret: SecureBytes(secret)
                )
            )
        }
    }

    public func item(
        for identity: CredentialIdentity,
        includeSecret: Bool,
        timeout: Duration
    ) throws(KeychainError) -> CredentialItem {
        try ItemAttributes.validate(identity)
        let snapshot = try state.snapshot(of: path)
        guard let position = snapshot.positions[identity] else { throw .notFound }
        return Self.credentialItem(identity, snapshot.items[position], includeSecret: includeSecret)
    }

    public func delete(_ identity: CredentialIdentity, timeout: Duration) throws(KeychainError) {
        try ItemAttributes.validate(identity)
        try modify(until: OperationDeadline(timeout)) { (items) throws(KeychainError) in
            let before = items.count
            items.removeAll { $0.identity == identity }
            guard items.count < before else { throw .notFound }
        }
    }

    public func deleteAll(matching query: CredentialQuery, timeout: Duration) throws(KeychainError) -> Int {
        var removed = 0
        try modify(until: OperationDeadline(timeout)) { (items) throws(KeychainError) in
            let before = items.count
            items.removeAll { $0.identity.map(query.matches) == true }
            removed = before - items.count
            guard removed > 0 else { throw .notFound }
        }
        return removed
    }

    public func search(_ query: CredentialQuery, timeout: Duration) throws(KeychainError) -> [CredentialItem] {
        let found = try state.snapshot(of: path).items.compactMap { item -> CredentialItem? in
            guard let identity = item.identity, query.matches(identity) else { return nil }
            return Self.credentialItem(identity, item, includeSecret: query.includeSecrets)
        }
        return try query.applyingLimit(to: found) { .notFound }
    }

    /// Reads the items, changes them with `change`, and writes them back, under the lock (taking
    /// it creates the file's missing folders, so the default path works on a fresh machine).
    private func modify(
        until deadline: OperationDeadline,
        _ change: (inout [FileItem]) throws(KeychainError) -> Void
    ) throws(KeychainError) {
        try FileLock(path: path + ".lock").withExclusiveLock(until: deadline) { () throws(KeychainError) in
            let snapshot = try state.snapshot(of: path)
            var items = snapshot.items
            try change(&items)
            if let header = snapshot.header {
                try state.write(items, to: path, header: header)
            } else {
                try state.write(items, to: path, header: state.newHeader(iterations: iterations))
            }
        }
    }

    private static func credentialItem(
        _ identity: CredentialIdentity,
        _ item: FileItem,
        includeSecret: Bool
    ) -> CredentialItem {
        CredentialItem(
            identity: identity,
            label: item.label,
            comment: item.pairs[ItemAttributes.comment],
            expiresAt: ItemAttributes.expiry(from: item.pairs),
            created: item.created,
            modified: item.modified,
            secret: includeSecret ? item.secret : nil
        )
    }
}
