import SecCrypto
import SecIO
import SecKeychain
import SecTLS

/// A keychain on an OpenBao or Vault server's KV version 2 engine, for fleets: the same
/// `CredentialStore` as the desktop's Secret Service, shared by every machine that can log in.
///
/// Each identity is one KV path (`VaultPath` shows the layout; docs/SecVault.md has it in full).
/// The secret is the version's data, `{"secret": "<UTF-8 text>"}` or, for bytes that are not
/// UTF-8, `{"secret_base64": "<base64>"}`. The identity, label, comment and expiry are also in the
/// path's custom metadata, so `search`, `list` and `deleteAll` read metadata only, never a secret.
/// `upsert` writes the metadata, then the data with check-and-set on the version it read, and
/// starts again when another writer came between (no update is lost). `delete` removes the path's
/// metadata and with it every version (`bao kv metadata delete`).
///
/// ```swift
/// let store = try VaultStore(configuration: try VaultConfiguration.fromEnvironment())
/// try store.upsert(.genericPassword(service: "db", account: "app"), string: password)
/// let secret = try store.secret(for: .genericPassword(service: "db", account: "app"))
/// ```
public struct VaultStore: CredentialStore {
    /// The protocol core: login, renewal, redirects, retries.
    public let client: VaultClient

    /// A store over `transport`.
    ///
    /// - Parameters:
    ///   - configuration: the server, how to reach it and log in, and the mount and path prefix of
    ///     the items.
    ///   - transport: what sends the requests (``CurlTransport``, or AsyncHTTPClient's in
    ///     SecVaultHTTPClient); nothing is sent before the first call.
    public init(configuration: VaultConfiguration, transport: any VaultTransport) {
        client = VaultClient(configuration: configuration, transport: transport)
        prefix = configuration.pathPrefix.split(separator: "/").joined(separator: "/")
        mount = VaultPath.encodeURLPath(configuration.mount.split(separator: "/").joined(separator: "/"))
    }

    /// A store over libcurl (`CurlTransport`), which is loaded by the first request.
    ///
    /// - Parameter configuration: the server, how to reach it and log in, and the mount and path
    ///   prefix of the items; its TLS settings are read here.
    /// - Throws: `KeychainError.invalidAttribute` when the TLS configuration cannot be used (an
    ///   unreadable CA file, pin-only trust without pins).
    public init(configuration: VaultConfiguration) throws(KeychainError) {
        let transport: CurlTransport
        do {
            transport = try CurlTransport(tls: configuration.tls)
        } catch {
            throw .invalidAttribute("the TLS settings of the OpenBao/Vault server: \(error)")
        }
        self.init(configuration: configuration, transport: transport)
    }

    public var configuration: VaultConfiguration { client.configuration }

    /// The configuration's path prefix and mount without empty segments, the mount encoded for a
    /// URL: made once here, not on every call.
    let prefix: String
    private let mount: String

    private func api(_ kind: String, _ kvPath: String) -> String {
        mount + "/" + kind + "/" + VaultPath.encodeURLPath(kvPath)
    }

    // MARK: - CredentialStore

