/// The HTTP authentication flow of one request (RFC 9110 §11), for any HTTP client: it reads the
/// status and challenges of each response and says what to do next. It sends nothing itself and
/// asks for credentials through `Action.findCredential`, so it runs, and is tested, without a
/// network; an adapter per client (`HTTPAuthenticator` for AsyncHTTPClient) sends what it says.
///
/// ```swift
/// var exchange = AuthenticationExchange(method: "GET", origin: origin, target: "/orders/", cache: cache)
/// var action = try exchange.start()
/// while true {
///     switch action {
///     case .send(let authorization):  // the request, to where the last response came from
///         let response = try await send(authorization)
///         action = try exchange.receive(status: response.status, challenges: response.wwwAuthenticate,
///                                       from: response.origin, target: response.target)
///     case .findCredential(let space):
///         action = try exchange.provide(try await provider.credential(for: space))
///     case .deliver(let accepted):  // the last response is the caller's
///         if let accepted { try await provider.save(accepted.credential, for: accepted.space, persistence: .forSession) }
///         return response
///     }
/// }
/// ```
///
/// What it decides:
/// - the strongest challenge offered is answered (Digest SHA-512-256, SHA-256, MD5, then Basic);
///   Basic over cleartext `http://` only when the policy allows it;
/// - a 401 to an answer sent to the same origin refuses it, whatever realm or scheme it asks for
///   next, unless it is a credible `stale=true`: a Digest challenge of the same space and
///   algorithm with a nonce not sent before (so a stale retry happens at most once per nonce). A
///   refused credential is not sent again in the exchange, and `maximumFailures` refusals end it;
///   the refusal of a kept answer from an earlier request (a server that forgot its nonces) is
///   answered as a first challenge;
/// - a challenge weaker than one already answered in the same realm of the same origin (Basic
///   after Digest, MD5 after SHA-256) is a downgrade, and ends the exchange as a refusal: the
///   password never goes out in a weaker scheme to a server that refused a stronger one;
/// - every answer to a challenge counts, of any kind (first challenge, stale nonce, refusal, new
///   realm, redirect): after `maximumRoundTrips` of them, one more challenge ends the exchange with
///   `HTTPAuthError.tooManyChallenges`;
/// - a 401 with no Basic or Digest challenge (`Bearer`, `Negotiate`, none) is delivered as it came,
///   and so is any other status; a Digest challenge that cannot be answered (an unknown algorithm,
///   no realm, no nonce, no qop SecHTTPAuth knows, only `auth-int` without the body) throws
///   `HTTPAuthError.unusableChallenge`;
/// - a credential from the provider that the server accepted (a response that is not a 401 or
///   407) comes back in `Action.deliver` to be saved; a refused one never does.
///
/// One exchange serves one request and is then finished: calling a method the last action did not
/// ask for (or any after a throw or a `deliver`) is a programming error and traps.
public struct AuthenticationExchange: Sendable {
    /// The limits and allowances of an exchange.
    public struct Policy: Sendable, Hashable {
        /// Refusals of credentials before the exchange ends (at least 1).
        public var maximumFailures: Int
        /// Answers to challenges, of every kind, before the next challenge ends the exchange (at
        /// least 1).
        public var maximumRoundTrips: Int
        /// Answers Basic over cleartext `http://` (the password crosses the network readable).
        public var allowsBasicOverCleartext: Bool
        /// Sends Basic ahead of a challenge to an origin that accepted it before.
        public var preemptiveBasic: Bool

        /// The default number of refusals: 3.
        public static let defaultMaximumFailures = 3
        /// The default number of challenge round trips: 5, the longest exchange answered in good
        /// faith (three refusals of the default `maximumFailures`, one stale nonce, one more
        /// challenge after a redirect or a forgotten kept answer).
        public static let defaultMaximumRoundTrips = 5

        /// - Parameters:
        ///   - maximumFailures: refusals before the exchange ends; values below 1 count as 1.
        ///   - maximumRoundTrips: challenges answered before the next one ends the exchange; values
        ///     below 1 count as 1.
        ///   - allowsBasicOverCleartext: answer Basic over `http://`.
        ///   - preemptiveBasic: send a kept Basic answer before any challenge.
        public init(
            maximumFailures: Int = defaultMaximumFailures,
            maximumRoundTrips: Int = defaultMaximumRoundTrips,
            allowsBasicOverCleartext: Bool = false,
            preemptiveBasic: Bool = false
        ) {
            self.maximumFailures = max(1, maximumFailures)
            self.maximumRoundTrips = max(1, maximumRoundTrips)
            self.allowsBasicOverCleartext = allowsBasicOverCleartext
            self.preemptiveBasic = preemptiveBasic
        }
    }

    /// A credential the server accepted, with the space it answered: the provider may keep it.
    public struct AcceptedCredential: Sendable, Equatable {
        /// The credential, as the provider gave it.
        public let credential: HTTPCredential
        /// The protection space it answered.
        public let space: ProtectionSpace
    }

