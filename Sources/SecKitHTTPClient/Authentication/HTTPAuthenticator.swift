import AsyncHTTPClient
import Foundation
import Logging
import Metrics
import NIOCore
import NIOHTTP1
import SecHTTPAuth
import SecKitNIO

/// Answers HTTP authentication challenges (RFC 9110 §11: 401 with `WWW-Authenticate`) for requests
/// made through an `HTTPClient`, with credentials found by protection space, as URLSession's
/// challenge handling does. The decisions are SecHTTPAuth's `AuthenticationExchange` (its
/// documentation has them in full); this is its AsyncHTTPClient adapter:
///
/// - the strongest challenge offered is answered (Digest SHA-512-256, SHA-256, MD5, then Basic),
///   with the credential `credentials` has for the protection space (scheme, host, port, realm,
///   method);
/// - a refused credential is not sent again; when the provider has no other one, or after
///   `maximumFailures` refusals, the call ends with `HTTPAuthError.authenticationFailed` naming the
///   realm and scheme. A Digest `stale=true` with a new nonce is answered with it, and so is the
///   refusal of a kept answer from an earlier call (a server that forgot its nonces);
/// - a weaker scheme asked for in a realm answered in a stronger one (Basic after Digest) is a
///   refusal: the password never goes out in Basic to a server that refused it in Digest;
/// - after `maximumRoundTrips` answered challenges of any kind, one more ends the call with
///   `HTTPAuthError.tooManyChallenges`;
/// - a credential that worked is kept as `persistence` says (never one that was refused);
/// - later requests to the same origin send Digest at once with the next `nc` of the kept nonce
///   (no challenge round trip), and Basic only when `preemptiveBasic` is set;
/// - Basic is never answered over cleartext `http://` unless `allowsBasicOverCleartext`;
///   credentials go only where a challenge asked for them: AsyncHTTPClient drops `Authorization`
///   on a redirect to another origin, and that origin's challenge is answered with that origin's
///   credential.
///
/// A proxy's 407 is returned as it came: AsyncHTTPClient's `HTTPClient.Configuration.Proxy` carries
/// proxy credentials (`.server(host:port:authorization:)`), and an `https://` request through a
/// proxy never shows the 407 here (AsyncHTTPClient throws at CONNECT).
///
/// ```swift
/// let authenticator = HTTPAuthenticator(credentials: KeychainCredentialProvider(store: SecretServiceStore()))
/// let response = try await authenticator.execute(HTTPClientRequest(url: url), on: client, timeout: .seconds(30))
/// ```
///
/// Passwords stay in `SecureBytes` until the header is made; the header value itself becomes a
/// `String`, which is what AsyncHTTPClient sends. Errors and logs never contain them.
///
/// Each challenge answered is logged at debug and counted (`seckit_http_auth_challenges_total`,
/// by `method` and `outcome`: answered, accepted, failed); an exchange that fails is logged at
/// warning with its reason. Each call to `credentials` is counted and timed
/// (`seckit_credential_calls_total` and `seckit_credential_call_duration_seconds`, by `operation`:
/// lookup or save, and `outcome`). Neither a header value nor a credential is ever logged.
public final class HTTPAuthenticator: Sendable {
    /// Where credentials come from, and where those that worked are kept.
    public let credentials: any HTTPCredentialProvider
    /// How long `credentials` keeps a credential that worked.
    public let persistence: CredentialPersistence
    /// Refused credentials before a call ends.
    public let maximumFailures: Int
    /// Challenges a call answers, of every kind, before the next one ends it.
    public let maximumRoundTrips: Int
    /// Basic is answered over cleartext `http://`.
    public let allowsBasicOverCleartext: Bool
    /// Basic goes out before a challenge to an origin that accepted it before.
    public let preemptiveBasic: Bool

    private let logger: Logger
    private let metrics: AuthenticationMetrics
    private let policy: AuthenticationExchange.Policy
    /// Per origin: the space last answered there, with what.
    private let cache = AuthenticationCache()

