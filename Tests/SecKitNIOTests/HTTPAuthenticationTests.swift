import AsyncHTTPClient
import Foundation
import MetricsTestKit
import NIOCore
import SecCrypto
import SecHTTPAuth
import SecHTTPAuthKeychain
import SecKeychain
import SecKitHTTPClient
import SecTLS
import TestSupport
import Testing

/// HTTPAuthenticator against a real lighttpd (mod_auth, plain user file): Basic, Digest MD5 and
/// SHA-256 over HTTPS, wrong passwords, two realms of one host answered from the keychain (items of
/// `seccli cred set --realm` and `secret-tool`), cleartext Basic refused, Digest reused on the next
/// request, and HTTPAuthenticator agreeing with curl --digest on the same server.
@Suite struct HTTPAuthenticationTests {
    let fixture = TestPKI.shared
    static let users = ["alice": "wonderland", "bob": "builder ünï"]

    static let areas: [LighttpdServer.Area] = [
        .init(path: "/basic/", realm: "Basic Realm", method: "basic"),
        .init(path: "/digest/", realm: "Digest Realm", method: "digest", algorithm: "SHA-256"),
        .init(path: "/md5/", realm: "MD5 Realm", method: "digest", algorithm: "MD5"),
        .init(path: "/alice/", realm: "Realm A", method: "digest", algorithm: "SHA-256", user: "alice"),
        .init(path: "/bob/", realm: "Realm B", method: "basic", user: "bob"),
    ]

    func start(https: Bool = true, movableClock: Bool = false) throws -> LighttpdServer {
        try LighttpdServer.start(
            areas: Self.areas,
            users: Self.users,
            certificate: https ? fixture.path("chain.pem") : nil,
            key: https ? fixture.path("leaf-rsa.key") : nil,
            movableClock: movableClock
        )
    }

    /// `seccli cred set` of `user`'s password for `realm` of `server`, on the private Secret Service.
    func storeWithSeccli(_ user: String, realm: String, of server: LighttpdServer) throws {
        try Tools.seccli(
            [
                "cred", "set", "--server", "127.0.0.1", "--protocol", "https", "--port", "\(server.port)", "--account",
                user, "--realm", realm,
            ],
            stdin: Array(Self.users[user]!.utf8),
            expecting: .success
        )
    }

