import Foundation
import SecCrypto
import SecKeychain
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The behaviour every store shares, run against each backend.
@Suite struct CredentialStoreTests {
    @Test(arguments: KeychainBackend.available)
    func storeReadUpdateDelete(backend: KeychainBackend) throws {
        let store = try backend.makeStore()
        let id = CredentialIdentity.genericPassword(service: KeychainFixture.uniqueService("crud"), account: "alice")
        #expect(throws: KeychainError.notFound) { try store.secret(for: id) }
        try store.upsert(id, string: "first")
        #expect(try store.string(for: id) == "first")
        try store.upsert(id, string: "second", attributes: CredentialAttributes(label: "my label", comment: "a note"))
        let item = try store.item(for: id, includeSecret: true, timeout: .seconds(5))
        #expect(item.identity == id)
        #expect(item.secret?.bytes == KeychainFixture.bytes("second"))
        #expect(item.label == "my label")
        #expect(item.comment == "a note")
        #expect(try store.item(for: id).secret == nil)
        try store.delete(id)
        #expect(throws: KeychainError.notFound) { try store.secret(for: id) }
        #expect(throws: KeychainError.notFound) { try store.delete(id) }
    }
}

extension CredentialStoreTests {
    @Test(arguments: KeychainBackend.available)
    func binarySecretWithNULBytesRoundTrips(backend: KeychainBackend) throws {
        let store = try backend.makeStore()
        let id = CredentialIdentity.genericPassword(service: KeychainFixture.uniqueService("binary"), account: "bin")
        let secret = [0, 0, 0] + (0...255).map(UInt8.init) + [0]
        try store.upsert(id, secret: secret)
        #expect(try store.secret(for: id).bytes == secret)
        try store.upsert(id, secret: [UInt8]())
        #expect(try store.secret(for: id).bytes == [])
    }

