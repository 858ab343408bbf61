import Foundation
import TestSupport
import Testing

/// `seccli cred set/get/delete/list` on one backend, each step a separate seccli process. The same
/// scenarios run on the encrypted file (everywhere) and on the private Secret Service.
enum CredScenarios {
    static func setGetListDelete(_ env: [String: String]) throws {
        let service = Keychain.uniqueName("svc")
        let secret = randomPrintable(40)
        let item = ["--service", service, "--account", "alice"]
        try Tools.seccli(
            ["cred", "set"] + item + [
                "--label", "Deploy key", "--comment", "for CI", "--expires", "2099-12-31T23:59:59Z",
            ],
            stdin: Array(secret.utf8),
            environment: env,
            expecting: .success
        )

        let got = try Tools.seccli(["cred", "get"] + item, environment: env, expecting: .success)
        #expect(got.stdout == Array(secret.utf8), "get writes the secret byte for byte, no newline into a pipe")

        let listing = try Tools.seccli(
            ["cred", "list", "--service", service, "--json"],
            environment: env,
            expecting: .success
        )
        #expect(!listing.stdoutText.contains(secret), "list never prints secrets")
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(listing.stdout)) as? [[String: Any]])
        #expect(entries.count == 1)
        #expect(entries.first?["class"] as? String == "generic")
        #expect(entries.first?["service"] as? String == service)
        #expect(entries.first?["account"] as? String == "alice")
        #expect(entries.first?["label"] as? String == "Deploy key")
        #expect(entries.first?["comment"] as? String == "for CI")
        #expect(entries.first?["expires"] as? String == "2099-12-31T23:59:59Z")
        #expect(entries.first?["expired"] as? Bool == false)
        let text = try Tools.seccli(["cred", "list", "--service", service], environment: env, expecting: .success)
        #expect(
            text.stdoutText == "service \(service), account alice: label \"Deploy key\", expires 2099-12-31T23:59:59Z\n"
        )

        try Tools.seccli(["cred", "delete"] + item, environment: env, expecting: .success)
        expectOneLineError(try Tools.seccli(["cred", "get"] + item, environment: env), status: 10)
        expectOneLineError(try Tools.seccli(["cred", "delete"] + item, environment: env), status: 10)
        let empty = try Tools.seccli(
            ["cred", "list", "--service", service, "--json"],
            environment: env,
            expecting: .success
        )
        #expect((try JSONSerialization.jsonObject(with: Data(empty.stdout)) as? [Any])?.isEmpty == true)
    }

    /// Every byte value, NULs and a final newline included, comes back exactly.
    static func binarySecret(_ env: [String: String]) throws {
        let item = ["--service", Keychain.uniqueName("bin"), "--account", "alice"]
        let secret = [0, 0, 10] + (0...255).map(UInt8.init) + randomBytes(4000) + [0, 10]
        try Tools.seccli(["cred", "set"] + item, stdin: secret, environment: env, expecting: .success)
        #expect(try Tools.seccli(["cred", "get"] + item, environment: env, expecting: .success).stdout == secret)
    }

    /// A second set replaces the secret and attributes: one item, the new secret.
    static func setReplaces(_ env: [String: String]) throws {
        let service = Keychain.uniqueName("upd")
        let item = ["--service", service, "--account", "alice"]
        try Tools.seccli(
            ["cred", "set"] + item + ["--label", "old"],
            stdin: Array("first".utf8),
            environment: env,
            expecting: .success
        )
        try Tools.seccli(
            ["cred", "set"] + item + ["--label", "new"],
            stdin: Array("second".utf8),
            environment: env,
            expecting: .success
        )
        #expect(try Tools.seccli(["cred", "get"] + item, environment: env, expecting: .success).stdoutText == "second")
        let listing = try Tools.seccli(
            ["cred", "list", "--service", service, "--json"],
            environment: env,
            expecting: .success
        )
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(listing.stdout)) as? [[String: Any]])
        #expect(entries.count == 1)
        #expect(entries.first?["label"] as? String == "new")
    }

    /// --secret reads env:, file: and fd: sources: all of a file or descriptor, newlines and NULs
    /// included, byte for byte; over 1 MiB is refused, not cut.
    static func secretSources(_ env: [String: String]) throws {
        try withScratch { scratch in
            let item = ["--service", Keychain.uniqueName("src"), "--account", "alice"]
            try Tools.seccli(
                ["cred", "set"] + item + ["--secret", "env:CRED_TEST_SECRET"],
                environment: env.merging(["CRED_TEST_SECRET": "from env"]) { $1 },
                expecting: .success
            )
            #expect(
                try Tools.seccli(["cred", "get"] + item, environment: env, expecting: .success).stdoutText == "from env"
            )

            let secret = Array("from file\nsecond line".utf8) + [0, 1, 10, 0] + randomBytes(300) + [10]
            let file = try scratch.write("secret.bin", secret)
            try Tools.seccli(
                ["cred", "set"] + item + ["--secret", "file:\(file)"],
                environment: env,
                expecting: .success
            )
            #expect(try Tools.seccli(["cred", "get"] + item, environment: env, expecting: .success).stdout == secret)

            let fromDescriptor = [10, 0] + randomBytes(200) + [10]
            try Tools.seccli(
                ["cred", "set"] + item + ["--secret", "fd:3"],
                environment: env,
                extraInput: .init(descriptor: 3, bytes: fromDescriptor),
                expecting: .success
            )
            #expect(
                try Tools.seccli(["cred", "get"] + item, environment: env, expecting: .success).stdout == fromDescriptor
            )

            let tooLarge = try scratch.write("large.bin", randomBytes((1 << 20) + 1))
            let refused = try Tools.seccli(
                ["cred", "set"] + item + ["--secret", "file:\(tooLarge)"],
                environment: env
            )
            expectOneLineError(refused, status: 2)
            #expect(refused.stderr.contains("larger than 1048576 bytes"))
            #expect(
                try Tools.seccli(["cred", "get"] + item, environment: env, expecting: .success).stdout
                    == fromDescriptor,
                "nothing stored"
            )
        }
    }

    /// Internet passwords are named by server, protocol, port, path and authentication type.
    static func internetPassword(_ env: [String: String]) throws {
        let server = Keychain.uniqueName("host") + ".example.com"
        let item = [
            "--server", server, "--account", "bob", "--protocol", "https", "--port", "8443", "--path", "/api",
            "--auth-type", "basic",
        ]
        try Tools.seccli(
            ["cred", "set"] + item,
            stdin: Array("web secret".utf8),
            environment: env,
            expecting: .success
        )
        #expect(
            try Tools.seccli(["cred", "get"] + item, environment: env, expecting: .success).stdoutText == "web secret"
        )
        let otherPort = [
            "--server", server, "--account", "bob", "--protocol", "https", "--port", "443", "--path", "/api",
            "--auth-type", "basic",
        ]
        expectOneLineError(try Tools.seccli(["cred", "get"] + otherPort, environment: env), status: 10)
        let listing = try Tools.seccli(
            ["cred", "list", "--server", server, "--json"],
            environment: env,
            expecting: .success
        )
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(listing.stdout)) as? [[String: Any]])
        #expect(entries.count == 1)
        let entry = try #require(entries.first)
        #expect(entry["class"] as? String == "internet")
        #expect(entry["server"] as? String == server)
        #expect(entry["protocol"] as? String == "https")
        #expect(entry["port"] as? Int == 8443)
        #expect(entry["path"] as? String == "/api")
        #expect(entry["authType"] as? String == "basic")
        #expect(entry["account"] as? String == "bob")
    }

    /// The same service and account in two access groups are two items; list --group shows one group.
    static func accessGroups(_ env: [String: String]) throws {
        let service = Keychain.uniqueName("grp")
        let red = Keychain.uniqueName("red")
        let blue = Keychain.uniqueName("blue")
        let item = ["--service", service, "--account", "alice"]
        try Tools.seccli(
            ["cred", "set"] + item + ["--group", red],
            stdin: Array("red secret".utf8),
            environment: env,
            expecting: .success
        )
        try Tools.seccli(
            ["cred", "set"] + item + ["--group", blue],
            stdin: Array("blue secret".utf8),
            environment: env,
            expecting: .success
        )
        #expect(
            try Tools.seccli(["cred", "get"] + item + ["--group", red], environment: env, expecting: .success)
                .stdoutText
                == "red secret"
        )
        #expect(
            try Tools.seccli(["cred", "get"] + item + ["--group", blue], environment: env, expecting: .success)
                .stdoutText
                == "blue secret"
        )
        let listing = try Tools.seccli(
            ["cred", "list", "--group", red, "--json"],
            environment: env,
            expecting: .success
        )
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(listing.stdout)) as? [[String: Any]])
        #expect(entries.map { $0["group"] as? String } == [red])
        let both = try Tools.seccli(
            ["cred", "list", "--service", service, "--json"],
            environment: env,
            expecting: .success
        )
        #expect((try JSONSerialization.jsonObject(with: Data(both.stdout)) as? [[String: Any]])?.count == 2)
    }

    /// 1 MiB is stored; one byte more is refused with exit 2 and stores nothing.
    static func sizeLimit(_ env: [String: String]) throws {
        let item = ["--service", Keychain.uniqueName("big"), "--account", "alice"]
        let secret = randomBytes(1 << 20)
        try Tools.seccli(["cred", "set"] + item, stdin: secret, environment: env, expecting: .success)
        #expect(try Tools.seccli(["cred", "get"] + item, environment: env, expecting: .success).stdout == secret)
        let other = ["--service", Keychain.uniqueName("big"), "--account", "alice"]
        let tooLarge = try Tools.seccli(
            ["cred", "set"] + other,
            stdin: randomBytes((1 << 20) + 1),
            environment: env
        )
        expectOneLineError(tooLarge, status: 2)
        #expect(tooLarge.stderr.contains("larger than 1048576 bytes"))
        expectOneLineError(try Tools.seccli(["cred", "get"] + other, environment: env), status: 10)
    }

    /// An item past --expires exits 11 from get (the secret is not printed) unless --ignore-expiry.
    static func expiredItem(_ env: [String: String]) throws {
        let item = ["--service", Keychain.uniqueName("exp"), "--account", "alice"]
        try Tools.seccli(
            ["cred", "set"] + item + ["--expires", "2001-02-03"],
            stdin: Array("stale".utf8),
            environment: env,
            expecting: .success
        )
        let expired = try Tools.seccli(["cred", "get"] + item, environment: env)
        expectOneLineError(expired, status: 11)
        #expect(expired.stderr.contains("expired at 2001-02-03T00:00:00Z"))
        #expect(
            try Tools.seccli(["cred", "get", "--ignore-expiry"] + item, environment: env, expecting: .success)
                .stdoutText
                == "stale"
        )
    }
}

