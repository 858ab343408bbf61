import Foundation
import SecCrypto
import SecKeychain
import SecTLS
import SecVault
import TestSupport
import Testing

/// The OpenBao store against a real `bao server -dev -dev-tls`, with the `bao` CLI and Python's hvac
/// as the other clients: each reads what SecKit wrote and SecKit reads what each wrote.
@Suite struct VaultStoreTests {
    /// One dev server for the suite; each test works under a prefix of its own.
    static let server = Result { try OpenBaoDevServer.start() }

    let server: OpenBaoDevServer
    let prefix = "t-" + UUID().uuidString.prefix(8).lowercased()

    init() throws { server = try Self.server.get() }

    func configuration(token: String? = nil, mount: String = "secret") throws -> VaultConfiguration {
        var tls = TLSClientConfiguration()
        tls.trustRoots = .caFile(server.caFile)
        return VaultConfiguration(
            address: try VaultAddress(parsing: server.address),
            login: .token(SecureBytes(Array((token ?? server.rootToken).utf8))),
            tls: tls,
            mount: mount,
            pathPrefix: prefix
        )
    }

    func store(token: String? = nil, mount: String = "secret") throws -> VaultStore {
        try VaultStore(configuration: configuration(token: token, mount: mount))
    }

    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    func hvac(_ command: String, _ path: String, stdin: [String: Any]? = nil) throws -> ProcessResult {
        try InteropPeer.hvac.runAllowingFailure(
            [command, path],
            stdin: try stdin.map { Array(try JSONSerialization.data(withJSONObject: $0)) } ?? [],
            environment: server.environment
        )
    }

    @Test func baoReadsWhatSecKitWroteWithItsAttributes() throws {
        let store = try store()
        let id = CredentialIdentity.genericPassword(service: "db.example", account: "app", accessGroup: "ci-tools")
        let expiry = Date(timeIntervalSince1970: 1_900_000_000)
        try store.upsert(
            id,
            string: "hunter2 ü",
            attributes: CredentialAttributes(label: "DB", comment: "c", expiresAt: expiry)
        )

        let path = "\(prefix)/groups/ci-tools/generic/db.example/app"
        #expect(try server.baoSucceeding(["kv", "get", "-mount=secret", "-field=secret", path]) == "hunter2 ü")
        let metadata = try json(server.baoSucceeding(["kv", "metadata", "get", "-mount=secret", "-format=json", path]))
        let custom = try #require((metadata["data"] as? [String: Any])?["custom_metadata"] as? [String: String])
        #expect(custom["service"] == "db.example" && custom["account"] == "app" && custom["access-group"] == "ci-tools")
        #expect(custom["label"] == "DB" && custom["comment"] == "c" && custom["expires"] == "2030-03-17T17:46:40Z")

        let item = try store.item(for: id)
        #expect(item.label == "DB" && item.comment == "c" && item.expiresAt == expiry && item.secret == nil)
        #expect(item.created != nil && item.modified != nil)
    }

    @Test func secKitReadsWhatBaoWrote() throws {
        let store = try store()
        try server.baoSucceeding(["kv", "put", "-mount=secret", "\(prefix)/generic/api/deploy", "secret=from bao"])
        // Another tool's single field counts as the secret.
        try server.baoSucceeding(["kv", "put", "-mount=secret", "\(prefix)/generic/api/other", "password=pw"])
        try server.baoSucceeding([
            "kv", "put", "-mount=secret", "\(prefix)/internet/git.example.com/alice/protocol=https", "secret=tok",
        ])

        #expect(try store.string(for: .genericPassword(service: "api", account: "deploy")) == "from bao")
        #expect(try store.string(for: .genericPassword(service: "api", account: "other")) == "pw")
        let web = CredentialIdentity.internetPassword(server: "git.example.com", account: "alice", protocol: "https")
        #expect(try store.string(for: web) == "tok")

        let found = try store.search(CredentialQuery(service: "api"))
        #expect(Set(found.map(\.identity.account)) == ["deploy", "other"])
        #expect(found.allSatisfy { $0.secret == nil })
        #expect(try store.search(CredentialQuery(itemClass: .internetPassword)).map(\.identity) == [web])
    }