    @Test(arguments: KeychainBackend.available)
    func oneMebibyteSecretIsKeptAndOneByteMoreIsRefused(backend: KeychainBackend) throws {
        let store = try backend.makeStore()
        let id = CredentialIdentity.genericPassword(service: KeychainFixture.uniqueService("large"), account: "big")
        let limit = SecretServiceStore.maximumSecretByteCount
        #expect(limit == 1 << 20)
        let secret = try SecureRandom.bytes(count: limit)
        try store.upsert(id, secret: secret, attributes: CredentialAttributes(), timeout: .seconds(30))
        #expect(try store.secret(for: id, timeout: .seconds(30)).bytes == secret)
        #expect(throws: KeychainError.secretTooLarge(limit: limit)) {
            try store.upsert(id, secret: [UInt8](repeating: 7, count: limit + 1))
        }
        #expect(try store.secret(for: id, timeout: .seconds(30)).bytes == secret, "a refused secret changes nothing")
    }

    @Test(arguments: KeychainBackend.available)
    func upsertKeepsExactlyOneItemPerIdentity(backend: KeychainBackend) throws {
        let store = try backend.makeStore()
        let service = KeychainFixture.uniqueService("upsert")
        let plain = CredentialIdentity.genericPassword(service: service, account: "alice")
        let grouped = CredentialIdentity.genericPassword(service: service, account: "alice", accessGroup: "tools")
        for round in 0..<5 {
            let attributes = CredentialAttributes(
                label: "round \(round)",
                expiresAt: Date(timeIntervalSince1970: Double(2_000_000_000 + round))
            )
            try store.upsert(plain, string: "plain \(round)", attributes: attributes, timeout: .seconds(5))
            try store.upsert(grouped, string: "grouped \(round)", attributes: attributes, timeout: .seconds(5))
        }
        let items = try store.search(CredentialQuery(service: service, includeSecrets: true))
        #expect(items.count == 2, "one item per identity; the access group is part of the identity")
        #expect(Set(items.map(\.identity)) == [plain, grouped])
        #expect(try store.string(for: plain) == "plain 4")
        #expect(try store.string(for: grouped) == "grouped 4")
        #expect(try store.item(for: grouped).label == "round 4")
    }

    @Test(arguments: KeychainBackend.available)
    func searchByGroupAndAttributeSubsetWithLimits(backend: KeychainBackend) throws {
        let store = try backend.makeStore()
        let service = KeychainFixture.uniqueService("search")
        let other = KeychainFixture.uniqueService("search-other")
        let group = "group-\(service)"
        let ids: [CredentialIdentity] = [
            .genericPassword(service: service, account: "a", accessGroup: group),
            .genericPassword(service: service, account: "b", accessGroup: group),
            .genericPassword(service: other, account: "a", accessGroup: group),
            .genericPassword(service: service, account: "a"),
            .internetPassword(
                server: "host.\(service)",
                account: "a",
                protocol: "https",
                port: 443,
                accessGroup: group
            ),
            .internetPassword(
                server: "host.\(service)",
                account: "a",
                protocol: "https",
                port: 8443,
                accessGroup: group
            ),
        ]
        for id in ids { try store.upsert(id, string: "secret of \(id)") }

        func found(_ query: CredentialQuery) throws -> Set<CredentialIdentity> {
            Set(try store.search(query).map(\.identity))
        }
        #expect(try found(CredentialQuery(accessGroup: group)) == Set([ids[0], ids[1], ids[2], ids[4], ids[5]]))
        #expect(try found(CredentialQuery(service: service, accessGroup: group)) == [ids[0], ids[1]])
        #expect(try found(CredentialQuery(service: service, account: "a")) == [ids[0], ids[3]])
        #expect(try found(CredentialQuery(itemClass: .internetPassword, accessGroup: group)) == [ids[4], ids[5]])
        #expect(
            try found(CredentialQuery(itemClass: .genericPassword, account: "a", accessGroup: group)) == [
                ids[0], ids[2],
            ]
        )
        #expect(try found(CredentialQuery(server: "host.\(service)", port: 8443)) == [ids[5]])

        // Listing carries no secrets unless asked.
        let listed = try store.search(CredentialQuery(service: service, accessGroup: group))
        #expect(listed.allSatisfy { $0.secret == nil })
        let withSecrets = try store.search(CredentialQuery(service: service, account: "b", includeSecrets: true))
        #expect(withSecrets.map { $0.secret?.bytes } == [KeychainFixture.bytes("secret of \(ids[1])")])

        // Limit one: exactly one identity, else ambiguous or not found.
        #expect(
            try store.search(CredentialQuery(service: service, account: "b", limit: .one)).map(\.identity) == [ids[1]]
        )
        #expect(throws: KeychainError.ambiguous(count: 2)) {
            try store.search(CredentialQuery(service: service, accessGroup: group, limit: .one))
        }
        #expect(throws: KeychainError.notFound) {
            try store.search(CredentialQuery(service: service, account: "nobody", limit: .one))
        }
        #expect(try store.search(CredentialQuery(service: service, account: "nobody")).isEmpty)
    }

    @Test(arguments: KeychainBackend.available)
    func internetPasswordsAreNamedByTheirWholeLocation(backend: KeychainBackend) throws {
        let store = try backend.makeStore()
        let server = KeychainFixture.uniqueService("internet") + ".example"
        let https = CredentialIdentity.internetPassword(
            server: server,
            account: "u",
            protocol: "https",
            port: 443,
            path: "/api",
            authenticationType: "basic"
        )
        let bare = CredentialIdentity.internetPassword(server: server, account: "u")
        try store.upsert(https, string: "one")
        try store.upsert(bare, string: "two")
        #expect(try store.string(for: https) == "one")
        #expect(try store.string(for: bare) == "two")
        #expect(
            try store.item(for: https).identity.internetLocation
                == InternetLocation(
                    server: server,
                    protocol: "https",
                    port: 443,
                    path: "/api",
                    authenticationType: "basic"
                )
        )
        try store.delete(bare)
        #expect(try store.string(for: https) == "one")
    }

    @Test(arguments: KeychainBackend.available)
    func createdStaysAndModifiedMovesOnUpdate(backend: KeychainBackend) throws {
        let store = try backend.makeStore()
        let id = CredentialIdentity.genericPassword(service: KeychainFixture.uniqueService("times"), account: "t")
        let before = Date().addingTimeInterval(-1)
        try store.upsert(id, string: "v1")
        let first = try store.item(for: id)
        let created = try #require(first.created)
        let modified = try #require(first.modified)
        #expect(created >= before.addingTimeInterval(-1) && created <= Date().addingTimeInterval(1))
        #expect(modified >= created)
        // The Secret Service counts whole seconds.
        Thread.sleep(forTimeInterval: 1.1)
        try store.upsert(id, string: "v2")
        let second = try store.item(for: id)
        #expect(second.created == created)
        #expect(try #require(second.modified) > modified)
    }

    @Test(arguments: KeychainBackend.available)
    func expiryTravelsWithTheItemWithoutChangingItsIdentity(backend: KeychainBackend) throws {
        let store = try backend.makeStore()
        let id = CredentialIdentity.genericPassword(
            service: KeychainFixture.uniqueService("expiry"),
            account: "e",
            accessGroup: "g"
        )
        let soon = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 3600).rounded(.down))
        try store.upsert(id, string: "token", attributes: CredentialAttributes(expiresAt: soon))
        let item = try store.item(for: id)
        #expect(item.expiresAt == soon)
        #expect(!item.isExpired())
        #expect(item.isExpired(at: soon))
        let past = Date(timeIntervalSince1970: 1_600_000_000)
        try store.upsert(id, string: "token 2", attributes: CredentialAttributes(expiresAt: past))
        #expect(try store.item(for: id).expiresAt == past)
        try store.upsert(id, string: "token 3")
        let items = try store.search(CredentialQuery(service: id.service, includeSecrets: true))
        #expect(items.count == 1)
        #expect(items.first?.expiresAt == nil)
        #expect(items.first?.secret?.bytes == KeychainFixture.bytes("token 3"))
    }

    /// A login without a user name (git's `username=`): an internet password with an empty account.
    @Test(arguments: KeychainBackend.available)
    func internetPasswordWithEmptyAccount(backend: KeychainBackend) throws {
        let store = try backend.makeStore()
        let server = KeychainFixture.uniqueService("empty-account") + ".example.com"
        let empty = CredentialIdentity.internetPassword(server: server, account: "", protocol: "https")
        let named = CredentialIdentity.internetPassword(server: server, account: "alice", protocol: "https")
        try store.upsert(empty, string: "")
        try store.upsert(named, string: "a")
        #expect(try store.secret(for: empty).bytes.isEmpty)
        #expect(try store.search(CredentialQuery(account: "", server: server)).map(\.identity) == [empty])
        #expect(Set(try store.search(CredentialQuery(server: server)).map(\.identity)) == [empty, named])
        try store.delete(empty)
        #expect(try store.search(CredentialQuery(server: server)).map(\.identity) == [named])
        try store.delete(named)
    }

    @Test(arguments: KeychainBackend.available)
    func invalidAttributesAreRefused(backend: KeychainBackend) throws {
        let store = try backend.makeStore()
        let service = KeychainFixture.uniqueService("invalid")
        #expect(throws: KeychainError.invalidAttribute("account must not be empty")) {
            try store.upsert(.genericPassword(service: service, account: ""), string: "x")
        }
        #expect(throws: KeychainError.invalidAttribute("service must not be empty")) {
            try store.secret(for: .genericPassword(service: "", account: "a"))
        }
        #expect(throws: KeychainError.invalidAttribute("service must not contain NUL characters")) {
            try store.upsert(.genericPassword(service: "a\u{0}b", account: "a"), string: "x")
        }
        #expect(throws: KeychainError.invalidAttribute("port must be between 1 and 65535, got 0")) {
            try store.upsert(.internetPassword(server: service, account: "a", port: 0), string: "x")
        }
        #expect(try store.search(CredentialQuery(service: service)).isEmpty)
    }

    /// A writer that cannot get the store's writer lock gives up at its timeout.
    @Test(arguments: KeychainBackend.available)
    func writerWaitingForTheLockTimesOut(backend: KeychainBackend) throws {
        let store = try backend.makeStore()
        let holder = open(backend.writerLockPath(of: store), O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        #expect(holder >= 0)
        #expect(flock(holder, LOCK_EX) == 0)
        let id = CredentialIdentity.genericPassword(
            service: KeychainFixture.uniqueService("lock-timeout"),
            account: "w"
        )
        let start = ContinuousClock.now
        #expect(throws: KeychainError.timeout(.milliseconds(300))) {
            try store.upsert(id, secret: [1], attributes: CredentialAttributes(), timeout: .milliseconds(300))
        }
        #expect(ContinuousClock.now - start < .seconds(3))
        close(holder)
        try store.upsert(id, secret: [1], attributes: CredentialAttributes(), timeout: .seconds(10))
        #expect(try store.secret(for: id).bytes == [1])
    }

    @Test(arguments: KeychainBackend.available)
    func singleSignOnAcrossTwoToolsOfAGroup(backend: KeychainBackend) throws {
        let store = try backend.makeStore()
        let group = KeychainFixture.uniqueService("sso")
        let firstTool = SingleSignOn(group: group, store: store)
        let secondTool = SingleSignOn(group: group, store: store)
        #expect(try secondTool.currentToken() == nil)
        #expect(try secondTool.currentUser() == nil)
        #expect(try secondTool.tokenState() == .absent)

        let expiry = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 600).rounded(.down))
        try firstTool.login(user: "alice", token: KeychainFixture.bytes("t0k3n"), expiresAt: expiry)
        #expect(try secondTool.currentUser() == "alice")
        #expect(try secondTool.currentToken()?.bytes == KeychainFixture.bytes("t0k3n"))
        #expect(try secondTool.tokenState() == .valid(SecureBytes(KeychainFixture.bytes("t0k3n")), expiresAt: expiry))
        #expect(try secondTool.currentToken(now: expiry) == nil, "not valid at its expiry")
        #expect(try secondTool.tokenState(now: expiry) == .expired(expiry))
        #expect(
            try SingleSignOn(group: group + "-other", store: store).currentToken() == nil,
            "another group has its own state"
        )

        try secondTool.logout()
        #expect(try firstTool.currentToken() == nil)
        #expect(try firstTool.tokenState() == .absent)
        #expect(try firstTool.currentUser() == "alice", "logout keeps the user name")
        try firstTool.logout()

        try firstTool.login(
            user: "bob",
            token: KeychainFixture.bytes("old"),
            expiresAt: Date(timeIntervalSince1970: 1_600_000_000)
        )
        #expect(try secondTool.currentToken() == nil, "an expired token is not current")
        #expect(try secondTool.currentUser() == "bob")
    }
}

extension CredentialStoreTests {
    @Test(arguments: KeychainBackend.available)
    func deleteAllRemovesWhatTheQueryMatchesAndCountsIt(backend: KeychainBackend) throws {
        let store = try backend.makeStore()
        let service = KeychainFixture.uniqueService("delete-all")
        let kept = CredentialIdentity.genericPassword(service: service + "-kept", account: "a", accessGroup: "tools")
        let grouped = CredentialIdentity.genericPassword(service: service, account: "a", accessGroup: "tools")
        for identity in [
            .genericPassword(service: service, account: "a"), .genericPassword(service: service, account: "b"), grouped,
            kept,
        ] {
            try store.upsert(identity, string: "secret")
        }
        #expect(try store.deleteAll(matching: CredentialQuery(service: service, accessGroup: "tools")) == 1)
        #expect(throws: KeychainError.notFound) { try store.secret(for: grouped) }
        #expect(try store.deleteAll(matching: CredentialQuery(service: service)) == 2)
        #expect(try store.search(CredentialQuery(service: service)).isEmpty)
        #expect(throws: KeychainError.notFound) { try store.deleteAll(matching: CredentialQuery(service: service)) }
        #expect(try store.string(for: kept) == "secret")
        try store.delete(kept)
    }
}