/// The scenarios on every backend this run can use (the Secret Service inside tools/with-secret-service only).
@Suite("seccli cred, each backend")
struct CredBackendTests {
    @Test(arguments: KeychainBackend.available) func setGetListDelete(_ backend: KeychainBackend) throws {
        try backend.withEnvironment(CredScenarios.setGetListDelete)
    }
    @Test(arguments: KeychainBackend.available) func binarySecretWithNULs(_ backend: KeychainBackend) throws {
        try backend.withEnvironment(CredScenarios.binarySecret)
    }
    @Test(arguments: KeychainBackend.available) func setReplacesTheItem(_ backend: KeychainBackend) throws {
        try backend.withEnvironment(CredScenarios.setReplaces)
    }
    @Test(arguments: KeychainBackend.available) func secretSources(_ backend: KeychainBackend) throws {
        try backend.withEnvironment(CredScenarios.secretSources)
    }
    @Test(arguments: KeychainBackend.available) func internetPassword(_ backend: KeychainBackend) throws {
        try backend.withEnvironment(CredScenarios.internetPassword)
    }
    @Test(arguments: KeychainBackend.available) func accessGroups(_ backend: KeychainBackend) throws {
        try backend.withEnvironment(CredScenarios.accessGroups)
    }
    @Test(arguments: KeychainBackend.available) func sizeLimit(_ backend: KeychainBackend) throws {
        try backend.withEnvironment(CredScenarios.sizeLimit)
    }
    @Test(arguments: KeychainBackend.available) func expiredItem(_ backend: KeychainBackend) throws {
        try backend.withEnvironment(CredScenarios.expiredItem)
    }
}