    @Test func dataOtherToolsWroteIsReadByTheLayoutsRulesAndTheRestIsTyped() throws {
        let store = try store()
        func id(_ account: String) -> CredentialIdentity { .genericPassword(service: "other", account: account) }
        func put(_ account: String, _ data: [String: Any]) throws {
            try hvac("put", "\(prefix)/generic/other/\(account)", stdin: ["data": data]).requiringSuccess(
                of: "hvac put"
            )
        }
        try put("both", ["secret": "text", "secret_base64": Base64.encode(Array("bytes".utf8))])
        try put("named", ["token": "t", "secret": "s"])
        try put("base64", ["note": "n", "secret_base64": Base64.encode([0, 0xff])])
        try put("number", ["secret": 42, "password": "pw"])
        try put("lone-number", ["secret": 42])
        try put("bad-base64", ["secret_base64": "not base64!"])
        try put("nothing", [:])
        try server.baoSucceeding(["kv", "put", "-mount=secret", "\(prefix)/generic/other/two", "user=u", "password=p"])

        // `secret` first, then `secret_base64`, whatever else the data holds.
        #expect(try store.string(for: id("both")) == "text")
        #expect(try store.string(for: id("named")) == "s")
        #expect(try store.secret(for: id("base64")) == SecureBytes([0, 0xff]))
        // No secret SecKit can read: a typed error, not a guess (a number is not a secret's text).
        for account in ["number", "lone-number", "bad-base64", "nothing", "two"] {
            do {
                _ = try store.secret(for: id(account))
                Issue.record("\(account): read a secret")
            } catch {
                guard case .invalidResponse = error else { throw error }
            }
        }
    }

    @Test func hvacReadsBinarySecretsAndExpiryBothWays() throws {
        let store = try store()
        let secret = randomBytes(64) + [0, 0xff, 0xfe]
        let id = CredentialIdentity.genericPassword(service: "keys", account: "signing")
        let expiry = Date(timeIntervalSince1970: 2_000_000_000)
        try store.upsert(id, secret: secret, attributes: CredentialAttributes(expiresAt: expiry))

        let read = try json(hvac("get", "\(prefix)/generic/keys/signing").requiringSuccess(of: "hvac get").stdoutText)
        let data = try #require(read["data"] as? [String: String])
        #expect(try Base64.decode(try #require(data["secret_base64"])) == secret)
        #expect((read["custom_metadata"] as? [String: String])?["expires"] == "2033-05-18T03:33:20Z")

        let written = randomBytes(32)
        try hvac(
            "put",
            "\(prefix)/groups/team/generic/keys/hvac",
            stdin: [
                "data": ["secret_base64": Base64.encode(written)],
                "custom_metadata": ["expires": "2020-01-01T00:00:00Z", "label": "from hvac"],
            ]
        ).requiringSuccess(of: "hvac put")
        let hvacID = CredentialIdentity.genericPassword(service: "keys", account: "hvac", accessGroup: "team")
        let expiring = try store.expiringSecret(for: hvacID, timeout: .seconds(10))
        #expect(expiring.secret == SecureBytes(written))
        #expect(expiring.isExpired() && expiring.expiresAt == Date(timeIntervalSince1970: 1_577_836_800))
        #expect(try store.item(for: hvacID).label == "from hvac")
    }