    /// Stores `secret` under `identity`: the path's custom metadata (identity, label, comment,
    /// expiry, and the pairs other tools wrote, kept), then a new version of its data written with
    /// check-and-set on the version the metadata showed. When another writer stored a version in
    /// between, it starts again: the last writer wins, and no write is lost in a race.
    ///
    /// - Parameters:
    ///   - identity: the item's identity, which names its KV path.
    ///   - secret: the secret's bytes, any bytes (NUL included), up to
    ///     `CredentialStore.maximumSecretByteCount`; UTF-8 text is stored as `secret`, other bytes as
    ///     `secret_base64`.
    ///   - attributes: the label, comment and expiry to store with it.
    ///   - timeout: how long the call may take, login, retries and every round trip included.
    /// - Throws: `KeychainError.secretTooLarge` for a secret over
    ///   `CredentialStore.maximumSecretByteCount` bytes; `KeychainError.invalidAttribute` for an
    ///   identity or attributes no store can keep (an empty or NUL-containing part, a port outside 1
    ///   to 65535), or attributes that need more than the 64 custom metadata keys the server keeps;
    ///   `KeychainError.serverSealed` or `KeychainError.serverUninitialized` when the server is
    ///   sealed or not initialised; `KeychainError.permissionDenied` when the login is refused or the
    ///   token's policy refuses the path (HTTP 403, after one new login when the store can make one);
    ///   `KeychainError.missingMount` when the KV mount (or the login's auth mount) does not exist;
    ///   `KeychainError.invalidAttribute` for certificate login without a client identity;
    ///   `KeychainError.serverUnreachable` when no connection succeeded (retried with backoff until
    ///   the deadline) or the transport cannot be used (libcurl missing);
    ///   `KeychainError.untrustedServer` when TLS refused the server's certificate or pins (or the
    ///   server our certificate); `KeychainError.invalidResponse` for an answer that is not the
    ///   API's (an unexpected HTTP status, a 5xx that retries did not cure, a body that is not its
    ///   JSON, a second redirect or one from `https` to `http`); `KeychainError.timeout` when the
    ///   call does not finish within `timeout`, or `KeychainError.cancelled` when its task (the
    ///   async API's) is cancelled.
    ///   When the data write fails after the metadata write, the metadata already describe the new
    ///   attributes and the previous secret stays.
    public func upsert(
        _ identity: CredentialIdentity,
        secret: some ContiguousBytes,
        attributes: CredentialAttributes,
        timeout: Duration
    ) throws(KeychainError) {
        try Self.validate(identity, attributes, secret: secret)
        let data = VaultItemData.encode(SecureBytes(secret))
        try perform(timeout) { deadline throws(KeychainError) in try upsertPlan(identity, data, attributes, deadline) }
    }

    func upsertPlan(
        _ identity: CredentialIdentity,
        _ data: VaultJSON.Value,
        _ attributes: CredentialAttributes,
        _ deadline: OperationDeadline
    ) throws(KeychainError) -> VaultPlan<Void> {
        let path = VaultPath.of(identity, prefix: prefix)
        return try metadata(at: path, until: deadline).flatMap { stored throws(KeychainError) in
            let pairs = try VaultItemMetadata.pairs(for: identity, attributes, keeping: stored?.custom_metadata ?? [:])
            let metadataBody = VaultJSON.Value.object([("custom_metadata", .object(pairs.map { ($0.0, .text($0.1)) }))])
            let body = VaultJSON.Value.object([
                ("options", .object([("cas", .integer(stored?.current_version ?? 0))])), ("data", data),
            ])
            return try client.send("POST", api("metadata", path), body: VaultJSON.encode(metadataBody), until: deadline)
                .flatMap { response throws(KeychainError) in
                    try expectSuccess(response)
                    return try client.send("POST", api("data", path), body: VaultJSON.encode(body), until: deadline)
                }
                .flatMap { response throws(KeychainError) in
                    if response.status == 400, VaultJSON.errors(in: response.body).contains("check-and-set") {
                        // Another writer stored a version since the metadata was read: write over it.
                        return try upsertPlan(identity, data, attributes, deadline)
                    }
                    try expectSuccess(response)
                    return .done(())
                }
        }
    }

    /// The item with exactly this identity, from its path's metadata, with its secret when
    /// `includeSecret` is true (one more request, for the current version's data).
    ///
    /// - Parameters:
    ///   - identity: the item's identity.
    ///   - includeSecret: whether to read the secret into the item.
    ///   - timeout: how long the call may take, login, retries and every round trip included.
    /// - Returns: the item: its label (the default label when it has none), comment and expiry; its
    ///   creation time (the path's) and modification time (the current version's); and its secret
    ///   when `includeSecret` is true.
    /// - Throws: `KeychainError.notFound` when the path does not exist or its current version is
    ///   deleted or destroyed; `KeychainError.invalidAttribute` for an identity no store can keep (an
    ///   empty or NUL-containing part, a port outside 1 to 65535); with `includeSecret`,
    ///   `KeychainError.invalidResponse` for data with no `secret` or `secret_base64` field (and not
    ///   one single text field) or a `secret_base64` that is not base64;
    ///   `KeychainError.serverSealed` or `KeychainError.serverUninitialized` when the server is
    ///   sealed or not initialised; `KeychainError.permissionDenied` when the login is refused or the
    ///   token's policy refuses the path (HTTP 403, after one new login when the store can make one);
    ///   `KeychainError.missingMount` when the KV mount (or the login's auth mount) does not exist;
    ///   `KeychainError.invalidAttribute` for certificate login without a client identity;
    ///   `KeychainError.serverUnreachable` when no connection succeeded (retried with backoff until
    ///   the deadline) or the transport cannot be used (libcurl missing);
    ///   `KeychainError.untrustedServer` when TLS refused the server's certificate or pins (or the
    ///   server our certificate); `KeychainError.invalidResponse` for an answer that is not the
    ///   API's (an unexpected HTTP status, a 5xx that retries did not cure, a body that is not its
    ///   JSON, a second redirect or one from `https` to `http`); `KeychainError.timeout` when the
    ///   call does not finish within `timeout`, or `KeychainError.cancelled` when its task (the
    ///   async API's) is cancelled.
    public func item(
        for identity: CredentialIdentity,
        includeSecret: Bool,
        timeout: Duration
    ) throws(KeychainError) -> CredentialItem {
        try ItemAttributes.validate(identity)
        return try perform(timeout) { deadline throws(KeychainError) in
            try itemPlan(identity, includeSecret: includeSecret, deadline)
        }
    }