    /// - Parameters:
    ///   - credentials: where the credential of a protection space comes from, and where one that
    ///     worked is kept.
    ///   - persistence: how long `credentials` keeps a credential that worked.
    ///   - maximumFailures: refused credentials before a call ends (at least 1).
    ///   - maximumRoundTrips: challenges a call answers, of every kind, before the next one ends it
    ///     (at least 1).
    ///   - allowsBasicOverCleartext: answer Basic over `http://` (the password crosses the network
    ///     readable).
    ///   - preemptiveBasic: send Basic before a challenge to an origin that accepted it before.
    ///   - logger: where challenges (debug) and failed exchanges (warning) are logged; by default
    ///     nowhere, as AsyncHTTPClient's default logger.
    ///   - metricsFactory: where challenges and credential calls are counted and timed: the factory
    ///     the application bootstrapped unless another is given.
    public init(
        credentials: any HTTPCredentialProvider,
        persistence: CredentialPersistence = .forSession,
        maximumFailures: Int = AuthenticationExchange.Policy.defaultMaximumFailures,
        maximumRoundTrips: Int = AuthenticationExchange.Policy.defaultMaximumRoundTrips,
        allowsBasicOverCleartext: Bool = false,
        preemptiveBasic: Bool = false,
        logger: Logger = .secKitDisabled,
        metricsFactory: any MetricsFactory = MetricsSystem.factory
    ) {
        self.logger = logger
        self.metrics = AuthenticationMetrics(factory: metricsFactory)
        policy = AuthenticationExchange.Policy(
            maximumFailures: maximumFailures,
            maximumRoundTrips: maximumRoundTrips,
            allowsBasicOverCleartext: allowsBasicOverCleartext,
            preemptiveBasic: preemptiveBasic
        )
        self.credentials = credentials
        self.persistence = persistence
        self.maximumFailures = policy.maximumFailures
        self.maximumRoundTrips = policy.maximumRoundTrips
        self.allowsBasicOverCleartext = allowsBasicOverCleartext
        self.preemptiveBasic = preemptiveBasic
    }

    /// Sends `request` through `client`, answering its challenges.
    ///
    /// - Parameters:
    ///   - request: the request; an `Authorization` header is added to it when a challenge is answered.
    ///   - body: the request body (it replaces `request.body`): given as bytes so that it can be
    ///     sent again, and covered by Digest `auth-int` when the server asks for it.
    ///   - client: the client that sends every request of the exchange.
    ///   - timeout: the time the whole exchange may take, from now: `execute(_:body:on:deadline:)`.
    /// - Returns: the first response that is not a challenge SecHTTPAuth answers: not a 401, or a
    ///   401 of no scheme it answers (returned as it came).
    /// - Throws: `HTTPAuthError` when the exchange ends without such a response (see
    ///   `AuthenticationExchange`), `HTTPClientError.deadlineExceeded`, and what `client` and
    ///   `credentials` throw.
    public func execute(
        _ request: HTTPClientRequest,
        body: [UInt8]? = nil,
        on client: HTTPClient,
        timeout: TimeAmount
    ) async throws -> HTTPClientResponse {
        try await execute(request, body: body, on: client, deadline: .now() + timeout)
    }

