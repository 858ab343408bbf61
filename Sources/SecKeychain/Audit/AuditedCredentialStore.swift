import SecCrypto
import SecIO

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A `CredentialStore` that records every read, write and delete of another one in an `AuditLog`,
/// after the call and with its result. The store underneath is used as it is: any backend.
///
/// A call whose record cannot be written throws `KeychainError.io` (the log's reason), as a
/// service that must not hand out secrets unaudited does: a read then returns no secret; a write
/// or delete has been made and is reported as failed. A call that failed and could not be
/// recorded throws its own error.
///
/// ```swift
/// let store = SecretServiceStore().audited(to: AuditLog(path: "/var/log/seckit/credentials.audit"))
/// try store.upsert(.genericPassword(service: "db", account: "app"), string: password)
/// ```
public struct AuditedCredentialStore: CredentialStore {
    /// The store the calls go to.
    public let base: any CredentialStore
    public let log: AuditLog
    /// The `backend` of the records: `secret-service`, `file`, or the base store's type name.
    public let backend: String

    /// Records the calls of `base` in `log`.
    ///
    /// - Parameters:
    ///   - base: the store the calls go to.
    ///   - log: where the records go.
    ///   - backend: the name records give the store; nil names it after its type.
    public init(_ base: any CredentialStore, log: AuditLog, backend: String? = nil) {
        self.base = base
        self.log = log
        self.backend = backend ?? Self.name(of: base)
    }

    private static func name(of store: any CredentialStore) -> String {
        switch store {
        case is SecretServiceStore: "secret-service"
        case is EncryptedFileStore: "file"
        default: String(describing: type(of: store))
        }
    }

    public func upsert(
        _ identity: CredentialIdentity,
        secret: some ContiguousBytes,
        attributes: CredentialAttributes,
        timeout: Duration
    ) throws(KeychainError) {
        try audited(.write, "upsert", AuditedAttributes(identity)) { () throws(KeychainError) in
            try base.upsert(identity, secret: secret, attributes: attributes, timeout: timeout)
            return ((), nil, false)
        }
    }

    public func item(
        for identity: CredentialIdentity,
        includeSecret: Bool,
        timeout: Duration
    ) throws(KeychainError) -> CredentialItem {
        try audited(.read, "item", AuditedAttributes(identity)) { () throws(KeychainError) in
            let item = try base.item(for: identity, includeSecret: includeSecret, timeout: timeout)
            return (item, nil, item.secret != nil)
        }
    }

    public func secret(for identity: CredentialIdentity, timeout: Duration) throws(KeychainError) -> SecureBytes {
        try audited(.read, "secret", AuditedAttributes(identity)) { () throws(KeychainError) in
            (try base.secret(for: identity, timeout: timeout), nil, true)
        }
    }

    public func expiringSecret(
        for identity: CredentialIdentity,
        timeout: Duration
    ) throws(KeychainError) -> ExpiringSecret {
        try audited(.read, "expiringSecret", AuditedAttributes(identity)) { () throws(KeychainError) in
            (try base.expiringSecret(for: identity, timeout: timeout), nil, true)
        }
    }

    public func delete(_ identity: CredentialIdentity, timeout: Duration) throws(KeychainError) {
        try audited(.delete, "delete", AuditedAttributes(identity)) { () throws(KeychainError) in
            try base.delete(identity, timeout: timeout)
            return ((), nil, false)
        }
    }

    public func deleteAll(matching query: CredentialQuery, timeout: Duration) throws(KeychainError) -> Int {
        try audited(.delete, "deleteAll", AuditedAttributes(query)) { () throws(KeychainError) in
            let count = try base.deleteAll(matching: query, timeout: timeout)
            return (count, count, false)
        }
    }

    public func search(_ query: CredentialQuery, timeout: Duration) throws(KeychainError) -> [CredentialItem] {
        try audited(.read, "search", AuditedAttributes(query)) { () throws(KeychainError) in
            let items = try base.search(query, timeout: timeout)
            return (items, items.count, items.contains { $0.secret != nil })
        }
    }