    func itemPlan(
        _ identity: CredentialIdentity,
        includeSecret: Bool,
        _ deadline: OperationDeadline
    ) throws(KeychainError) -> VaultPlan<CredentialItem> {
        let path = VaultPath.of(identity, prefix: prefix)
        return try metadata(at: path, until: deadline).flatMap { stored throws(KeychainError) in
            guard let stored, stored.hasLiveVersion else { throw .notFound }
            let item = stored.item(identity)
            guard includeSecret else { return .done(item) }
            return try expiringSecret(at: path, until: deadline).map { found in
                var item = item
                item.secret = found.secret
                return item
            }
        }
    }

    /// The secret stored under exactly this identity with its expiry, from one read of the current
    /// version's data (which carries the path's custom metadata).
    ///
    /// - Parameters:
    ///   - identity: the item's identity.
    ///   - timeout: how long the call may take, login, retries and every round trip included.
    /// - Returns: the current version's secret (`secret` as UTF-8, `secret_base64` decoded, or the one
    ///   text field of data another tool wrote), in memory that is wiped on release, and the item's
    ///   expiry (nil when it has none).
    /// - Throws: `KeychainError.notFound` when the path has no current version that is neither
    ///   deleted nor destroyed; `KeychainError.invalidAttribute` for an identity no store can keep (an
    ///   empty or NUL-containing part, a port outside 1 to 65535); `KeychainError.invalidResponse` for
    ///   data with no `secret` or `secret_base64` field (and not one single text field) or a
    ///   `secret_base64` that is not base64;
    ///   `KeychainError.serverSealed` or `KeychainError.serverUninitialized` when the server is
    ///   sealed or not initialised; `KeychainError.permissionDenied` when the login is refused or the
    ///   token's policy refuses the path (HTTP 403, after one new login when the store can make one);
    ///   `KeychainError.missingMount` when the KV mount (or the login's auth mount) does not exist;
    ///   `KeychainError.invalidAttribute` for certificate login without a client identity;
    ///   `KeychainError.serverUnreachable` when no connection succeeded (retried with backoff until
    ///   the deadline) or the transport cannot be used (libcurl missing);
    ///   `KeychainError.untrustedServer` when TLS refused the server's certificate or pins (or the
    ///   server our certificate); `KeychainError.invalidResponse` for an answer that is not the
    ///   API's (an unexpected HTTP status, a 5xx that retries did not cure, a body that is not its
    ///   JSON, a second redirect or one from `https` to `http`); `KeychainError.timeout` when the
    ///   call does not finish within `timeout`, or `KeychainError.cancelled` when its task (the
    ///   async API's) is cancelled.
    public func expiringSecret(
        for identity: CredentialIdentity,
        timeout: Duration
    ) throws(KeychainError)
        -> ExpiringSecret
    {
        try ItemAttributes.validate(identity)
        let path = VaultPath.of(identity, prefix: prefix)
        return try perform(timeout) { deadline throws(KeychainError) in try expiringSecret(at: path, until: deadline) }
    }

