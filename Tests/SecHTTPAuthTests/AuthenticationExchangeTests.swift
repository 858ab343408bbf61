import SecCrypto
import SecHTTPAuth
import Testing

/// `AuthenticationExchange` without a network: scripted servers answer each request, and the
/// tests check what the exchange sends, whom it asks for credentials, and how it ends. The four
/// loops of issue #27 (stale on every answer, a new realm each time, two realms alternating, Digest
/// and Basic alternating) and the bound on challenge round trips among them.
@Suite struct AuthenticationExchangeTests {
    static let origin = HTTPOrigin(scheme: "https", host: "api.example.com")
    static let alice = HTTPCredential(user: "alice", password: SecureBytes(Array("wonderland".utf8)))

    /// A server's answer to one request.
    struct Reply {
        var status: Int
        var challenges: [String] = []
        var origin = AuthenticationExchangeTests.origin
        var target = "/orders/"
    }

    /// What one exchange did.
    struct Run {
        /// The `Authorization` value of each request sent (nil: none).
        var sent: [String?] = []
        var lookups: [ProtectionSpace] = []
        var outcome: Result<AuthenticationExchange.AcceptedCredential?, HTTPAuthError> = .success(nil)
        var roundTrips = 0

        /// True when the exchange ended by delivering a response.
        var delivered: Bool {
            if case .success = outcome { return true }
            return false
        }
        /// The credential the delivered response accepted.
        var accepted: AuthenticationExchange.AcceptedCredential? {
            if case .success(let accepted) = outcome { return accepted }
            return nil
        }

        var error: HTTPAuthError? {
            if case .failure(let error) = outcome { return error }
            return nil
        }
        /// The schemes of the answers sent, in order.
        var schemes: [String] { sent.compactMap { $0?.split(separator: " ").first.map(String.init) } }
    }

    /// Runs one exchange: `server` answers request number `n` (from 0) carrying `authorization`;
    /// `credential` is the provider. More than 50 requests fail the test instead of looping.
    func drive(
        policy: AuthenticationExchange.Policy = .init(),
        cache: AuthenticationCache = AuthenticationCache(),
        body: [UInt8]? = nil,
        credential: (ProtectionSpace, Int) -> HTTPCredential? = { _, _ in AuthenticationExchangeTests.alice },
        server: (Int, String?) -> Reply
    ) -> Run {
        var exchange = AuthenticationExchange(
            method: "GET",
            origin: Self.origin,
            target: "/orders/",
            body: body,
            policy: policy,
            cache: cache
        )
        var run = Run()
        do {
            var action = try exchange.start()
            while true {
                switch action {
                case .send(let authorization):
                    guard run.sent.count < 50 else {
                        Issue.record("more than 50 requests: unbounded")
                        return run
                    }
                    run.sent.append(authorization)
                    let reply = server(run.sent.count - 1, authorization)
                    action = try exchange.receive(
                        status: reply.status,
                        challenges: reply.challenges,
                        from: reply.origin,
                        target: reply.target
                    )
                case .findCredential(let space):
                    run.lookups.append(space)
                    action = try exchange.provide(credential(space, run.lookups.count - 1))
                case .deliver(let accepted):
                    run.outcome = .success(accepted)
                    run.roundTrips = exchange.roundTrips
                    return run
                }
            }
        } catch {
            run.outcome = .failure(error)
            run.roundTrips = exchange.roundTrips
            return run
        }
    }

    static func digest(
        realm: String? = "orders",
        nonce: String = "n1",
        stale: Bool = false,
        algorithm: String = "SHA-256",
        qop: String = "auth"
    ) -> String {
        var parameters = realm.map { ["realm=\"\($0)\""] } ?? []
        parameters += ["nonce=\"\(nonce)\"", "qop=\"\(qop)\"", "algorithm=\(algorithm)"]
        if stale { parameters.append("stale=true") }
        return "Digest " + parameters.joined(separator: ", ")
    }