    /// What the client does next.
    public enum Action: Sendable, Equatable {
        /// Send the request (again) to where the last response came from, the request's URL at
        /// first, with this `Authorization` value; nil: without one.
        case send(authorization: String?)
        /// Ask the credential provider for this space's credential and give it to `provide(_:)`.
        case findCredential(ProtectionSpace)
        /// The last response is the caller's. `accepted`, when not nil, is a credential from the
        /// provider that this response accepted: save it as the caller's persistence says.
        case deliver(accepted: AcceptedCredential?)
    }

    private enum State: Sendable {
        case ready
        case awaitingResponse
        case awaitingCredential(ProtectionSpace, AuthenticationChallenge)
        case finished
    }

    /// A realm of an origin: what a downgrade is judged in.
    private struct Realm: Hashable, Sendable {
        let origin: HTTPOrigin
        let realm: String?
    }

    private let method: String
    private let body: [UInt8]?
    private let policy: Policy
    private let cache: AuthenticationCache
    /// Where the next request goes: the request's URL, then the URL of the last challenge.
    private var origin: HTTPOrigin
    private var target: String
    private var state = State.ready
    /// The answer on the last request sent, nil when it went without one.
    private var sent: KeptAnswer?
    private var rejected: [HTTPCredential] = []
    /// The strongest scheme answered in each realm, with its method.
    private var answered: [Realm: (strength: Int, method: AuthenticationMethod)] = [:]
    private var sentNonces: Set<String> = []
    /// Credentials refused so far.
    public private(set) var failures = 0
    /// Requests sent in answer to a challenge so far.
    public private(set) var roundTrips = 0

    /// An exchange for one request.
    ///
    /// - Parameters:
    ///   - method: the request method (`GET`), as on the request line.
    ///   - origin: where the request goes.
    ///   - target: the request target as on the request line: path and query (`/dir/index.html?x=1`).
    ///   - body: the request body, when known: Digest `auth-int` covers it (a server that offers only
    ///     `auth-int` cannot be answered without it).
    ///   - policy: limits and allowances.
    ///   - cache: the answers kept per origin, shared with the client's other exchanges.
    public init(
        method: String,
        origin: HTTPOrigin,
        target: String,
        body: [UInt8]? = nil,
        policy: Policy = Policy(),
        cache: AuthenticationCache
    ) {
        self.method = method
        self.origin = origin
        self.target = target
        self.body = body
        self.policy = policy
        self.cache = cache
    }

    /// The first action: send the request, with the answer kept for its origin when there is one
    /// (Digest with the kept nonce's next count; Basic only with `preemptiveBasic`).
    ///
    /// - Returns: `.send`.
    /// - Throws: `HTTPAuthError` when the kept answer cannot authorize this request (a method or
    ///   target that cannot go into a Digest header).
    public mutating func start() throws(HTTPAuthError) -> Action {
        guard case .ready = state else { preconditionFailure("AuthenticationExchange.start() called twice") }
        state = .finished
        let kept = try cache.authorizeAhead(
            origin: origin,
            method: method,
            target: target,
            body: body,
            preemptiveBasic: policy.preemptiveBasic
        )
        if let kept { record(kept.answer) }
        state = .awaitingResponse
        return .send(authorization: kept?.authorization)
    }

    /// Takes the response to the request last sent.
    ///
    /// - Parameters:
    ///   - status: the response's status code.
    ///   - challenges: the values of its `WWW-Authenticate` header lines, in order.
    ///   - origin: where the response came from (where a client that follows redirects ended up).
    ///   - target: the request target (path and query) it came from; an answer goes there.
    /// - Returns: `.deliver` for a response that is not a 401, or a 401 without a Basic or Digest
    ///   challenge; `.send` for a stale nonce; `.findCredential` for a challenge to answer.
    /// - Throws: `HTTPAuthError.malformedChallenge` for a header that is not RFC 9110 syntax,
    ///   `.unusableChallenge` for a Digest challenge that cannot be answered, `.cleartextBasicRefused`,
    ///   `.authenticationFailed` after `maximumFailures` refusals or a downgrade, `.tooManyChallenges`
    ///   after `maximumRoundTrips` answers, and what making the answer throws for a stale nonce.
    public mutating func receive(
        status: Int,
        challenges: [String],
        from origin: HTTPOrigin,
        target: String
    ) throws(HTTPAuthError) -> Action {
        guard case .awaitingResponse = state else {
            preconditionFailure("AuthenticationExchange.receive called without a request sent")
        }
        state = .finished
        guard status == 401 else {
            // A proxy's 407 has not judged the server's credential yet.
            guard status != 407, let sent, sent.isFresh else { return .deliver(accepted: nil) }
            return .deliver(accepted: AcceptedCredential(credential: sent.credential, space: sent.space))
        }
        guard let chosen = try Self.choose(from: try AuthenticationChallenge.parse(headerValues: challenges)) else {
            return .deliver(accepted: nil)
        }
        let space = ProtectionSpace(origin: origin, realm: chosen.challenge.realm, method: chosen.method)
        if chosen.method == .basic && !space.isSecure && !policy.allowsBasicOverCleartext {
            throw .cleartextBasicRefused(space.description)
        }
        var staleRetry: KeptAnswer?
        if let previous = sent, previous.space.origin == origin {
            staleRetry = Self.staleRetry(of: previous, for: chosen, in: space, sentNonces: sentNonces)
            if staleRetry == nil { try refuse(previous) }
        }
        if let stronger = answered[Realm(origin: origin, realm: space.realm)], stronger.strength > chosen.strength {
            throw .authenticationFailed(realm: space.realm, method: stronger.method, failures: failures)
        }
        guard roundTrips < policy.maximumRoundTrips else { throw .tooManyChallenges(answered: roundTrips) }
        self.origin = origin
        self.target = target
        if let staleRetry { return try send(staleRetry) }
        state = .awaitingCredential(space, chosen.challenge)
        return .findCredential(space)
    }