    /// Deletes the item with exactly this identity: its path's metadata, and with them every
    /// version (`bao kv metadata delete`), so no older version can be read back.
    ///
    /// - Parameters:
    ///   - identity: the identity whose item to delete.
    ///   - timeout: how long the call may take, login, retries and every round trip included.
    /// - Throws: `KeychainError.notFound` when the path does not exist, or when its current version
    ///   was already deleted or destroyed (the path's remaining versions are removed all the same);
    ///   `KeychainError.invalidAttribute` for an identity no store can keep (an empty or
    ///   NUL-containing part, a port outside 1 to 65535);
    ///   `KeychainError.serverSealed` or `KeychainError.serverUninitialized` when the server is
    ///   sealed or not initialised; `KeychainError.permissionDenied` when the login is refused or the
    ///   token's policy refuses the path (HTTP 403, after one new login when the store can make one);
    ///   `KeychainError.missingMount` when the KV mount (or the login's auth mount) does not exist;
    ///   `KeychainError.invalidAttribute` for certificate login without a client identity;
    ///   `KeychainError.serverUnreachable` when no connection succeeded (retried with backoff until
    ///   the deadline) or the transport cannot be used (libcurl missing);
    ///   `KeychainError.untrustedServer` when TLS refused the server's certificate or pins (or the
    ///   server our certificate); `KeychainError.invalidResponse` for an answer that is not the
    ///   API's (an unexpected HTTP status, a 5xx that retries did not cure, a body that is not its
    ///   JSON, a second redirect or one from `https` to `http`); `KeychainError.timeout` when the
    ///   call does not finish within `timeout`, or `KeychainError.cancelled` when its task (the
    ///   async API's) is cancelled.
    public func delete(_ identity: CredentialIdentity, timeout: Duration) throws(KeychainError) {
        try ItemAttributes.validate(identity)
        try perform(timeout) { deadline throws(KeychainError) in try deletePlan(identity, deadline) }
    }

    func deletePlan(
        _ identity: CredentialIdentity,
        _ deadline: OperationDeadline
    ) throws(KeychainError)
        -> VaultPlan<Void>
    {
        let path = VaultPath.of(identity, prefix: prefix)
        return try metadata(at: path, until: deadline).flatMap { stored throws(KeychainError) in
            guard let stored else { throw .notFound }
            return try client.send("DELETE", api("metadata", path), until: deadline).map {
                response throws(KeychainError) in
                try expectSuccess(response)
                guard stored.hasLiveVersion else { throw .notFound }
            }
        }
    }

    /// Deletes every item matching `query` (as `search(_:timeout:)` finds them, from metadata
    /// alone; `limit` and `includeSecrets` do not apply), one path's metadata and versions at a time:
    /// an empty query deletes every item under the path prefix. Paths that are not of SecKit's
    /// layout (`VaultPath`) are left alone.
    ///
    /// - Parameters:
    ///   - query: the items to delete; an empty query matches every item.
    ///   - timeout: how long the call may take, the listing, login, retries and every deletion
    ///     included.
    /// - Returns: how many items were deleted; at least one.
    /// - Throws: `KeychainError.notFound` when no item matches; `KeychainError.serverSealed` or
    ///   `KeychainError.serverUninitialized` when the server is sealed or not initialised;
    ///   `KeychainError.permissionDenied` when the login is refused or the
    ///   token's policy refuses the path (HTTP 403, after one new login when the store can make one);
    ///   `KeychainError.missingMount` when the KV mount (or the login's auth mount) does not exist;
    ///   `KeychainError.invalidAttribute` for certificate login without a client identity;
    ///   `KeychainError.serverUnreachable` when no connection succeeded (retried with backoff until
    ///   the deadline) or the transport cannot be used (libcurl missing);
    ///   `KeychainError.untrustedServer` when TLS refused the server's certificate or pins (or the
    ///   server our certificate); `KeychainError.invalidResponse` for an answer that is not the
    ///   API's (an unexpected HTTP status, a 5xx that retries did not cure, a body that is not its
    ///   JSON, a second redirect or one from `https` to `http`); `KeychainError.timeout` when the
    ///   call does not finish within `timeout`, or `KeychainError.cancelled` when its task (the
    ///   async API's) is cancelled.
    ///   An error midway ends the call: the items deleted before it stay deleted.
    public func deleteAll(matching query: CredentialQuery, timeout: Duration) throws(KeychainError) -> Int {
        try perform(timeout) { deadline throws(KeychainError) in try deleteAllPlan(query, deadline) }
    }