    static func basic(realm: String = "orders") -> String { "Basic realm=\"\(realm)\"" }

    /// A parameter of a Digest `Authorization` value (it has a challenge's syntax).
    func parameter(_ name: String, of authorization: String?) throws -> String? {
        let value = try #require(authorization)
        return try #require(try AuthenticationChallenge.parse(headerValues: [value]).first)[parameter: name]
    }

    func space(_ realm: String?, _ method: AuthenticationMethod, origin: HTTPOrigin = origin) -> ProtectionSpace {
        ProtectionSpace(origin: origin, realm: realm, method: method)
    }

    /// A provider that finds another credential at every look-up, as one that prompts a user would.
    static func user(_ number: Int) -> HTTPCredential {
        HTTPCredential(user: "user\(number)", password: SecureBytes(Array("password \(number)".utf8)))
    }

    static func prompting(_: ProtectionSpace, _ lookup: Int) -> HTTPCredential? { user(lookup) }

    /// A provider with no credential.
    static func nobody(_: ProtectionSpace, _: Int) -> HTTPCredential? { nil }

    // MARK: - The flow

    @Test func aBasicChallengeIsAnsweredAndTheWorkingCredentialComesBackToSave() {
        let run = drive { index, _ in index == 0 ? Reply(status: 401, challenges: [Self.basic()]) : Reply(status: 200) }
        #expect(run.sent == [nil, "Basic YWxpY2U6d29uZGVybGFuZA=="])
        #expect(run.lookups == [space("orders", .basic)])
        #expect(run.accepted?.credential == Self.alice)
        #expect(run.accepted?.space == space("orders", .basic))
        #expect(run.roundTrips == 1)
    }

    @Test func digestIsAnsweredAndItsNonceKeptForTheNextRequestToTheOrigin() throws {
        let cache = AuthenticationCache()
        let first = drive(cache: cache) { index, _ in
            index == 0 ? Reply(status: 401, challenges: [Self.digest(), Self.basic()]) : Reply(status: 200)
        }
        #expect(first.schemes == ["Digest"])
        #expect(try parameter("nc", of: first.sent[1]) == "00000001")
        #expect(first.accepted?.space == space("orders", .digest))
        // The next request goes out answered at once, nc 2 of the kept nonce; nothing new to save.
        let second = drive(cache: cache) { _, _ in Reply(status: 200) }
        #expect(second.sent.count == 1 && second.lookups.isEmpty)
        #expect(try parameter("nc", of: second.sent[0]) == "00000002")
        #expect(try parameter("nonce", of: second.sent[0]) == "n1")
        #expect(second.delivered && second.accepted == nil)
    }

    @Test func aKeptBasicAnswerGoesAheadOnlyWhenPreemptive() {
        let cache = AuthenticationCache()
        let challengeFirst: (Int, String?) -> Reply = { _, authorization in
            authorization == nil ? Reply(status: 401, challenges: [Self.basic()]) : Reply(status: 200)
        }
        _ = drive(cache: cache, server: challengeFirst)
        #expect(drive(cache: cache, server: challengeFirst).sent.first == .some(nil))
        let preemptive = AuthenticationExchange.Policy(preemptiveBasic: true)
        #expect(drive(policy: preemptive, cache: cache, server: challengeFirst).sent.count == 1)
    }

    @Test func aStaleNonceIsAnsweredWithTheNewOneAndIsNoFailure() throws {
        // One failure would end the exchange: the stale nonce must not count as one.
        let run = drive(policy: .init(maximumFailures: 1)) { index, _ in
            switch index {
            case 0: Reply(status: 401, challenges: [Self.digest(nonce: "n1")])
            case 1: Reply(status: 401, challenges: [Self.digest(nonce: "n2", stale: true)])
            default: Reply(status: 200)
            }
        }
        #expect(run.sent.count == 3 && run.lookups.count == 1)
        #expect(try parameter("nonce", of: run.sent[2]) == "n2")
        #expect(try parameter("nc", of: run.sent[2]) == "00000001")
        #expect(run.accepted?.credential == Self.alice)
    }