    /// Runs `call` (which returns its value, a count for the record, and whether a secret was
    /// returned) and appends its record.
    private func audited<Value>(
        _ operation: AuditRecord.Operation,
        _ name: String,
        _ attributes: AuditedAttributes,
        _ call: () throws(KeychainError) -> (Value, Int?, Bool)
    ) throws(KeychainError) -> Value {
        let outcome: Result<(Value, Int?, Bool), KeychainError>
        do { outcome = .success(try call()) } catch { outcome = .failure(error) }
        let record = record(operation, name, attributes, outcome)
        let appended: KeychainError?
        do throws(KeychainError) {
            try log.append(record)
            appended = nil
        } catch {
            appended = error
        }
        return try value(of: outcome, appended: appended)
    }

    /// Awaits `call` and appends its record. The append waits for the log's lock (another writer
    /// may hold it), so it runs on a thread of its own, never on the cooperative pool, and in a
    /// task the caller's cancellation does not reach: a call that was made is recorded, even a
    /// write whose task was cancelled meanwhile.
    private func audited<Value>(
        _ operation: AuditRecord.Operation,
        _ name: String,
        _ attributes: AuditedAttributes,
        _ call: () async throws(KeychainError) -> (Value, Int?, Bool)
    ) async throws(KeychainError) -> Value {
        let outcome: Result<(Value, Int?, Bool), KeychainError>
        do { outcome = .success(try await call()) } catch { outcome = .failure(error) }
        let record = record(operation, name, attributes, outcome)
        let appended = await Task.detached { [log] () -> KeychainError? in
            do throws(KeychainError) {
                try await BlockingThread.run { () throws(KeychainError) in try log.append(record) }
                return nil
            } catch {
                return error
            }
        }.value
        return try value(of: outcome, appended: appended)
    }

    /// The record of a call that ended with `outcome`.
    private func record<Value>(
        _ operation: AuditRecord.Operation,
        _ name: String,
        _ attributes: AuditedAttributes,
        _ outcome: Result<(Value, Int?, Bool), KeychainError>
    ) -> AuditRecord {
        var record = AuditRecord(
            sequence: 0,
            time: Date(),
            operation: operation,
            call: name,
            backend: backend,
            identity: attributes,
            result: "ok",
            secretReturned: false,
            pid: getpid(),
            uid: getuid(),
            executable: ProcessIdentity.executable,
            previous: AuditRecord.genesis
        )
        switch outcome {
        case .success(let (_, count, secretReturned)):
            record.count = count
            record.secretReturned = secretReturned
        case .failure(let error):
            record.result = error.caseName
        }
        return record
    }

    /// The call's value once its record was appended; the log's error when the record of a
    /// successful call could not be written (a read then returns no secret); a failed call's own
    /// error whether or not its record was written.
    private func value<Value>(
        of outcome: Result<(Value, Int?, Bool), KeychainError>,
        appended: KeychainError?
    ) throws(KeychainError) -> Value {
        switch outcome {
        case .success(let (value, _, _)):
            if let appended { throw appended }
            return value
        case .failure(let error):
            throw error
        }
    }
}

// The async calls await the base store's own (`VaultStore`'s wait without a thread).
extension AuditedCredentialStore: NonBlockingCredentialStore {
    package func nonBlockingUpsert(
        _ identity: CredentialIdentity,
        secret: SecureBytes,
        attributes: CredentialAttributes,
        timeout: Duration
    ) async throws(KeychainError) {
        try await audited(.write, "upsert", AuditedAttributes(identity)) { () async throws(KeychainError) in
            try await base.upsert(identity, secret: secret, attributes: attributes, timeout: timeout)
            return ((), nil, false)
        }
    }

    package func nonBlockingItem(
        for identity: CredentialIdentity,
        includeSecret: Bool,
        timeout: Duration
    ) async throws(KeychainError) -> CredentialItem {
        try await audited(.read, "item", AuditedAttributes(identity)) { () async throws(KeychainError) in
            let item = try await base.item(for: identity, includeSecret: includeSecret, timeout: timeout)
            return (item, nil, item.secret != nil)
        }
    }