@Suite("seccli cred, encrypted-file backend")
struct CredFileBackendTests {
    @Test("wrong --store-password: exit 2, one line, the file untouched")
    func wrongStorePassword() throws {
        try withScratch { scratch in
            let env = Keychain.fileBackend(scratch)
            let item = ["--service", "svc", "--account", "alice"]
            try Tools.seccli(
                ["cred", "set"] + item,
                stdin: Array("s3cret".utf8),
                environment: env,
                expecting: .success
            )
            let before = try scratch.read("credentials.store")
            let wrong = env.merging(["SECCLI_STORE_PASSWORD": "not the password"]) { $1 }
            let get = try Tools.seccli(["cred", "get"] + item, environment: wrong)
            expectOneLineError(get, status: 2)
            #expect(get.stderr.contains("wrong master password"))
            expectOneLineError(
                try Tools.seccli(["cred", "set"] + item, stdin: Array("x".utf8), environment: wrong),
                status: 2
            )
            #expect(try scratch.read("credentials.store") == before)
        }
    }

    @Test(
        "the default store path works on a fresh machine: the first set creates its folder (0700), a get before creates nothing",
        arguments: [true, false]
    )
    func defaultStorePathOnAFreshMachine(withDataHome: Bool) throws {
        try withScratch { scratch in
            let home = scratch.path("home")
            let dataHome = scratch.path("data")
            var env = ["SECCLI_BACKEND": "file", "SECCLI_STORE_PASSWORD": "correct horse battery staple", "HOME": home]
            if withDataHome { env["XDG_DATA_HOME"] = dataHome }
            let unset: Set<String> = withDataHome ? ["SECCLI_STORE_FILE"] : ["SECCLI_STORE_FILE", "XDG_DATA_HOME"]
            let folder = withDataHome ? dataHome + "/seckit" : home + "/.local/share/seckit"
            let item = ["--service", "svc", "--account", "alice"]

            expectOneLineError(
                try Tools.seccli(["cred", "get"] + item, environment: env, unsetting: unset),
                status: 10
            )
            #expect(!FileManager.default.fileExists(atPath: folder), "a read creates nothing")

            let set = try Tools.seccli(
                ["cred", "set"] + item,
                stdin: Array("s3cret".utf8),
                environment: env,
                unsetting: unset
            )
            #expect(set.status == 0, "\(set.stderr)")
            #expect(FileManager.default.fileExists(atPath: folder + "/credentials.store"))
            let attributes = try FileManager.default.attributesOfItem(atPath: folder)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
            let get = try Tools.seccli(["cred", "get"] + item, environment: env, unsetting: unset)
            #expect(get.stdoutText == "s3cret")
        }
    }

