import SecCrypto
import SecIO
import SecKeychain
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The protocol core of OpenBao and Vault, above any `VaultTransport`: the token (login, renewal,
/// a new login at the maximum TTL or when the token is refused), one followed redirect to the
/// active node, retries with jittered backoff, and the server's errors as `KeychainError`s.
///
/// Every call has one deadline, which covers its login, retries and redirect. Safe to use from
/// several threads; they share the token.
public final class VaultClient: Sendable {
    public let configuration: VaultConfiguration
    private let transport: any VaultTransport
    /// The token a login returned and what the server said of its lifetime; nil before the first
    /// login (or after a refusal).
    private let session = Mutex<VaultTokenSession?>(nil)
    /// Held while logging in or renewing, so concurrent calls wait for one login, not make many.
    private let loginLock = Mutex<Void>(())

    /// A client of `configuration`'s server over `transport`.
    ///
    /// - Parameters:
    ///   - configuration: the server, its TLS settings, the login and the namespace (the mount and
    ///     path prefix are the store's).
    ///   - transport: what sends each request; the client makes no request until it is called.
    public init(configuration: VaultConfiguration, transport: any VaultTransport) {
        self.configuration = configuration
        self.transport = transport
    }

    /// Sends `method` to `/v1/<path>` with the token, following the server's rules; returns the
    /// answer for the caller to read (2xx, and the 4xx the caller tells apart: 404, a
    /// check-and-set refusal).
    ///
    /// - Throws: `serverSealed`, `serverUninitialized`, `permissionDenied` (403 after a new login,
    ///   when one is possible), `serverUnreachable`, `untrustedServer`, `invalidResponse`, or the
    ///   deadline's `timeout`/`cancelled`.
    package func send(
        _ method: String,
        _ path: String,
        body: SecureBytes? = nil,
        until deadline: OperationDeadline
    ) throws(KeychainError) -> VaultResponse {
        var loggedInAgain = false
        while true {
            let token = try currentToken(until: deadline)
            let response = try exchange(method, path, token: token, body: body, until: deadline)
            if response.status == 403, configuration.login.canLogInAgain, !loggedInAgain {
                // An expired or revoked token reads as a refusal: log in once more, then believe it.
                loggedInAgain = true
                configuration.tokenEvents?(.tokenRefused)
                discard(token)
                continue
            }
            return response
        }
    }

    /// One request with retries and one redirect, without login. Each attempt starts at the
    /// configured address and follows one redirect: after a failover the node a standby pointed to
    /// is dead, and retrying there would fail until the deadline while the standby (or the new
    /// active node it now names) answers.
    private func exchange(
        _ method: String,
        _ path: String,
        token: SecureBytes?,
        body: SecureBytes?,
        until deadline: OperationDeadline
    ) throws(KeychainError) -> VaultResponse {
        let origin = configuration.address.description + "/v1/" + path
        var url = origin
        var redirected = false
        var attempt = 0
        while true {
            guard !deadline.hasPassed else { throw deadline.error }
            let request = VaultRequest(
                method: method,
                url: url,
                token: token,
                namespace: configuration.namespace,
                body: body
            )
            let response: VaultResponse
            do {
                response = try transport.send(request, deadline: deadline.instant)
            } catch {
                switch error {
                case .connection(let reason):
                    try backOff(attempt: &attempt, until: deadline, else: .serverUnreachable(reason))
                    (url, redirected) = (origin, false)
                    continue
                case .timeout: throw deadline.error
                case .untrustedServer(let failure, let reason): throw .untrustedServer(failure, reason)
                case .invalidResponse(let reason): throw .invalidResponse(reason)
                case .unusable(let reason): throw .serverUnreachable(reason)
                }
            }
            switch response.status {
            case 307, 308:
                guard !redirected else {
                    throw .invalidResponse("a second redirect (one, to the active node, is followed)")
                }
                url = try redirectTarget(response.location, from: url)
                redirected = true
            case 503 where VaultServerError.isSealed(response.body):
                throw .serverSealed
            case 501:
                throw .serverUninitialized
            case 412, 500...599:
                try backOff(attempt: &attempt, until: deadline, else: VaultServerError.keychainError(response))
                (url, redirected) = (origin, false)
            default:
                return response
            }
        }
    }

    /// Where a redirect leads: an absolute URL (or a path on the same server), never from `https` to `http`.
    private func redirectTarget(_ location: String?, from url: String) throws(KeychainError) -> String {
        guard let location, !location.isEmpty else { throw .invalidResponse("a redirect without a Location") }
        if location.hasPrefix("/") { return configuration.address.description + location }
        let lowered = location.lowercased()
        guard lowered.hasPrefix("https://") || lowered.hasPrefix("http://") else {
            throw .invalidResponse("a redirect to \(UntrustedText.quoted(location, maximumLength: 100))")
        }
        if url.lowercased().hasPrefix("https://") && lowered.hasPrefix("http://") {
            throw .invalidResponse("a redirect from https to http was refused")
        }
        return location
    }

    /// Waits before the next attempt: full jitter over 50 ms doubling to 1 s. Throws `failure` when
    /// the wait would end after the deadline.
    private func backOff(
        attempt: inout Int,
        until deadline: OperationDeadline,
        else failure: KeychainError
    )
        throws(KeychainError)
    {
        let ceiling = Duration.milliseconds(50) * (1 << min(attempt, 5))
        let wait = min(ceiling, .seconds(1)) * Double.random(in: 0.5...1)
        attempt += 1
        guard deadline.remaining > wait, !deadline.isCancelled else { throw failure }
        let (seconds, attoseconds) = wait.components
        var interval = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        nanosleep(&interval, nil)
    }

    // MARK: - The token

    /// The token to send: the configured one, or the session's, logging in or renewing first when
    /// its time has come.
    private func currentToken(until deadline: OperationDeadline) throws(KeychainError) -> SecureBytes {
        if case .token(let token) = configuration.login { return token }
        if let token = session.withLock({ $0?.usableToken(at: .now) }) { return token }
        return try loginLock.withLock { _ throws(KeychainError) -> SecureBytes in
            // Another thread may have logged in while this one waited.
            let current = session.withLock { $0 }
            if let token = current?.usableToken(at: .now) { return token }
            if let current, current.renewable, current.isAlive(at: .now) {
                do throws(KeychainError) {
                    let renewed = try renew(current, until: deadline)
                    if !renewed.nearsMaximum(of: current) {
                        configuration.tokenEvents?(.renewed(lease: renewed.lease))
                        session.withLock { $0 = renewed }
                        return renewed.token
                    }
                    configuration.tokenEvents?(.renewalFailed(error: nil))
                } catch {
                    configuration.tokenEvents?(.renewalFailed(error: error))
                }
            }
            let new: VaultTokenSession
            do throws(KeychainError) {
                new = try logIn(until: deadline)
            } catch {
                configuration.tokenEvents?(.loginFailed(method: configuration.login.methodName, error: error))
                throw error
            }
            configuration.tokenEvents?(.loggedIn(method: configuration.login.methodName, lease: new.lease))
            session.withLock { $0 = new }
            return new.token
        }
    }

    /// Forgets `token` when it is still the session's (a refused token is not used again).
    private func discard(_ token: SecureBytes) {
        session.withLock { if $0?.token == token { $0 = nil } }
    }

    private func logIn(until deadline: OperationDeadline) throws(KeychainError) -> VaultTokenSession {
        let path: String
        let body: VaultJSON.Value
        switch configuration.login {
        case .token(let token): return VaultTokenSession(token: token, lease: nil, renewable: false)
        case .appRole(let roleID, let secretID, let mount):
            path = "auth/\(VaultPath.encodeURLPath(mount))/login"
            body = .object([("role_id", .string(roleID)), ("secret_id", .string(secretID))])
        case .certificate(let role, let mount):
            guard configuration.tls.clientIdentity != nil else {
                throw .invalidAttribute("certificate login needs a client identity (the TLS configuration has none)")
            }
            path = "auth/\(VaultPath.encodeURLPath(mount))/login"
            body = .object(role.map { [("name", .text($0))] } ?? [])
        }
        let response = try exchange("POST", path, token: nil, body: VaultJSON.encode(body), until: deadline)
        switch response.status {
        case 200: return try VaultTokenSession(loginAnswer: response.body)
        case 400, 401, 403:
            throw .permissionDenied("login refused: \(VaultJSON.errors(in: response.body))")
        case 404: throw .missingMount("auth mount of the login")
        default: throw VaultServerError.keychainError(response)
        }
    }

    private func renew(
        _ current: VaultTokenSession,
        until deadline: OperationDeadline
    ) throws(KeychainError)
        -> VaultTokenSession
    {
        let body = current.lease.map { VaultJSON.Value.object([("increment", .integer(Int($0.components.seconds)))]) }
        let response = try exchange(
            "POST",
            "auth/token/renew-self",
            token: current.token,
            body: VaultJSON.encode(body ?? .object([])),
            until: deadline
        )
        guard response.status == 200 else { throw VaultServerError.keychainError(response) }
        return try VaultTokenSession(loginAnswer: response.body, requestedLease: current.requestedLease)
    }
}

/// A token from a login, and when to renew or replace it.
struct VaultTokenSession: Sendable {
    let token: SecureBytes
    /// How long the server said the token lives (`lease_duration`); nil when it does not expire.
    let lease: Duration?
    /// What the first login's token lived: a renewal that grants much less has reached the maximum TTL.
    let requestedLease: Duration?
    let renewable: Bool
    let obtained: ContinuousClock.Instant

    init(token: SecureBytes, lease: Duration?, renewable: Bool, requestedLease: Duration? = nil) {
        self.token = token
        self.lease = lease
        self.renewable = renewable
        self.requestedLease = requestedLease ?? lease
        obtained = .now
    }

    /// Reads the `auth` object of a login or renewal.
    init(loginAnswer body: SecureBytes, requestedLease: Duration? = nil) throws(KeychainError) {
        struct Answer: Decodable {
            struct Auth: Decodable {
                var client_token: String
                var lease_duration: Int?
                var renewable: Bool?
            }
            var auth: Auth?
        }
        let answer = try VaultJSON.decode(Answer.self, from: body, "the login's answer")
        guard let auth = answer.auth, !auth.client_token.isEmpty else {
            throw .invalidResponse("the login's answer holds no token")
        }
        let lease = auth.lease_duration.flatMap { $0 > 0 ? Duration.seconds($0) : nil }
        self.init(
            token: SecureBytes(utf8: auth.client_token),
            lease: lease,
            renewable: auth.renewable ?? false,
            requestedLease: requestedLease
        )
    }

    /// The token while less than half of its lease has passed (then it is renewed).
    func usableToken(at now: ContinuousClock.Instant) -> SecureBytes? {
        guard let lease else { return token }
        return now < obtained + lease / 2 ? token : nil
    }

    /// Whether the lease has not ended, with a margin for the renewal's way there (a sixth of the
    /// lease, at most a second).
    func isAlive(at now: ContinuousClock.Instant) -> Bool {
        guard let lease else { return true }
        return now + min(lease / 6, .seconds(1)) < obtained + lease
    }

    /// A renewal that granted less than half of the first lease: the token nears its maximum TTL,
    /// and a new login is made instead.
    func nearsMaximum(of previous: VaultTokenSession) -> Bool {
        guard let lease, let requested = previous.requestedLease else { return false }
        return lease < requested / 2
    }
}

/// The server's error answers as `KeychainError`s.
enum VaultServerError {
    static func isSealed(_ body: SecureBytes) -> Bool {
        VaultJSON.errors(in: body).lowercased().contains("sealed")
    }

    /// The error of an answer the caller does not handle itself.
    static func keychainError(_ response: VaultResponse) -> KeychainError {
        let reason = VaultJSON.errors(in: response.body)
        switch response.status {
        case 403: return .permissionDenied(reason.isEmpty ? "HTTP 403" : reason)
        case 501: return .serverUninitialized
        case 503 where isSealed(response.body): return .serverSealed
        default: return .invalidResponse("HTTP \(response.status)\(reason.isEmpty ? "" : ": " + reason)")
        }
    }
}