    @Test func accessGroupsAreFoldersAndQueriesMatchThem() throws {
        let store = try store()
        let a = CredentialIdentity.genericPassword(service: "s", account: "x", accessGroup: "alpha")
        let b = CredentialIdentity.genericPassword(service: "s", account: "x", accessGroup: "beta")
        let none = CredentialIdentity.genericPassword(service: "s", account: "x")
        try store.upsert(a, string: "a")
        try store.upsert(b, string: "b")
        try store.upsert(none, string: "none")
        #expect(try store.string(for: a) == "a" && store.string(for: b) == "b" && store.string(for: none) == "none")
        #expect(try store.search(CredentialQuery(accessGroup: "alpha")).map(\.identity) == [a])
        #expect(try store.search(CredentialQuery(service: "s")).count == 3)
        let keys = try hvac("list", "\(prefix)/groups").requiringSuccess(of: "hvac list").stdoutLines
        #expect(Set(keys) == ["alpha/", "beta/"])
        #expect(throws: KeychainError.ambiguous(count: 3)) {
            try store.search(CredentialQuery(service: "s", limit: .one))
        }
    }

    @Test func oneItemPerIdentityAndNamesWithSlashesStayOneSegment() throws {
        let store = try store()
        let id = CredentialIdentity.internetPassword(
            server: "host.example",
            account: "",
            protocol: "https",
            port: 8443,
            path: "/api/v1",
            realm: "R, \"x\"=y"
        )
        try store.upsert(id, string: "one")
        try store.upsert(id, string: "two")
        let found = try store.search(CredentialQuery(server: "host.example", includeSecrets: true))
        #expect(found.map(\.identity) == [id])
        #expect(found.first?.secret == SecureBytes(Array("two".utf8)))
        let metadata = try json(
            server.baoSucceeding([
                "kv", "metadata", "get", "-mount=secret", "-format=json",
                "\(prefix)/internet/host.example/-/protocol=https,port=8443,path=%2Fapi%2Fv1,realm=R%2C%20%22x%22%3Dy",
            ])
        )
        #expect((metadata["data"] as? [String: Any])?["current_version"] as? Int == 2, "each upsert is a KV version")
    }

    @Test func deleteRemovesEveryVersionAndMetadata() throws {
        let store = try store()
        let id = CredentialIdentity.genericPassword(service: "gone", account: "soon")
        try store.upsert(id, string: "v1")
        try store.upsert(id, string: "v2")
        try store.delete(id)
        let read = try server.bao(["kv", "metadata", "get", "-mount=secret", "\(prefix)/generic/gone/soon"])
        #expect(read.status == 2, "no metadata is left: \(read.stdoutText)")
        #expect(throws: KeychainError.notFound) { try store.delete(id) }
        #expect(throws: KeychainError.notFound) { try store.secret(for: id) }

        // An item whose latest version `bao kv delete` soft-deleted is not found.
        try store.upsert(id, string: "v3")
        try server.baoSucceeding(["kv", "delete", "-mount=secret", "\(prefix)/generic/gone/soon"])
        #expect(throws: KeychainError.notFound) { try store.secret(for: id) }
        #expect(try store.search(CredentialQuery(service: "gone")).isEmpty)
    }

    @Test func searchAndDeleteAllReadNoSecret() throws {
        let store = try store()
        for account in ["a", "b", "c"] {
            try store.upsert(.genericPassword(service: "meta", account: account, accessGroup: "g"), string: account)
        }
        // A token that may list, read and delete metadata, and read no data at all.
        let token = try server.token(
            policy: "metadata-only-\(prefix)",
            rules: """
                path "secret/metadata/\(prefix)/*" { capabilities = ["list", "read", "delete"] }
                path "secret/metadata/\(prefix)" { capabilities = ["list"] }
                """
        )
        let metadataOnly = try self.store(token: token)
        #expect(try metadataOnly.search(CredentialQuery(accessGroup: "g")).count == 3)
        #expect(
            try metadataOnly.item(for: .genericPassword(service: "meta", account: "a", accessGroup: "g")).label != nil
        )
        #expect(throws: KeychainError.self) {
            try metadataOnly.secret(for: .genericPassword(service: "meta", account: "a", accessGroup: "g"))
        }
        #expect(try metadataOnly.deleteAll(matching: CredentialQuery(service: "meta", account: "b")) == 1)
        #expect(try metadataOnly.deleteAll(matching: CredentialQuery(accessGroup: "g")) == 2)
        #expect(throws: KeychainError.notFound) {
            try metadataOnly.deleteAll(matching: CredentialQuery(accessGroup: "g"))
        }
    }

    @Test func concurrentWritersLoseNoUpdate() async throws {
        let store = try store()
        let id = CredentialIdentity.genericPassword(service: "race", account: "x")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<6 {
                group.addTask {
                    for round in 0..<8 {
                        try await store.upsert(id, string: "\(writer)-\(round)", timeout: .seconds(60))
                    }
                }
            }
            try await group.waitForAll()
        }
        let metadata = try json(
            server.baoSucceeding(["kv", "metadata", "get", "-mount=secret", "-format=json", "\(prefix)/generic/race/x"])
        )
        // Check-and-set: every one of the 48 upserts became a version of its own; none overwrote another unseen.
        #expect((metadata["data"] as? [String: Any])?["current_version"] as? Int == 48)
    }

    @Test func refusalsAndMissingMountsAreTyped() throws {
        let id = CredentialIdentity.genericPassword(service: "x", account: "y")
        let noPolicy = try server.token(
            policy: "nothing-\(prefix)",
            rules: #"path "sys/nothing" { capabilities = ["read"] }"#
        )
        let denied = try store(token: noPolicy)
        do {
            _ = try denied.secret(for: id)
            Issue.record("a token without the policy read the item")
        } catch {
            guard case .permissionDenied = error else { throw error }
        }
        #expect(throws: KeychainError.missingMount("nowhere")) { try store(mount: "nowhere").secret(for: id) }
        #expect(throws: KeychainError.missingMount("nowhere")) { try store(mount: "nowhere").search(CredentialQuery()) }

        var unreachable = try configuration()
        unreachable.address.port = try TLSTestServer.freePort()
        do {
            _ = try VaultStore(configuration: unreachable).secret(for: id, timeout: .seconds(2))
            Issue.record("a closed port answered")
        } catch {
            guard case .serverUnreachable = error else { throw error }
        }
    }

    @Test func aWrongPinRefusesTheServer() throws {
        var configuration = try configuration()
        configuration.tls.pinPolicy = try PinPolicy(
            host: "127.0.0.1",
            pins: [
                Pin(parsing: "sha256/" + Base64.encode(randomBytes(32))),
                Pin(parsing: "sha256/" + Base64.encode(randomBytes(32))),
            ]
        )
        do {
            _ = try VaultStore(configuration: configuration).secret(for: .genericPassword(service: "x", account: "y"))
            Issue.record("a wrong pin was accepted")
        } catch {
            guard case .untrustedServer(.pinMismatch, _) = error else { throw error }
        }
    }

    @Test func theServersPinAloneOrItsCAIsTrustedAndNothingElse() throws {
        let id = CredentialIdentity.genericPassword(service: "pinned", account: "x")
        try store().upsert(id, string: "ok")
        let serverPin = try X509Certificate.load(pem: String(contentsOfFile: server.certificateFile, encoding: .utf8))[
            0
        ]
        .publicKeyPin
        var pinned = try configuration()
        pinned.tls.trustRoots = .pinsOnly
        pinned.tls.pinPolicy = try PinPolicy(
            host: "127.0.0.1",
            pins: [.publicKey(serverPin), Pin(parsing: "sha256/" + Base64.encode(randomBytes(32)))]
        )
        #expect(try VaultStore(configuration: pinned).string(for: id) == "ok")

        var systemRoots = try configuration()
        systemRoots.tls.trustRoots = .system
        do {
            _ = try VaultStore(configuration: systemRoots).secret(for: id)
            Issue.record("a server certificate from an unknown CA was accepted")
        } catch {
            guard case .untrustedServer(.certificateVerificationFailed, _) = error else { throw error }
        }
    }

    @Test(.tags(.slow)) func aSealedServerIsTyped() throws {
        let sealed = try OpenBaoDevServer.start()
        defer { sealed.stop() }
        try sealed.baoSucceeding(["operator", "seal"])
        var tls = TLSClientConfiguration()
        tls.trustRoots = .caFile(sealed.caFile)
        let store = try VaultStore(
            configuration: VaultConfiguration(
                address: try VaultAddress(parsing: sealed.address),
                login: .token(SecureBytes(Array(sealed.rootToken.utf8))),
                tls: tls
            )
        )
        #expect(throws: KeychainError.serverSealed) {
            try store.secret(for: .genericPassword(service: "x", account: "y"))
        }
    }
}