    func deleteAllPlan(
        _ query: CredentialQuery,
        _ deadline: OperationDeadline
    ) throws(KeychainError)
        -> VaultPlan<Int>
    {
        var query = query
        query.includeSecrets = false
        query.limit = .all
        return try items(matching: query, until: deadline).flatMap { found throws(KeychainError) in
            guard !found.isEmpty else { throw .notFound }
            func delete(from index: Int) throws(KeychainError) -> VaultPlan<Int> {
                guard index < found.count else { return .done(found.count) }
                let path = VaultPath.of(found[index].identity, prefix: prefix)
                return try client.send("DELETE", api("metadata", path), until: deadline).flatMap {
                    response throws(KeychainError) in
                    try expectSuccess(response)
                    return try delete(from: index + 1)
                }
            }
            return try delete(from: 0)
        }
    }

    /// The items matching `query` (most recently modified first), found by listing the folder the
    /// query narrows to (a group's, a service's) and reading each path's metadata, never a secret
    /// unless `query.includeSecrets` is set (then one more request per item). Paths that are not of
    /// SecKit's layout, and paths whose current version is deleted or destroyed, are skipped. An
    /// empty result is not an error, except for `limit: .one`.
    ///
    /// - Parameters:
    ///   - query: what the items must match, how many to return, and whether with their secrets.
    ///   - timeout: how long the call may take, the listing, login, retries and every read included.
    /// - Returns: the matching items, most recently modified first (one at most with `limit: .one`),
    ///   with their secrets when `query.includeSecrets` is set.
    /// - Throws: with `limit: .one`, `KeychainError.notFound` when no item matches and
    ///   `KeychainError.ambiguous` when items of several identities do;
    ///   with `includeSecrets`, `KeychainError.invalidResponse` for an item's data with no secret
    ///   SecKit can read (no `secret`, `secret_base64` or one single text field);
    ///   `KeychainError.serverSealed` or `KeychainError.serverUninitialized` when the server is
    ///   sealed or not initialised; `KeychainError.permissionDenied` when the login is refused or the
    ///   token's policy refuses the path (HTTP 403, after one new login when the store can make one);
    ///   `KeychainError.missingMount` when the KV mount (or the login's auth mount) does not exist;
    ///   `KeychainError.invalidAttribute` for certificate login without a client identity;
    ///   `KeychainError.serverUnreachable` when no connection succeeded (retried with backoff until
    ///   the deadline) or the transport cannot be used (libcurl missing);
    ///   `KeychainError.untrustedServer` when TLS refused the server's certificate or pins (or the
    ///   server our certificate); `KeychainError.invalidResponse` for an answer that is not the
    ///   API's (an unexpected HTTP status, a 5xx that retries did not cure, a body that is not its
    ///   JSON, a second redirect or one from `https` to `http`); `KeychainError.timeout` when the
    ///   call does not finish within `timeout`, or `KeychainError.cancelled` when its task (the
    ///   async API's) is cancelled.
    public func search(_ query: CredentialQuery, timeout: Duration) throws(KeychainError) -> [CredentialItem] {
        try perform(timeout) { deadline throws(KeychainError) in try searchPlan(query, deadline) }
    }

    func searchPlan(
        _ query: CredentialQuery,
        _ deadline: OperationDeadline
    ) throws(KeychainError)
        -> VaultPlan<[CredentialItem]>
    {
        try items(matching: query, until: deadline).flatMap { found throws(KeychainError) in
            func withSecrets(
                from index: Int,
                _ found: [CredentialItem]
            ) throws(KeychainError)
                -> VaultPlan<[CredentialItem]>
            {
                guard query.includeSecrets, index < found.count else {
                    return .done(try query.applyingLimit(to: found) { .notFound })
                }
                let path = VaultPath.of(found[index].identity, prefix: prefix)
                return try expiringSecret(at: path, until: deadline).flatMap { item throws(KeychainError) in
                    var found = found
                    found[index].secret = item.secret
                    return try withSecrets(from: index + 1, found)
                }
            }
            return try withSecrets(from: 0, found)
        }
    }

    // MARK: - KV requests

    /// The metadata of `path`; nil when there is none.
    private func metadata(
        at path: String,
        until deadline: OperationDeadline
    ) throws(KeychainError)
        -> VaultPlan<VaultItemMetadata?>
    {
        try client.send("GET", api("metadata", path), until: deadline).map { response throws(KeychainError) in
            if response.status == 404 {
                try checkMount(response)
                return nil
            }
            try expectSuccess(response)
            return try VaultJSON.decode(VaultAnswer<VaultItemMetadata>.self, from: response.body, "the item's metadata")
                .data
        }
    }