    /// Removes every keychain item of `server` (its port is its own: no other test's items go), for a `defer`.
    func removeKeychainItems(of server: LighttpdServer) {
        #expect(
            throws: Never.self,
            "the keychain items of port \(server.port) stay behind"
        ) {
            try Tools.seccli(
                [
                    "cred", "delete", "--server", "127.0.0.1", "--protocol", "https", "--port", "\(server.port)",
                    "--all",
                ],
                expecting: .success
            )
        }
    }

    func withClient<T>(_ body: (HTTPClient) async throws -> T) async throws -> T {
        let client = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: try HTTPClient.Configuration(secKit: try fixture.clientConfiguration())
        )
        do {
            let result = try await body(client)
            try await client.shutdown()
            return result
        } catch {
            try await client.shutdown()
            throw error
        }
    }

    /// The body of `GET url` through `authenticator`, or the status line when not 200. The deadline
    /// covers the whole exchange (up to 6 requests) and is generous: the parallel suite's blocking
    /// calls can hold the cooperative pool, and with it the awaiting task, for a minute.
    func get(_ url: String, _ authenticator: HTTPAuthenticator, client: HTTPClient) async throws -> String {
        let response = try await authenticator.execute(
            HTTPClientRequest(url: url),
            on: client,
            timeout: .seconds(Int64(300 * ProcessRunner.timeoutScale))
        )
        let body = String(buffer: try await response.body.collect(upTo: 1 << 16))
        return response.status == .ok ? body : "status \(response.status.code)"
    }

    func space(_ server: LighttpdServer, realm: String, _ method: AuthenticationMethod) -> ProtectionSpace {
        ProtectionSpace(scheme: server.scheme, host: "127.0.0.1", port: server.port, realm: realm, method: method)
    }

    func credential(_ user: String, _ password: String? = nil) -> HTTPCredential {
        HTTPCredential(user: user, password: SecureBytes(Array((password ?? Self.users[user]!).utf8)))
    }

    /// An in-memory provider holding `credential` (alice's by default) for each realm of `server`.
    func provider(
        _ server: LighttpdServer,
        _ realms: [(String, AuthenticationMethod)],
        credential: HTTPCredential? = nil
    ) async -> InMemoryCredentialProvider {
        let provider = InMemoryCredentialProvider()
        for (realm, method) in realms {
            await provider.save(
                credential ?? self.credential("alice"),
                for: space(server, realm: realm, method),
                persistence: .forSession
            )
        }
        return provider
    }

    @Test func basicDigestMD5AndDigestSHA256() async throws {
        let server = try start()
        defer { server.stop() }
        let provider = await provider(
            server,
            [("Basic Realm", .basic), ("Digest Realm", .digest), ("MD5 Realm", .digest)]
        )
        let authenticator = HTTPAuthenticator(credentials: provider)
        try await withClient { (client: HTTPClient) async throws in
            for path in ["/basic/", "/digest/", "/md5/"] {
                #expect(
                    try await get(server.url(path + "index.txt"), authenticator, client: client) == "area \(path)\n"
                )
            }
        }
        // Each area: one challenge, one authenticated request, by alice.
        server.stop()
        #expect(server.accessLog.filter { $0.hasPrefix("200 alice") }.count == 3, "\(server.accessLog)")
        #expect(server.accessLog.filter { $0.hasPrefix("401") }.count == 3, "\(server.accessLog)")
    }

    @Test func aWrongPasswordEndsTheCallWithoutALoop() async throws {
        let server = try start()
        defer { server.stop() }
        let provider = await provider(server, [("Digest Realm", .digest)], credential: credential("alice", "wrong"))
        let authenticator = HTTPAuthenticator(credentials: provider, persistence: .permanent)
        await #expect(throws: HTTPAuthError.authenticationFailed(realm: "Digest Realm", method: .digest, failures: 1)) {
            try await withClient { (client: HTTPClient) async throws in
                try await get(server.url("/digest/index.txt"), authenticator, client: client)
            }
        }
        // No credential at all for a realm: the call ends after the challenge.
        await #expect(throws: HTTPAuthError.authenticationFailed(realm: "MD5 Realm", method: .digest, failures: 0)) {
            try await withClient { (client: HTTPClient) async throws in
                try await get(server.url("/md5/index.txt"), authenticator, client: client)
            }
        }
        server.stop()
        let digest = server.accessLog.filter { $0.contains("/digest/") }
        #expect(digest.count == 2, "the challenge and the refused answer only: \(server.accessLog)")
        #expect(server.accessLog.filter { $0.contains("/md5/") }.count == 1, "\(server.accessLog)")
    }

    /// Each challenge is logged and counted, each provider call counted and timed, a failed
    /// exchange logged at warning; no password, and no header value, appears in any of them.
    @Test func challengesAreLoggedAndCountedWithoutSecrets() async throws {
        let server = try start()
        defer { server.stop() }
        let (logger, logs) = CapturedObservability.logger()
        let metrics = TestMetrics()
        let provider = await provider(server, [("Basic Realm", .basic), ("Digest Realm", .digest)])
        let authenticator = HTTPAuthenticator(credentials: provider, logger: logger, metricsFactory: metrics)
        try await withClient { (client: HTTPClient) async throws in
            #expect(try await get(server.url("/basic/index.txt"), authenticator, client: client) == "area /basic/\n")
            #expect(try await get(server.url("/digest/index.txt"), authenticator, client: client) == "area /digest/\n")
            await #expect(throws: HTTPAuthError.self) {
                try await get(server.url("/md5/index.txt"), authenticator, client: client)
            }
        }
        let challenges = "seckit_http_auth_challenges_total"
        for method in ["basic", "digest"] {
            #expect(
                metrics.counterTotal(label: challenges, dimensions: [("method", method), ("outcome", "answered")]) == 1
            )
            #expect(
                metrics.counterTotal(label: challenges, dimensions: [("method", method), ("outcome", "accepted")]) == 1
            )
        }
        #expect(metrics.counterTotal(label: challenges, dimensions: [("method", "none"), ("outcome", "failed")]) == 1)
        let calls = "seckit_credential_calls_total"
        #expect(metrics.counterTotal(label: calls, dimensions: [("operation", "lookup"), ("outcome", "found")]) == 2)
        #expect(metrics.counterTotal(label: calls, dimensions: [("operation", "lookup"), ("outcome", "missing")]) == 1)
        #expect(
            try metrics.expectTimer("seckit_credential_call_duration_seconds", [("operation", "lookup")]).values.count
                == 3
        )
        let entries = logs.entries
        #expect(
            entries.filter { $0.message == "HTTP authentication challenge answered" && $0.level == .debug }.count == 2
        )
        let failed = try #require(entries.first { $0.message == "HTTP authentication failed" })
        #expect(failed.level == .warning)

        let text = CapturedObservability.everything(logs, metrics)
        let basic = Data("alice:wonderland".utf8).base64EncodedString()
        for secret in ["wonderland", basic, "response="] { #expect(!text.contains(secret)) }
    }

    @Test func aDigestNonceIsReusedOnTheNextRequest() async throws {
        let server = try start()
        defer { server.stop() }
        let provider = await provider(server, [("Digest Realm", .digest)])
        let authenticator = HTTPAuthenticator(credentials: provider)
        try await withClient { (client: HTTPClient) async throws in
            for _ in 0..<3 {
                #expect(
                    try await get(server.url("/digest/index.txt"), authenticator, client: client) == "area /digest/\n"
                )
            }
        }
        // One challenge, then three authenticated requests (nc 1, 2, 3 of one nonce).
        server.stop()
        #expect(server.accessLog.filter { $0.hasPrefix("401") }.count == 1, "\(server.accessLog)")
        #expect(server.accessLog.filter { $0.hasPrefix("200 alice") }.count == 3, "\(server.accessLog)")
    }

    @Test func aStaleNonceIsAnsweredWithTheNewOneAndCountsAsNoFailure() async throws {
        let server = try start(movableClock: true)
        defer { server.stop() }
        let provider = await provider(server, [("Digest Realm", .digest)])
        // One failure ends a call: a stale nonce taken for a refusal would fail it.
        let authenticator = HTTPAuthenticator(credentials: provider, maximumFailures: 1)
        let url = server.url("/digest/index.txt")
        try await withClient { (client: HTTPClient) async throws in
            #expect(try await get(url, authenticator, client: client) == "area /digest/\n")
            // lighttpd calls a nonce older than 10 minutes stale.
            try server.advanceClock(bySeconds: 660)
            #expect(try await get(url, authenticator, client: client) == "area /digest/\n")
            #expect(try await get(url, authenticator, client: client) == "area /digest/\n")
        }
        // The challenge, alice; the kept nonce refused as stale, alice again with the new nonce;
        // then the new nonce is kept.
        server.stop()
        let statuses = server.accessLog.map { $0.split(separator: " ").prefix(2).joined(separator: " ") }
        #expect(statuses == ["401 -", "200 alice", "401 -", "200 alice", "200 alice"], "\(server.accessLog)")
        #expect(server.errorLog.contains("clock jumped"))
    }

    @Test func basicOverCleartextOnlyWhenAllowed() async throws {
        let server = try start(https: false)
        defer { server.stop() }
        let provider = await provider(server, [("Basic Realm", .basic), ("Digest Realm", .digest)])
        let refusal = HTTPAuthError.cleartextBasicRefused(space(server, realm: "Basic Realm", .basic).description)
        await #expect(throws: refusal) {
            try await withClient { (client: HTTPClient) async throws in
                try await get(server.url("/basic/index.txt"), HTTPAuthenticator(credentials: provider), client: client)
            }
        }
        try await withClient { (client: HTTPClient) async throws in
            // Digest sends no password: fine over http.
            #expect(
                try await get(server.url("/digest/index.txt"), HTTPAuthenticator(credentials: provider), client: client)
                    == "area /digest/\n"
            )
            let allowing = HTTPAuthenticator(credentials: provider, allowsBasicOverCleartext: true)
            #expect(try await get(server.url("/basic/index.txt"), allowing, client: client) == "area /basic/\n")
        }
        // The refused call sent no password: its challenge, then the allowed call's challenge and answer.
        server.stop()
        let basic = server.accessLog.filter { $0.contains("/basic/") }.map { $0.prefix(5) }
        #expect(basic == ["401 -", "401 -", "200 a"], "\(server.accessLog)")
    }

    @Test(.enabled(if: SecretServiceSupport.hasPrivateSecretService, SecretServiceSupport.privateSessionOnly))
    func twoRealmsOfOneHostFromTheKeychain() async throws {
        let server = try start()
        defer { server.stop() }
        defer { removeKeychainItems(of: server) }
        try storeWithSeccli("alice", realm: "Realm A", of: server)
        let stored = try SecretServiceSupport.secretTool(
            [
                "store", "--label", "bob at Realm B", "server", "127.0.0.1", "protocol", "https", "port",
                "\(server.port)", "user", "bob", "realm", "Realm B",
            ],
            stdin: Array(Self.users["bob"]!.utf8)
        )
        #expect(stored.status == 0, "\(stored.stderr)")
        let authenticator = HTTPAuthenticator(credentials: KeychainCredentialProvider(store: SecretServiceStore()))
        try await withClient { (client: HTTPClient) async throws in
            #expect(try await get(server.url("/alice/index.txt"), authenticator, client: client) == "area /alice/\n")
            #expect(try await get(server.url("/bob/index.txt"), authenticator, client: client) == "area /bob/\n")
        }
        server.stop()
        #expect(
            server.accessLog.contains { $0.hasPrefix("200 alice") }
                && server.accessLog.contains { $0.hasPrefix("200 bob") }
        )
    }

    /// curl --digest is the reference: with the same password and server, HTTPAuthenticator gets
    /// what curl gets (the area, with alice logged in), and where curl is refused (401) so is it.
    @Test func theAuthenticatorAgreesWithCurlDigest() async throws {
        let server = try start()
        defer { server.stop() }
        let url = server.url("/digest/index.txt")
        /// curl's body and status code.
        func curl(_ password: String) throws -> (body: String, status: String) {
            let result = try ProcessRunner.run(
                "curl",
                [
                    "-sS", "-w", "%{http_code}", "--cacert", fixture.path("ca.pem"), "--digest", "-u",
                    "alice:\(password)", url,
                ]
            )
            #expect(result.status == 0, "curl: \(result.stderr)")
            return (String(result.stdoutText.dropLast(3)), String(result.stdoutText.suffix(3)))
        }
        let theirs = try curl("wonderland")
        #expect(theirs.status == "200" && theirs.body == "area /digest/\n", "curl: \(theirs)")
        #expect(try curl("wrong").status == "401", "curl with a wrong password")

        let right = await provider(server, [("Digest Realm", .digest)])
        try await withClient { (client: HTTPClient) async throws in
            #expect(try await get(url, HTTPAuthenticator(credentials: right), client: client) == theirs.body)
        }
        let wrong = await provider(server, [("Digest Realm", .digest)], credential: credential("alice", "wrong"))
        await #expect(throws: HTTPAuthError.authenticationFailed(realm: "Digest Realm", method: .digest, failures: 1)) {
            try await withClient { (client: HTTPClient) async throws in
                try await get(url, HTTPAuthenticator(credentials: wrong), client: client)
            }
        }
        server.stop()
        // curl, then SecKit, each: a challenge and alice let in; a challenge and the wrong answer refused.
        #expect(server.accessLog.count == 8, "\(server.accessLog)")
        #expect(server.accessLog.filter { $0.hasPrefix("200 alice") }.count == 2, "\(server.accessLog)")
    }

    // MARK: - seckit-fetch

    func fetch(_ arguments: [String], environment: [String: String] = [:]) throws -> ProcessResult {
        try ProcessRunner.run(
            try #require(BuiltExecutable.path("seckit-fetch")),
            arguments + ["--ca", fixture.path("ca.pem"), "--timeout", "30"],
            environment: environment
        )
    }

    @Test func seckitFetchWithAUserAndAPasswordSource() throws {
        let server = try start()
        defer { server.stop() }
        let alice = ["--user", "alice", "--password", "env:HTTP_PASSWORD"]
        let digest = try fetch([server.url("/digest/index.txt")] + alice, environment: ["HTTP_PASSWORD": "wonderland"])
        #expect(digest.status == 0 && digest.stdoutText == "area /digest/\n", "\(digest.stderr)")
        let wrong = try fetch([server.url("/digest/index.txt")] + alice, environment: ["HTTP_PASSWORD": "nope"])
        #expect(wrong.status == 7 && wrong.stderr.contains("Digest realm \"Digest Realm\""), "\(wrong.stderr)")
        #expect(!wrong.stderr.contains("nope"))
        let none = try fetch([server.url("/basic/index.txt")])
        #expect(none.status == 22 && none.stderr.contains("HTTP status 401"), "no authenticator: the 401 itself")

        let cleartext = try start(https: false)
        defer { cleartext.stop() }
        let refused = try fetch(
            [cleartext.url("/basic/index.txt")] + alice,
            environment: ["HTTP_PASSWORD": "wonderland"]
        )
        #expect(refused.status == 7 && refused.stderr.contains("cleartext"), "\(refused.stderr)")
        let allowed = try fetch(
            [cleartext.url("/basic/index.txt"), "--allow-basic-over-http"] + alice,
            environment: ["HTTP_PASSWORD": "wonderland"]
        )
        #expect(allowed.status == 0 && allowed.stdoutText == "area /basic/\n", "\(allowed.stderr)")
    }

    @Test func seckitFetchWithoutASecretServiceExitsTwo() throws {
        let server = try start()
        defer { server.stop() }
        let result = try fetch(
            [server.url("/digest/index.txt"), "--keychain"],
            environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/seckit-test-bus"]
        )
        #expect(result.status == 2 && result.stderr.hasPrefix("seckit-fetch: keychain:"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test(.enabled(if: SecretServiceSupport.hasPrivateSecretService, SecretServiceSupport.privateSessionOnly))
    func seckitFetchFindsTheRealmsCredentialInTheKeychain() throws {
        let server = try start()
        defer { server.stop() }
        defer { removeKeychainItems(of: server) }
        for (user, realm) in [("alice", "Realm A"), ("bob", "Realm B")] {
            try storeWithSeccli(user, realm: realm, of: server)
        }
        for area in ["/alice/", "/bob/"] {
            let result = try fetch([server.url(area + "index.txt"), "--keychain"])
            #expect(result.status == 0 && result.stdoutText == "area \(area)\n", "\(area): \(result.stderr)")
        }
        let unknown = try fetch([server.url("/md5/index.txt"), "--keychain"])
        #expect(unknown.status == 7, "no item for the MD5 realm: \(unknown.stderr)")
    }
}