    @Test func aKeptAnswerTheServerForgotIsAnsweredAsAFirstChallenge() throws {
        let cache = AuthenticationCache()
        _ = drive(cache: cache) { index, _ in
            index == 0 ? Reply(status: 401, challenges: [Self.digest(nonce: "n1")]) : Reply(status: 200)
        }
        // The server restarted: n1 is unknown, refused without stale; no failure is counted.
        let run = drive(policy: .init(maximumFailures: 1), cache: cache) { index, _ in
            index == 0 ? Reply(status: 401, challenges: [Self.digest(nonce: "n2")]) : Reply(status: 200)
        }
        #expect(run.sent.count == 2 && run.lookups.count == 1)
        #expect(try parameter("nonce", of: run.sent[1]) == "n2")
        #expect(run.accepted?.credential == Self.alice)
    }

    @Test func aRefusedCredentialIsNotSentAgain() {
        let run = drive { _, _ in Reply(status: 401, challenges: [Self.digest()]) }
        #expect(run.sent.count == 2)
        #expect(run.error == .authenticationFailed(realm: "orders", method: .digest, failures: 1))
    }

    @Test func noCredentialEndsTheExchangeAfterTheChallenge() {
        let run = drive(credential: Self.nobody) { _, _ in Reply(status: 401, challenges: [Self.basic()]) }
        #expect(run.sent == [nil])
        #expect(run.error == .authenticationFailed(realm: "orders", method: .basic, failures: 0))
    }

    @Test func maximumFailuresEndsAnExchangeWhoseProviderKeepsFindingCredentials() {
        let run = drive(credential: Self.prompting) { _, _ in
            Reply(status: 401, challenges: [Self.digest()])
        }
        #expect(run.sent.count == 4)
        #expect(run.error == .authenticationFailed(realm: "orders", method: .digest, failures: 3))
    }