    package func nonBlockingSecret(
        for identity: CredentialIdentity,
        timeout: Duration
    ) async throws(KeychainError) -> SecureBytes {
        try await audited(.read, "secret", AuditedAttributes(identity)) { () async throws(KeychainError) in
            (try await base.secret(for: identity, timeout: timeout), nil, true)
        }
    }

    package func nonBlockingExpiringSecret(
        for identity: CredentialIdentity,
        timeout: Duration
    ) async throws(KeychainError) -> ExpiringSecret {
        try await audited(.read, "expiringSecret", AuditedAttributes(identity)) { () async throws(KeychainError) in
            (try await base.expiringSecret(for: identity, timeout: timeout), nil, true)
        }
    }

    package func nonBlockingDelete(_ identity: CredentialIdentity, timeout: Duration) async throws(KeychainError) {
        try await audited(.delete, "delete", AuditedAttributes(identity)) { () async throws(KeychainError) in
            try await base.delete(identity, timeout: timeout)
            return ((), nil, false)
        }
    }

    package func nonBlockingDeleteAll(
        matching query: CredentialQuery,
        timeout: Duration
    ) async throws(KeychainError) -> Int {
        try await audited(.delete, "deleteAll", AuditedAttributes(query)) { () async throws(KeychainError) in
            let count = try await base.deleteAll(matching: query, timeout: timeout)
            return (count, count, false)
        }
    }

    package func nonBlockingSearch(
        _ query: CredentialQuery,
        timeout: Duration
    ) async throws(KeychainError) -> [CredentialItem] {
        try await audited(.read, "search", AuditedAttributes(query)) { () async throws(KeychainError) in
            let items = try await base.search(query, timeout: timeout)
            return (items, items.count, items.contains { $0.secret != nil })
        }
    }
}

extension CredentialStore {
    /// This store with every call recorded in `log` (see `AuditedCredentialStore`).
    ///
    /// - Parameter log: where the records go.
    /// - Returns: the audited store.
    public func audited(to log: AuditLog) -> AuditedCredentialStore { AuditedCredentialStore(self, log: log) }

    /// This store, audited when `SECKIT_AUDIT_LOG` names a log (`AuditLog.fromEnvironment()`),
    /// else itself: what seccli does with every store it opens.
    ///
    /// - Returns: the audited store, or this one.
    public func auditedIfConfigured() -> any CredentialStore {
        AuditLog.fromEnvironment().map { audited(to: $0) } ?? self
    }
}

/// The executable of this process, read once.
enum ProcessIdentity {
    static let executable: String = {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return CommandLine.arguments.first ?? "?" }
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()
}

extension KeychainError {
    /// The case's name (`notFound`, `locked`, `timeout`, …): what an audit record's `result` holds,
    /// never the detail, which may quote attributes.
    var caseName: String {
        switch self {
        case .noSessionBus: "noSessionBus"
        case .noSecretService: "noSecretService"
        case .noDefaultCollection: "noDefaultCollection"
        case .noSessionCollection: "noSessionCollection"
        case .locked: "locked"
        case .notFound: "notFound"
        case .ambiguous: "ambiguous"
        case .timeout: "timeout"
        case .cancelled: "cancelled"
        case .secretTooLarge: "secretTooLarge"
        case .invalidAttribute: "invalidAttribute"
        case .wrongStorePassword: "wrongStorePassword"
        case .corruptStore: "corruptStore"
        case .io: "io"
        case .backendFailure: "backendFailure"
        case .serverSealed: "serverSealed"
        case .serverUninitialized: "serverUninitialized"
        case .serverUnreachable: "serverUnreachable"
        case .permissionDenied: "permissionDenied"
        case .missingMount: "missingMount"
        case .untrustedServer: "untrustedServer"
        case .invalidResponse: "invalidResponse"
        }
    }
}
