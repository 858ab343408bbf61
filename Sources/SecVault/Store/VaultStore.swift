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
    public init(configuration: VaultConfiguration, transport: any VaultTransport) {
        client = VaultClient(configuration: configuration, transport: transport)
    }

    /// A store over libcurl (`CurlTransport`), which is loaded by the first request.
    /// - Throws: `invalidAttribute` when the TLS configuration cannot be used (an unreadable CA file).
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

    private var prefix: String {
        configuration.pathPrefix.split(separator: "/").joined(separator: "/")
    }

    private func api(_ kind: String, _ kvPath: String) -> String {
        let mount = configuration.mount.split(separator: "/").joined(separator: "/")
        return VaultPath.encodeURLPath(mount) + "/" + kind + "/" + VaultPath.encodeURLPath(kvPath)
    }

    // MARK: - CredentialStore

    public func upsert(
        _ identity: CredentialIdentity,
        secret: some ContiguousBytes,
        attributes: CredentialAttributes,
        timeout: Duration
    ) throws(KeychainError) {
        try Self.validate(identity, attributes, secret: secret)
        let deadline = OperationDeadline(timeout)
        let path = VaultPath.of(identity, prefix: prefix)
        let data = VaultItemData.encode(SecureBytes(secret))
        while true {
            let stored = try metadata(at: path, until: deadline)
            let pairs = try VaultItemMetadata.pairs(for: identity, attributes, keeping: stored?.custom_metadata ?? [:])
            let metadataBody = VaultJSON.Value.object([("custom_metadata", .object(pairs.map { ($0.0, .text($0.1)) }))])
            try expectSuccess(
                try client.send("POST", api("metadata", path), body: VaultJSON.encode(metadataBody), until: deadline)
            )
            let body = VaultJSON.Value.object([
                ("options", .object([("cas", .integer(stored?.current_version ?? 0))])), ("data", data),
            ])
            let response = try client.send("POST", api("data", path), body: VaultJSON.encode(body), until: deadline)
            if response.status == 400, VaultJSON.errors(in: response.body).contains("check-and-set") {
                // Another writer stored a version since the metadata was read: write over it.
                continue
            }
            try expectSuccess(response)
            return
        }
    }

    public func item(
        for identity: CredentialIdentity,
        includeSecret: Bool,
        timeout: Duration
    ) throws(KeychainError) -> CredentialItem {
        try ItemAttributes.validate(identity)
        let deadline = OperationDeadline(timeout)
        let path = VaultPath.of(identity, prefix: prefix)
        guard let stored = try metadata(at: path, until: deadline), stored.hasLiveVersion else { throw .notFound }
        var item = stored.item(identity)
        if includeSecret { item.secret = try expiringSecret(at: path, until: deadline).secret }
        return item
    }

    public func expiringSecret(
        for identity: CredentialIdentity,
        timeout: Duration
    ) throws(KeychainError)
        -> ExpiringSecret
    {
        try ItemAttributes.validate(identity)
        return try expiringSecret(at: VaultPath.of(identity, prefix: prefix), until: OperationDeadline(timeout))
    }

    public func delete(_ identity: CredentialIdentity, timeout: Duration) throws(KeychainError) {
        try ItemAttributes.validate(identity)
        let deadline = OperationDeadline(timeout)
        let path = VaultPath.of(identity, prefix: prefix)
        guard let stored = try metadata(at: path, until: deadline) else { throw .notFound }
        try expectSuccess(try client.send("DELETE", api("metadata", path), until: deadline))
        guard stored.hasLiveVersion else { throw .notFound }
    }

    public func deleteAll(matching query: CredentialQuery, timeout: Duration) throws(KeychainError) -> Int {
        let deadline = OperationDeadline(timeout)
        var query = query
        query.includeSecrets = false
        query.limit = .all
        let found = try items(matching: query, until: deadline)
        for item in found {
            let path = VaultPath.of(item.identity, prefix: prefix)
            try expectSuccess(try client.send("DELETE", api("metadata", path), until: deadline))
        }
        guard !found.isEmpty else { throw .notFound }
        return found.count
    }

    public func search(_ query: CredentialQuery, timeout: Duration) throws(KeychainError) -> [CredentialItem] {
        let deadline = OperationDeadline(timeout)
        var found = try items(matching: query, until: deadline)
        if query.includeSecrets {
            for index in found.indices {
                let path = VaultPath.of(found[index].identity, prefix: prefix)
                found[index].secret = try expiringSecret(at: path, until: deadline).secret
            }
        }
        return try query.applyingLimit(to: found) { .notFound }
    }

    // MARK: - KV requests

    /// The metadata of `path`; nil when there is none.
    private func metadata(
        at path: String,
        until deadline: OperationDeadline
    ) throws(KeychainError)
        -> VaultItemMetadata?
    {
        let response = try client.send("GET", api("metadata", path), until: deadline)
        if response.status == 404 {
            try checkMount(response)
            return nil
        }
        try expectSuccess(response)
        return try VaultJSON.decode(VaultAnswer<VaultItemMetadata>.self, from: response.body, "the item's metadata")
            .data
    }

    private func expiringSecret(
        at path: String,
        until deadline: OperationDeadline
    ) throws(KeychainError)
        -> ExpiringSecret
    {
        let response = try client.send("GET", api("data", path), until: deadline)
        if response.status == 404 {
            try checkMount(response)
            throw .notFound
        }
        try expectSuccess(response)
        let answer = try VaultJSON.decode(VaultAnswer<VaultItemData>.self, from: response.body, "the item's data").data
        return ExpiringSecret(
            secret: try answer.secret(),
            expiresAt: VaultItemMetadata.expiry(answer.metadata?.custom_metadata ?? [:])
        )
    }

    /// Every item under the query's folder that the query matches, from metadata alone.
    private func items(
        matching query: CredentialQuery,
        until deadline: OperationDeadline
    ) throws(KeychainError)
        -> [CredentialItem]
    {
        var found: [CredentialItem] = []
        var folders = [VaultPath.folder(for: query, prefix: prefix)]
        while let folder = folders.popLast() {
            let response = try client.send("LIST", api("metadata", folder.isEmpty ? "" : folder + "/"), until: deadline)
            if response.status == 404 {
                try checkMount(response)
                continue
            }
            try expectSuccess(response)
            struct Listing: Decodable { var keys: [String]? }
            let keys = try VaultJSON.decode(VaultAnswer<Listing>.self, from: response.body, "a listing").data.keys ?? []
            for key in keys {
                let path = folder.isEmpty ? key : folder + "/" + key
                if key.hasSuffix("/") {
                    folders.append(String(path.dropLast()))
                    continue
                }
                guard let identity = VaultPath.identity(of: path, prefix: prefix), query.matches(identity),
                    let stored = try metadata(at: path, until: deadline), stored.hasLiveVersion
                else { continue }
                found.append(stored.item(identity))
            }
        }
        return found
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