    @Test("the store file is mode 0600 and holds no plaintext")
    func storeFileIsPrivate() throws {
        try withScratch { scratch in
            let env = Keychain.fileBackend(scratch)
            let secret = randomPrintable(32)
            try Tools.seccli(
                ["cred", "set", "--service", "plain-check", "--account", "alice"],
                stdin: Array(secret.utf8),
                environment: env,
                expecting: .success
            )
            let attributes = try FileManager.default.attributesOfItem(atPath: scratch.path("credentials.store"))
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            let bytes = try scratch.read("credentials.store")
            #expect(!String(decoding: bytes, as: UTF8.self).contains(secret))
            #expect(!String(decoding: bytes, as: UTF8.self).contains("plain-check"))
        }
    }
}

@Suite(
    "seccli cred, Secret Service backend",
    .enabled(if: SecretServiceSupport.hasPrivateSecretService, SecretServiceSupport.privateSessionOnly)
)
struct CredSecretServiceTests {
    @Test(
        "without XDG_RUNTIME_DIR the writer lock is in the user's own cache folder (made 0700), not a guessable /tmp name",
        arguments: [true, false]
    )
    func writerLockWithoutRuntimeDirectory(withCacheHome: Bool) throws {
        try withScratch { scratch in
            let home = scratch.path("home")
            let cacheHome = scratch.path("cache")
            var env = ["SECCLI_BACKEND": "secret-service", "HOME": home]
            if withCacheHome { env["XDG_CACHE_HOME"] = cacheHome }
            let unset: Set<String> = withCacheHome ? ["XDG_RUNTIME_DIR"] : ["XDG_RUNTIME_DIR", "XDG_CACHE_HOME"]
            let folder = withCacheHome ? cacheHome + "/seckit" : home + "/.cache/seckit"
            let item = ["--service", Keychain.uniqueName("lock"), "--account", "alice"]

            let set = try Tools.seccli(
                ["cred", "set"] + item,
                stdin: Array("locked in".utf8),
                environment: env,
                unsetting: unset
            )
            #expect(set.status == 0, "\(set.stderr)")
            #expect(FileManager.default.fileExists(atPath: folder + "/keychain.lock"))
            let attributes = try FileManager.default.attributesOfItem(atPath: folder)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
            #expect(try Tools.seccli(["cred", "get"] + item, expecting: .success).stdoutText == "locked in")
        }
    }
}