    /// Sends `request` through `client`, answering its challenges, all before `deadline`.
    ///
    /// One deadline covers the whole exchange: every request's connect, handshake and response
    /// head, and the body of every challenge read before the next request. The body of the
    /// response returned is the caller's to read, as with `HTTPClient.execute(_:deadline:)`.
    ///
    /// - Parameters:
    ///   - request: the request; an `Authorization` header is added to it when a challenge is answered.
    ///   - body: the request body (it replaces `request.body`): given as bytes so that it can be
    ///     sent again, and covered by Digest `auth-int` when the server asks for it.
    ///   - client: the client that sends every request of the exchange.
    ///   - deadline: when the exchange must have its answer.
    /// - Returns: the first response that is not a challenge SecHTTPAuth answers: not a 401, or a
    ///   401 of no scheme it answers (returned as it came).
    /// - Throws: `HTTPAuthError` when the exchange ends without such a response (see
    ///   `AuthenticationExchange`), `HTTPClientError.deadlineExceeded`, and what `client` and
    ///   `credentials` throw.
    public func execute(
        _ request: HTTPClientRequest,
        body: [UInt8]? = nil,
        on client: HTTPClient,
        deadline: NIODeadline
    ) async throws -> HTTPClientResponse {
        var attempt = request
        attempt.body = body.map { .bytes($0) }
        guard let location = Location(request.url) else { return try await client.execute(attempt, deadline: deadline) }
        var exchange = AuthenticationExchange(
            method: request.method.rawValue,
            origin: location.origin,
            target: location.target,
            body: body,
            policy: policy,
            cache: cache
        )
        var action = try exchange.start()
        var received: HTTPClientResponse?  // the last response
        var answered: AuthenticationMetrics.Method?  // the method of the challenge last answered
        do {
            while true {
                switch action {
                case .send(let authorization):
                    if let challenge = received {
                        try await Self.discardBody(of: challenge, before: deadline)  // the connection stays usable
                        attempt.url = challenge.url?.absoluteString ?? attempt.url
                    }
                    if let authorization {
                        attempt.headers.replaceOrAdd(name: "Authorization", value: authorization)
                        if received != nil {
                            answered = AuthenticationMetrics.Method(authorization: authorization)
                            metrics.challenge(answered, outcome: "answered")
                            logger.debug(
                                "HTTP authentication challenge answered",
                                metadata: [
                                    "http.auth.method": "\(answered?.rawValue ?? "other")",
                                    "http.origin": "\(location.origin)",
                                ]
                            )
                        }
                    }
                    let response = try await client.execute(attempt, deadline: deadline)
                    guard let from = Location(response.url?.absoluteString ?? attempt.url) else { return response }
                    action = try exchange.receive(
                        status: Int(response.status.code),
                        challenges: response.headers["WWW-Authenticate"],
                        from: from.origin,
                        target: from.target
                    )
                    received = response
                case .findCredential(let space):
                    let credential = try await metrics.lookup {
                        try await credentials.credential(for: space)
                    }
                    action = try exchange.provide(credential)
                case .deliver(let accepted):
                    if let accepted {
                        metrics.challenge(answered, outcome: "accepted")
                        try await metrics.save {
                            try await credentials.save(
                                accepted.credential,
                                for: accepted.space,
                                persistence: persistence
                            )
                        }
                    }
                    guard let received else { preconditionFailure("an exchange delivers only a response it received") }
                    return received
                }
            }
        } catch let error as HTTPAuthError {
            metrics.challenge(answered, outcome: "failed")
            logger.warning(
                "HTTP authentication failed",
                metadata: ["http.origin": "\(location.origin)", "http.auth.error": "\(error)"]
            )
            throw error
        }
    }

    /// Reads and drops a challenge's body (up to 1 MiB), so that its connection can carry the next
    /// request; a body that stalls is cut off at `deadline` (AsyncHTTPClient's own deadline ends
    /// with the response head) with `HTTPClientError.deadlineExceeded`.
    private static func discardBody(of response: HTTPClientResponse, before deadline: NIODeadline) async throws {
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                _ = try? await response.body.collect(upTo: 1 << 20)
                return true
            }
            group.addTask {
                let left = deadline - .now()
                if left > .zero { try await Task.sleep(nanoseconds: UInt64(left.nanoseconds)) }
                return false
            }
            defer { group.cancelAll() }
            guard try await group.next() == true else { throw HTTPClientError.deadlineExceeded }
        }
    }

    /// Where a request went: its origin and its request target as AsyncHTTPClient puts it on the
    /// request line (path and query).
    struct Location {
        let origin: HTTPOrigin
        let target: String

        init?(_ url: String) {
            guard let components = URLComponents(string: url), let scheme = components.scheme,
                let host = components.host
            else { return nil }
            origin = HTTPOrigin(scheme: scheme, host: host, port: components.port)
            let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
            target = path + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
        }
    }
}