    @Test func basicOverCleartextOnlyWhenAllowed() {
        let cleartext = HTTPOrigin(scheme: "HTTP", host: "api.example.com.")
        let challenge: (Int, String?) -> Reply = { index, _ in
            index == 0
                ? Reply(status: 401, challenges: [Self.basic()], origin: cleartext)
                : Reply(status: 200, origin: cleartext)
        }
        #expect(
            drive(server: challenge).error
                == .cleartextBasicRefused(space("orders", .basic, origin: cleartext).description)
        )
        #expect(drive(policy: .init(allowsBasicOverCleartext: true), server: challenge).sent.count == 2)
    }

    @Test func aProxyChallengeAndOtherStatusesAreDelivered() throws {
        let proxy = drive { index, _ in
            index == 0 ? Reply(status: 401, challenges: [Self.basic()]) : Reply(status: 407, challenges: [Self.basic()])
        }
        #expect(proxy.delivered && proxy.accepted == nil, "a 407 has not judged the server's credential")
        let notFound = drive { _, _ in Reply(status: 404) }
        #expect(notFound.sent == [nil] && notFound.delivered && notFound.accepted == nil)
    }

    @Test func aRedirectToAnotherOriginIsAnsweredWithThatOriginsCredential() throws {
        let other = HTTPOrigin(scheme: "https", host: "login.example.com")
        let run = drive { index, _ in
            switch index {
            case 0: Reply(status: 401, challenges: [Self.basic()])
            // The client followed a redirect: the other origin never saw the answer.
            case 1: Reply(status: 401, challenges: [Self.digest(realm: "login")], origin: other, target: "/login")
            default: Reply(status: 200, origin: other, target: "/login")
            }
        }
        #expect(run.lookups == [space("orders", .basic), space("login", .digest, origin: other)])
        #expect(try parameter("uri", of: run.sent[2]) == "/login")
        #expect(run.accepted?.space == space("login", .digest, origin: other))
    }

    // MARK: - Challenges that cannot be answered

    @Test(arguments: [
        (AuthenticationExchangeTests.digest(algorithm: "SHA-1024"), "Digest algorithm not supported"),
        (AuthenticationExchangeTests.digest(realm: nil), "Digest challenge without a realm"),
        ("Digest realm=\"orders\", qop=auth", "Digest challenge without a nonce"),
        (AuthenticationExchangeTests.digest(qop: "auth-conf"), "no Digest qop value SecHTTPAuth knows"),
        (
            AuthenticationExchangeTests.digest(qop: "auth-int"),
            "the server offers only qop=auth-int and the request body is not given"
        ),
    ])
    func aDigestChallengeThatCannotBeAnsweredThrowsWhy(_ challenge: String, _ reason: String) {
        let run = drive { _, _ in Reply(status: 401, challenges: [challenge, "Bearer realm=\"orders\""]) }
        #expect(run.error == .unusableChallenge(reason))
        #expect(run.sent == [nil], "nothing is sent in answer")
    }

    @Test func authIntIsAnsweredWhenTheBodyIsGiven() throws {
        let run = drive(body: Array("{}".utf8)) { index, _ in
            index == 0 ? Reply(status: 401, challenges: [Self.digest(qop: "auth-int")]) : Reply(status: 200)
        }
        #expect(try parameter("qop", of: run.sent[1]) == "auth-int")
    }

    @Test func aChallengeOfNoSchemeSecHTTPAuthAnswersIsDelivered() throws {
        for challenges in [["Bearer realm=\"orders\""], ["Negotiate"], []] {
            let run = drive { _, _ in Reply(status: 401, challenges: challenges) }
            #expect(run.sent == [nil] && run.lookups.isEmpty && run.delivered && run.accepted == nil)
        }
        // An unusable Digest beside Basic: Basic is answered.
        let basic = drive { index, _ in
            index == 0
                ? Reply(status: 401, challenges: [Self.digest(algorithm: "SHA-1024"), Self.basic()])
                : Reply(status: 200)
        }
        #expect(basic.schemes == ["Basic"])
    }

    @Test func aMalformedChallengeThrows() {
        let run = drive { _, _ in Reply(status: 401, challenges: ["Digest realm=\"unterminated"]) }
        #expect(run.error == .malformedChallenge("unterminated quoted string at byte 26"))
    }

    // MARK: - Hostile servers: the four loops and the bound

    @Test func staleOnEveryAnswerEndsAtTheBound() {
        let run = drive { index, _ in Reply(status: 401, challenges: [Self.digest(nonce: "n\(index)", stale: true)]) }
        let bound = AuthenticationExchange.Policy.defaultMaximumRoundTrips
        #expect(run.sent.count == 1 + bound && run.lookups.count == 1)
        #expect(run.error == .tooManyChallenges(answered: bound))
    }

    @Test func staleWithANonceAlreadySentIsARefusal() {
        let run = drive { _, _ in Reply(status: 401, challenges: [Self.digest(nonce: "same", stale: true)]) }
        #expect(run.sent.count == 2)
        #expect(run.error == .authenticationFailed(realm: "orders", method: .digest, failures: 1))
    }

    @Test func aNewRealmEachTimeIsARefusal() {
        let server: (Int, String?) -> Reply = { index, _ in
            Reply(status: 401, challenges: [Self.digest(realm: "realm \(index)", nonce: "n\(index)")])
        }
        // One credential for every realm: refused once, not sent again to the next realm.
        let same = drive(server: server)
        #expect(same.sent.count == 2)
        #expect(same.error == .authenticationFailed(realm: "realm 1", method: .digest, failures: 1))
        // A new credential at every look-up: the refusals count across realms.
        let prompting = drive(credential: Self.prompting, server: server)
        #expect(prompting.sent.count == 4)
        #expect(prompting.error == .authenticationFailed(realm: "realm 2", method: .digest, failures: 3))
        // Many failures allowed: the round trips bound the exchange.
        let patient = drive(
            policy: .init(maximumFailures: 100),
            credential: Self.prompting,
            server: server
        )
        #expect(patient.sent.count == 1 + AuthenticationExchange.Policy.defaultMaximumRoundTrips)
        #expect(patient.error == .tooManyChallenges(answered: AuthenticationExchange.Policy.defaultMaximumRoundTrips))
    }

    @Test func twoRealmsAlternatingIsARefusal() {
        let server: (Int, String?) -> Reply = { index, _ in
            Reply(status: 401, challenges: [Self.digest(realm: index % 2 == 0 ? "A" : "B", nonce: "n\(index)")])
        }
        let same = drive(server: server)
        #expect(same.sent.count == 2)
        #expect(same.error == .authenticationFailed(realm: "B", method: .digest, failures: 1))
        let patient = drive(
            policy: .init(maximumFailures: 100),
            credential: Self.prompting,
            server: server
        )
        #expect(patient.error == .tooManyChallenges(answered: AuthenticationExchange.Policy.defaultMaximumRoundTrips))
    }

    @Test func basicAfterARefusedDigestInTheSameRealmIsNeverAnswered() {
        let server: (Int, String?) -> Reply = { index, _ in
            Reply(status: 401, challenges: [index % 2 == 0 ? Self.digest(nonce: "n\(index)") : Self.basic()])
        }
        let providers: [(ProtectionSpace, Int) -> HTTPCredential?] = [{ _, _ in Self.alice }, Self.prompting]
        for credential in providers {
            let run = drive(policy: .init(maximumFailures: 100), credential: credential, server: server)
            #expect(run.schemes == ["Digest"], "no password in Basic after Digest")
            #expect(run.error == .authenticationFailed(realm: "orders", method: .digest, failures: 1))
        }
        // The same for a weaker Digest algorithm.
        let md5 = drive(credential: Self.prompting) { index, _ in
            Reply(status: 401, challenges: [Self.digest(nonce: "n\(index)", algorithm: index == 0 ? "SHA-256" : "MD5")])
        }
        #expect(md5.sent.count == 2)
        #expect(md5.error == .authenticationFailed(realm: "orders", method: .digest, failures: 1))
        // And for a stale nonce that changes the algorithm.
        let staleMD5 = drive { index, _ in
            Reply(
                status: 401,
                challenges: [
                    Self.digest(nonce: "n\(index)", stale: index > 0, algorithm: index == 0 ? "SHA-256" : "MD5")
                ]
            )
        }
        #expect(staleMD5.sent.count == 2)
    }

    @Test func aRefusedKeptDigestAnswerIsNotFollowedByBasic() {
        let cache = AuthenticationCache()
        _ = drive(cache: cache) { index, _ in
            index == 0 ? Reply(status: 401, challenges: [Self.digest()]) : Reply(status: 200)
        }
        let run = drive(cache: cache) { _, _ in Reply(status: 401, challenges: [Self.basic()]) }
        #expect(run.schemes == ["Digest"])
        #expect(run.error == .authenticationFailed(realm: "orders", method: .digest, failures: 0))
    }

    @Test func redirectsEachCountAsARoundTrip() {
        let server: (Int, String?) -> Reply = { index, _ in
            Reply(status: 401, challenges: [Self.basic()], target: "/orders/\(index)")
        }
        let run = drive(policy: .init(maximumFailures: 100), credential: Self.prompting, server: server)
        #expect(run.sent.count == 1 + AuthenticationExchange.Policy.defaultMaximumRoundTrips)
        #expect(run.error == .tooManyChallenges(answered: AuthenticationExchange.Policy.defaultMaximumRoundTrips))
    }

    @Test(arguments: [1, 2, 7])
    func theBoundIsTheConfiguredOne(_ bound: Int) {
        let run = drive(policy: .init(maximumRoundTrips: bound)) { index, _ in
            Reply(status: 401, challenges: [Self.digest(nonce: "n\(index)", stale: true)])
        }
        #expect(run.sent.count == 1 + bound)
        #expect(run.error == .tooManyChallenges(answered: bound))
    }
}