    /// Takes the provider's credential for the space of `Action.findCredential`.
    ///
    /// - Parameter credential: the provider's credential; nil when it has none.
    /// - Returns: `.send` with the answer.
    /// - Throws: `HTTPAuthError.authenticationFailed` when there is no credential or it was refused
    ///   earlier in the exchange, `.unusableChallenge` for a Digest challenge that cannot be
    ///   answered, `.invalidCredentials` for a user name or password the scheme cannot carry,
    ///   `.invalidRequest` for a method or target that cannot go into a Digest header.
    public mutating func provide(_ credential: HTTPCredential?) throws(HTTPAuthError) -> Action {
        guard case .awaitingCredential(let space, let challenge) = state else {
            preconditionFailure("AuthenticationExchange.provide called without .findCredential")
        }
        state = .finished
        guard let credential, !rejected.contains(credential) else {
            throw .authenticationFailed(realm: space.realm, method: space.method, failures: failures)
        }
        let digest = space.method == .digest ? try DigestSession(challenge: challenge) : nil
        return try send(KeptAnswer(space: space, credential: credential, digest: digest, isFresh: true))
    }

    // MARK: - Steps

    private mutating func send(_ answer: KeptAnswer) throws(HTTPAuthError) -> Action {
        var answer = answer
        let authorization = try answer.authorization(method: method, target: target, body: body)
        roundTrips += 1
        cache.keep(answer, for: origin)
        record(answer)
        state = .awaitingResponse
        return .send(authorization: authorization)
    }

    /// Notes `answer` as the one on the request going out.
    private mutating func record(_ answer: KeptAnswer) {
        sent = answer
        let realm = Realm(origin: answer.space.origin, realm: answer.space.realm)
        if answered[realm].map({ $0.strength < answer.strength }) ?? true {
            answered[realm] = (answer.strength, answer.space.method)
        }
        if let nonce = answer.digest?.challenge.nonce { sentNonces.insert(nonce) }
    }

    /// The server refused `previous`: it is forgotten, and when it came from the provider in this
    /// exchange it counts as a failure and is not sent again.
    private mutating func refuse(_ previous: KeptAnswer) throws(HTTPAuthError) {
        cache.forget(previous.space.origin)
        // A kept answer of an earlier request refused (the server forgot its nonces, or a redirect
        // changed the request): a first challenge, not a refused credential.
        guard previous.isFresh else { return }
        rejected.append(previous.credential)
        failures += 1
        if failures >= policy.maximumFailures {
            throw .authenticationFailed(realm: previous.space.realm, method: previous.space.method, failures: failures)
        }
    }

    /// `previous` with the new nonce when `chosen` is a credible `stale=true`: Digest, the same space
    /// and algorithm, and a nonce not sent before in the exchange. Nil otherwise (a refusal).
    private static func staleRetry(
        of previous: KeptAnswer,
        for chosen: SupportedChallenge,
        in space: ProtectionSpace,
        sentNonces: Set<String>
    ) -> KeptAnswer? {
        guard previous.space == space, var session = previous.digest,
            chosen.digestAlgorithm == session.challenge.algorithm,
            let next = try? DigestChallenge(chosen.challenge), next.isStale, !sentNonces.contains(next.nonce),
            (try? session.handleRechallenge(chosen.challenge)) == .retryWithFreshNonce
        else { return nil }
        return KeptAnswer(space: space, credential: previous.credential, digest: session, isFresh: true)
    }

    /// The strongest challenge SecHTTPAuth answers; nil when no Basic or Digest challenge was offered.
    /// Throws the reason when Digest was offered and none of it can be answered.
    private static func choose(from challenges: [AuthenticationChallenge]) throws(HTTPAuthError) -> SupportedChallenge?
    {
        if let chosen = SupportedChallenge.strongest(in: challenges) { return chosen }
        for challenge in challenges where challenge.hasScheme(AuthenticationMethod.digest.rawValue) {
            _ = try DigestChallenge(challenge)
        }
        return nil
    }
}