    func expiringSecret(
        at path: String,
        until deadline: OperationDeadline
    ) throws(KeychainError)
        -> VaultPlan<ExpiringSecret>
    {
        try client.send("GET", api("data", path), until: deadline).map { response throws(KeychainError) in
            if response.status == 404 {
                try checkMount(response)
                throw .notFound
            }
            try expectSuccess(response)
            let answer = try VaultJSON.decode(VaultItemData.self, from: response.body, "the item's data")
            return ExpiringSecret(
                secret: try answer.secret(),
                expiresAt: VaultItemMetadata.expiry(answer.customMetadata)
            )
        }
    }

    /// Every item under the query's folder that the query matches, from metadata alone: the folder
    /// listed, then each path's metadata read, depth first into its subfolders.
    private func items(
        matching query: CredentialQuery,
        until deadline: OperationDeadline
    ) throws(KeychainError)
        -> VaultPlan<[CredentialItem]>
    {
        func nextFolder(
            _ folders: [String],
            _ found: [CredentialItem]
        ) throws(KeychainError)
            -> VaultPlan<[CredentialItem]>
        {
            var folders = folders
            guard let folder = folders.popLast() else { return .done(found) }
            let listing = api("metadata", folder.isEmpty ? "" : folder + "/")
            return try client.send("LIST", listing, until: deadline).flatMap { response throws(KeychainError) in
                if response.status == 404 {
                    try checkMount(response)
                    return try nextFolder(folders, found)
                }
                try expectSuccess(response)
                struct Listing: Decodable { var keys: [String]? }
                let keys = try VaultJSON.decode(VaultAnswer<Listing>.self, from: response.body, "a listing").data.keys
                return try visit(keys?[...] ?? [], in: folder, folders, found)
            }
        }
        func visit(
            _ keys: ArraySlice<String>,
            in folder: String,
            _ folders: [String],
            _ found: [CredentialItem]
        ) throws(KeychainError) -> VaultPlan<[CredentialItem]> {
            var (keys, folders) = (keys, folders)
            while let key = keys.popFirst() {
                let path = folder.isEmpty ? key : folder + "/" + key
                if key.hasSuffix("/") {
                    folders.append(String(path.dropLast()))
                    continue
                }
                guard let identity = VaultPath.identity(of: path, prefix: prefix), query.matches(identity) else {
                    continue
                }
                return try metadata(at: path, until: deadline).flatMap { [folders, keys] stored throws(KeychainError) in
                    var found = found
                    if let stored, stored.hasLiveVersion { found.append(stored.item(identity)) }
                    return try visit(keys, in: folder, folders, found)
                }
            }
            return try nextFolder(folders, found)
        }
        return try nextFolder([VaultPath.folder(for: query, prefix: prefix)], [])
    }

    // MARK: - The drivers

    /// Runs the plan `make` builds on the calling thread, over the blocking transport.
    private func perform<Output>(
        _ timeout: Duration,
        _ make: (OperationDeadline) throws(KeychainError) -> VaultPlan<Output>
    ) throws(KeychainError) -> Output {
        let deadline = OperationDeadline(timeout)
        return try client.run(try make(deadline), until: deadline)
    }

    /// Runs the plan `make` builds in the calling task: awaiting the transport's answers when it is
    /// an `AsyncVaultTransport` (AsyncHTTPClient's), else on a thread of its own (`BlockingThread`,
    /// for libcurl's), never blocking the cooperative pool.
    func perform<Output: Sendable>(
        _ timeout: Duration,
        _ make: @escaping @Sendable (OperationDeadline) throws(KeychainError) -> VaultPlan<Output>
    ) async throws(KeychainError) -> Output {
        guard let transport = client.asyncTransport else {
            return try await BlockingThread.run { () throws(KeychainError) in try perform(timeout, make) }
        }
        let deadline = OperationDeadline(timeout)
        return try await client.run(try make(deadline), until: deadline, over: transport)
    }

    /// A 404 from a path the server has no engine for: `missingMount`.
    private func checkMount(_ response: VaultResponse) throws(KeychainError) {
        if VaultJSON.errors(in: response.body).contains("no handler for route") {
            throw .missingMount(configuration.mount)
        }
    }

    private func expectSuccess(_ response: VaultResponse) throws(KeychainError) {
        guard (200...299).contains(response.status) else {
            if response.status == 404 { try checkMount(response) }
            throw VaultServerError.keychainError(response)
        }
    }
}

/// The `data` of an API answer.
struct VaultAnswer<Content: Decodable>: Decodable {
    var data: Content
}