/// The client settings as the `bao` and `vault` CLIs read them.
@Suite struct VaultEnvironmentTests {
    @Test func baoVariablesComeBeforeVaultVariablesAndTheTokenFileIsLast() throws {
        let server = try VaultStoreTests.server.get()
        let id = CredentialIdentity.genericPassword(service: "env-\(UUID().uuidString.prefix(8))", account: "a")
        try server.baoSucceeding(["kv", "put", "-mount=secret", "seckit/generic/\(id.service!)/a", "secret=from env"])

        // BAO_ADDR wins over a VAULT_ADDR that leads nowhere; VAULT_TOKEN and VAULT_CACERT are read when BAO_ has none.
        let byVariables = try VaultConfiguration.fromEnvironment([
            "BAO_ADDR": server.address, "VAULT_ADDR": "https://127.0.0.1:1", "VAULT_TOKEN": server.rootToken,
            "VAULT_CACERT": server.caFile,
        ])
        #expect(try VaultStore(configuration: byVariables).string(for: id) == "from env")

        // No token variable: ~/.vault-token, as `bao login` leaves it.
        try withScratch { home in
            try home.write(".vault-token", server.rootToken + "\n")
            let byFile = try VaultConfiguration.fromEnvironment([
                "VAULT_ADDR": server.address, "BAO_CACERT": server.caFile, "HOME": home.path,
            ])
            #expect(try VaultStore(configuration: byFile).string(for: id) == "from env")
        }
        #expect(throws: KeychainError.self) {
            try VaultConfiguration.fromEnvironment(["BAO_ADDR": server.address, "HOME": "/nonexistent"])
        }
        #expect(throws: KeychainError.self) { try VaultConfiguration.fromEnvironment(["BAO_TOKEN": "x"]) }
        #expect(throws: KeychainError.self) { try VaultAddress(parsing: "ftp://host") }
        #expect(try VaultAddress(parsing: "https://[::1]:8201/").description == "https://[::1]:8201")
    }
}
