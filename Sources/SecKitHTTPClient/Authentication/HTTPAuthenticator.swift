import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import SecCrypto
import SecHTTPAuth
import Synchronization

/// Answers HTTP authentication challenges (RFC 9110 §11: 401 with `WWW-Authenticate`) for requests
/// made through an `HTTPClient`, with credentials found by protection space, as URLSession's
/// challenge handling does:
///
/// - the strongest challenge offered is answered (Digest SHA-512-256, SHA-256, MD5, then Basic);
/// - the credential comes from `credentials` for the protection space (scheme, host, port, realm,
///   method);
/// - a refused credential is not sent again; when the provider has no other one, or after
///   `maximumFailures` refusals, the call ends with `HTTPAuthError.authenticationFailed` naming the
///   realm and scheme — never an endless loop. A Digest `stale=true` is answered with the new nonce
///   and counts as no failure, and so does the refusal of a kept answer from an earlier call (a
///   server that forgot its nonces): it is answered as a first challenge;
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
public final class HTTPAuthenticator: Sendable {
    public let credentials: any HTTPCredentialProvider
    public let persistence: CredentialPersistence
    public let maximumFailures: Int
    public let allowsBasicOverCleartext: Bool
    public let preemptiveBasic: Bool

    /// Per origin: the space last answered there, with what.
    private let answered = Mutex<[Origin: Answer]>([:])

    public init(
        credentials: any HTTPCredentialProvider,
        persistence: CredentialPersistence = .forSession,
        maximumFailures: Int = 3,
        allowsBasicOverCleartext: Bool = false,
        preemptiveBasic: Bool = false
    ) {
        self.credentials = credentials
        self.persistence = persistence
        self.maximumFailures = max(1, maximumFailures)
        self.allowsBasicOverCleartext = allowsBasicOverCleartext
        self.preemptiveBasic = preemptiveBasic
    }

    /// Sends `request` through `client`, answering its challenges. `body` is the request body
    /// (it replaces `request.body`): given as bytes so that it can be sent again, and covered by
    /// Digest `auth-int` when the server asks for it. A response that is not a challenge, or a
    /// challenge of no scheme SecHTTPAuth answers, is returned as it came.
    public func execute(
        _ request: HTTPClientRequest,
        body: [UInt8]? = nil,
        on client: HTTPClient,
        timeout: TimeAmount
    ) async throws -> HTTPClientResponse {
        var attempt = request
        attempt.body = body.map { .bytes($0) }
        guard let components = URLComponents(string: request.url), let origin = Origin(components) else {
            return try await client.execute(attempt, timeout: timeout)
        }
        var sent = try preemptiveAnswer(
            for: &attempt,
            origin: origin,
            target: Answer.requestTarget(components),
            body: body
        )
        var rejected: [HTTPCredential] = []
        var failures = 0
        while true {
            let response = try await client.execute(attempt, timeout: timeout)
            guard response.status == .unauthorized else {
                // A proxy's 407 has not judged the server's credential yet.
                if let sent, sent.isFresh, response.status != .proxyAuthenticationRequired {
                    try await credentials.save(sent.credential, for: sent.space, persistence: persistence)
                }
                return response
            }
            let challenges = try AuthenticationChallenge.parse(headerValues: response.headers["WWW-Authenticate"])
            guard let chosen = SupportedChallenge.strongest(in: challenges),
                let url = URLComponents(string: response.url?.absoluteString ?? attempt.url),
                let target = Origin(url)
            else { return response }
            _ = try? await response.body.collect(upTo: 1 << 20)  // the connection stays usable
            let space = ProtectionSpace(
                scheme: target.scheme,
                host: target.host,
                port: target.port,
                realm: chosen.challenge.realm,
                method: chosen.method
            )
            if chosen.method == .basic && !space.isSecure && !allowsBasicOverCleartext {
                throw HTTPAuthError.cleartextBasicRefused(space.description)
            }
            var digest: DigestSession?
            var credential: HTTPCredential?
            if let previous = sent, previous.space == space {
                if var session = previous.digest,
                    try session.handleRechallenge(chosen.challenge) == .retryWithFreshNonce
                {
                    // The nonce went stale: the credential was right, answer the new nonce.
                    digest = session
                    credential = previous.credential
                } else if previous.isFresh {
                    rejected.append(previous.credential)
                    failures += 1
                    answered.withLock { _ = $0.removeValue(forKey: target) }
                    if failures >= maximumFailures {
                        throw HTTPAuthError.authenticationFailed(
                            realm: space.realm,
                            method: space.method,
                            failures: failures
                        )
                    }
                }
                // A kept answer of an earlier call refused (the server forgot its nonces, or a
                // redirect changed the request): a first challenge, not a refused credential.
            }
            if credential == nil {
                guard let found = try await credentials.credential(for: space), !rejected.contains(found) else {
                    throw HTTPAuthError.authenticationFailed(
                        realm: space.realm,
                        method: space.method,
                        failures: failures
                    )
                }
                credential = found
                digest = space.method == .digest ? try DigestSession(challenge: chosen.challenge) : nil
            }
            var answer = Answer(space: space, credential: credential!, digest: digest, isFresh: true)
            attempt.url = response.url?.absoluteString ?? attempt.url
            try answer.authorize(&attempt, target: Answer.requestTarget(url), body: body)
            answered.withLock { $0[target] = answer }
            sent = answer
        }
    }

    /// Authorizes `attempt` before any challenge when this origin was answered before: Digest with
    /// the kept nonce's next count, Basic only when `preemptiveBasic`.
    private func preemptiveAnswer(
        for attempt: inout HTTPClientRequest,
        origin: Origin,
        target: String,
        body: [UInt8]?
    ) throws -> Answer? {
        try answered.withLock { answered -> Answer? in
            guard var answer = answered[origin], answer.digest != nil || preemptiveBasic else { return nil }
            try answer.authorize(&attempt, target: target, body: body)
            answer.isFresh = false
            answered[origin] = answer
            return answer
        }
    }

    /// Where a challenge came from.
    struct Origin: Hashable {
        let scheme: String
        let host: String
        let port: Int

        init?(_ components: URLComponents) {
            guard let scheme = components.scheme?.lowercased(), let host = components.host else { return nil }
            self.scheme = scheme
            self.host = ProtectionSpace.canonicalHost(host)
            self.port = components.port ?? ProtectionSpace.defaultPort(forScheme: scheme)
        }
    }

    /// A protection space answered, the credential, and for Digest the session (nonce and count).
    struct Answer: Sendable {
        let space: ProtectionSpace
        let credential: HTTPCredential
        var digest: DigestSession?
        /// Taken from the provider in this call (saved once it works), not from an earlier one.
        var isFresh: Bool

        /// Adds the `Authorization` header for `request`, whose request target (path and query) is `target`.
        mutating func authorize(_ request: inout HTTPClientRequest, target: String, body: [UInt8]?) throws {
            let value: String
            if var session = digest {
                value = try session.authorization(
                    method: request.method.rawValue,
                    uri: target,
                    user: credential.user,
                    password: credential.password,
                    body: body
                )
                digest = session
            } else {
                let basic = try BasicAuthorization.headerValue(user: credential.user, password: credential.password)
                value = basic.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
            }
            request.headers.replaceOrAdd(name: "Authorization", value: value)
        }

        /// The request target as AsyncHTTPClient puts it on the request line: path and query.
        static func requestTarget(_ components: URLComponents) -> String {
            let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
            return path + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
        }
    }
}
