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
    /// The same transport when it can await its answers: the async API then runs on it end to end.
    package let asyncTransport: (any AsyncVaultTransport)?
    /// The token a login returned and what the server said of its lifetime; nil before the first
    /// login (or after a refusal).
    private let session = Mutex<VaultTokenSession?>(nil)
    /// Held while logging in or renewing, so concurrent calls wait for one login, not make many.
    private let loginLock = Mutex<Void>(())
    /// The async callers' refresh in flight, which the others await instead of making their own.
    private let refreshing = Mutex<Task<SecureBytes, any Error>?>(nil)
    /// `https://host:port/v1/`, which every request's URL starts with.
    private let apiBase: String

    /// A client of `configuration`'s server over `transport`.
    ///
    /// - Parameters:
    ///   - configuration: the server, its TLS settings, the login and the namespace (the mount and
    ///     path prefix are the store's).
    ///   - transport: what sends each request; the client makes no request until it is called.
    public init(configuration: VaultConfiguration, transport: any VaultTransport) {
        self.configuration = configuration
        self.transport = transport
        asyncTransport = transport as? any AsyncVaultTransport
        apiBase = configuration.address.description + "/v1/"
    }

    /// The plan of one API call: `method` to `/v1/<path>` with the token, following the server's
    /// rules; its result is the answer for the caller to read (2xx, and the 4xx the caller tells
    /// apart: 404, a check-and-set refusal). Run it with `run(_:until:)` or `run(_:until:over:)`.
    ///
    /// - Throws: (when run) `serverSealed`, `serverUninitialized`, `permissionDenied` (403 after a
    ///   new login, when one is possible), `serverUnreachable`, `untrustedServer`,
    ///   `invalidResponse`, or the deadline's `timeout`/`cancelled`.
    package func send(
        _ method: String,
        _ path: String,
        body: SecureBytes? = nil,
        until deadline: OperationDeadline,
        loggedInAgain: Bool = false
    ) throws(KeychainError) -> VaultPlan<VaultResponse> {
        try withToken { token throws(KeychainError) in
            try self.exchange(method, path, token: token, body: body, until: deadline).flatMap {
                response throws(KeychainError) in
                guard response.status == 403, self.configuration.login.canLogInAgain, !loggedInAgain else {
                    return .done(response)
                }
                // An expired or revoked token reads as a refusal: log in once more, then believe it.
                self.configuration.tokenEvents?(.tokenRefused)
                self.discard(token)
                return try self.send(method, path, body: body, until: deadline, loggedInAgain: true)
            }
        }
    }

    /// The plan of one request with retries and one redirect, without login. Each attempt starts at
    /// the configured address and follows one redirect: after a failover the node a standby pointed
    /// to is dead, and retrying there would fail until the deadline while the standby (or the new
    /// active node it now names) answers.
    private func exchange(
        _ method: String,
        _ path: String,
        token: SecureBytes?,
        body: SecureBytes?,
        until deadline: OperationDeadline
    ) throws(KeychainError) -> VaultPlan<VaultResponse> {
        let origin = apiBase + path
        func attempt(_ url: String, redirected: Bool, retries: Int) throws(KeychainError) -> VaultPlan<VaultResponse> {
            guard !deadline.hasPassed else { throw deadline.error }
            let request = VaultRequest(
                method: method,
                url: url,
                token: token,
                namespace: configuration.namespace,
                body: body
            )
            let again = { () throws(KeychainError) in try attempt(origin, redirected: false, retries: retries + 1) }
            return .send(request) { result throws(KeychainError) in
                let response: VaultResponse
                switch result {
                case .success(let answer): response = answer
                case .failure(.connection(let reason)):
                    return try self.backOff(retries, until: deadline, else: .serverUnreachable(reason), then: again)
                case .failure(.timeout): throw deadline.error
                case .failure(.untrustedServer(let failure, let reason)): throw .untrustedServer(failure, reason)
                case .failure(.invalidResponse(let reason)): throw .invalidResponse(reason)
                case .failure(.unusable(let reason)): throw .serverUnreachable(reason)
                }
                switch response.status {
                case 307, 308:
                    guard !redirected else {
                        throw .invalidResponse("a second redirect (one, to the active node, is followed)")
                    }
                    return try attempt(
                        try self.redirectTarget(response.location, from: url),
                        redirected: true,
                        retries: retries
                    )
                case 503 where VaultServerError.isSealed(response.body):
                    throw .serverSealed
                case 501:
                    throw .serverUninitialized
                case 412, 500...599:
                    return try self.backOff(
                        retries,
                        until: deadline,
                        else: VaultServerError.keychainError(response),
                        then: again
                    )
                default:
                    return .done(response)
                }
            }
        }
        return try attempt(origin, redirected: false, retries: 0)
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

    /// The wait before the next attempt: full jitter over 50 ms doubling to 1 s. Throws `failure`
    /// when the wait would end after the deadline.
    private func backOff<Output>(
        _ retries: Int,
        until deadline: OperationDeadline,
        else failure: KeychainError,
        then next: @escaping () throws(KeychainError) -> VaultPlan<Output>
    ) throws(KeychainError) -> VaultPlan<Output> {
        let ceiling = Duration.milliseconds(50) * (1 << min(retries, 5))
        let wait = min(ceiling, .seconds(1)) * Double.random(in: 0.5...1)
        guard deadline.remaining > wait, !deadline.isCancelled else { throw failure }
        return .wait(wait, then: next)
    }

    // MARK: - The drivers

    /// Carries out `plan` on the calling thread over the blocking transport: each request sent and
    /// waited for, each back-off slept, a login or renewal made under the client's lock (concurrent
    /// callers wait for one login, not make many).
    ///
    /// - Throws: what the plan's steps throw.
    package func run<Output>(
        _ plan: VaultPlan<Output>,
        until deadline: OperationDeadline
    ) throws(KeychainError)
        -> Output
    {
        var plan = plan
        while true {
            switch plan {
            case .done(let output):
                return output
            case .send(let request, let then):
                let result: Result<VaultResponse, VaultTransportError>
                do throws(VaultTransportError) {
                    result = .success(try transport.send(request, deadline: deadline.instant))
                } catch {
                    result = .failure(error)
                }
                plan = try then(result)
            case .wait(let duration, let then):
                let (seconds, attoseconds) = duration.components
                var interval = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
                nanosleep(&interval, nil)
                plan = try then()
            case .refreshToken(let then):
                let token = try loginLock.withLock { _ throws(KeychainError) in
                    try run(try refresh(until: deadline), until: deadline)
                }
                plan = try then(token)
            }
        }
    }

    /// Carries out `plan` in the calling task over `transport`, awaiting each answer (no thread
    /// blocked), sleeping each back-off with `Task.sleep`, and sharing one login or renewal among
    /// the tasks that need it at once. A cancelled task ends the call with `cancelled`: the request
    /// in flight is cancelled, a back-off cut short.
    ///
    /// - Throws: what the plan's steps throw, or `cancelled`.
    package func run<Output>(
        _ plan: VaultPlan<Output>,
        until deadline: OperationDeadline,
        over transport: any AsyncVaultTransport
    ) async throws(KeychainError) -> Output {
        var plan = plan
        while true {
            switch plan {
            case .done(let output):
                return output
            case .send(let request, let then):
                guard !Task.isCancelled else { throw .cancelled }
                let result: Result<VaultResponse, VaultTransportError>
                do throws(VaultTransportError) {
                    result = .success(try await transport.send(request, deadline: deadline.instant))
                } catch {
                    result = .failure(error)
                }
                guard !Task.isCancelled else { throw .cancelled }
                plan = try then(result)
            case .wait(let duration, let then):
                do {
                    try await Task.sleep(for: duration)
                } catch {
                    throw .cancelled
                }
                plan = try then()
            case .refreshToken(let then):
                plan = try then(try await sharedRefresh(until: deadline, over: transport))
            }
        }
    }

    /// The token of the refresh in flight, or of a new one this task starts: the async side's
    /// login turn (a lock cannot be held across `await`). The refresh runs in a task of its own,
    /// bounded by the deadline of the call that started it, so a cancelled waiter does not cancel
    /// the others' login.
    private func sharedRefresh(
        until deadline: OperationDeadline,
        over transport: any AsyncVaultTransport
    ) async throws(KeychainError) -> SecureBytes {
        let task = refreshing.withLock { current in
            if let current { return current }
            let task = Task { () async throws -> SecureBytes in
                defer { self.refreshing.withLock { $0 = nil } }
                return try await self.run(try self.refresh(until: deadline), until: deadline, over: transport)
            }
            current = task
            return task
        }
        do {
            return try await task.value
        } catch let error as KeychainError {
            throw error
        } catch {
            throw .cancelled
        }
    }

    // MARK: - The token

    /// Continues with the token to send: the configured one, or the session's while it is usable;
    /// otherwise the plan asks its driver for a refresh first.
    private func withToken<Output>(
        _ next: @escaping (SecureBytes) throws(KeychainError) -> VaultPlan<Output>
    ) throws(KeychainError) -> VaultPlan<Output> {
        if case .token(let token) = configuration.login { return try next(token) }
        if let token = session.withLock({ $0?.usableToken(at: .now) }) { return try next(token) }
        return .refreshToken(then: next)
    }

    /// The plan of a refresh, run by one caller at a time: the session's token when another caller
    /// refreshed it meanwhile, else a renewal while the token lives and has not neared its maximum
    /// TTL, else a new login.
    private func refresh(until deadline: OperationDeadline) throws(KeychainError) -> VaultPlan<SecureBytes> {
        let current = session.withLock { $0 }
        if let token = current?.usableToken(at: .now) { return .done(token) }
        let events = configuration.tokenEvents
        let method = configuration.login.methodName
        let logIn = { () throws(KeychainError) -> VaultPlan<SecureBytes> in
            try VaultPlan.catching(
                { () throws(KeychainError) in
                    try self.logIn(until: deadline).map { new in
                        events?(.loggedIn(method: method, lease: new.lease))
                        self.session.withLock { $0 = new }
                        return new.token
                    }
                },
                { error throws(KeychainError) in
                    events?(.loginFailed(method: method, error: error))
                    throw error
                }
            )
        }
        guard let current, current.renewable, current.isAlive(at: .now) else { return try logIn() }
        return try VaultPlan<SecureBytes?>.catching(
            { () throws(KeychainError) in
                try self.renew(current, until: deadline).map { renewed in
                    guard !renewed.nearsMaximum(of: current) else {
                        events?(.renewalFailed(error: nil))
                        return nil
                    }
                    events?(.renewed(lease: renewed.lease))
                    self.session.withLock { $0 = renewed }
                    return renewed.token
                }
            },
            { error throws(KeychainError) in
                events?(.renewalFailed(error: error))
                return .done(nil)
            }
        ).flatMap { renewed throws(KeychainError) in
            if let renewed { return .done(renewed) }
            return try logIn()
        }
    }

    /// Forgets `token` when it is still the session's (a refused token is not used again).
    private func discard(_ token: SecureBytes) {
        session.withLock { if $0?.token == token { $0 = nil } }
    }

    private func logIn(until deadline: OperationDeadline) throws(KeychainError) -> VaultPlan<VaultTokenSession> {
        let path: String
        let body: VaultJSON.Value
        switch configuration.login {
        case .token(let token): return .done(VaultTokenSession(token: token, lease: nil, renewable: false))
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
        return try exchange("POST", path, token: nil, body: VaultJSON.encode(body), until: deadline).map {
            response throws(KeychainError) in
            switch response.status {
            case 200: return try VaultTokenSession(loginAnswer: response.body)
            case 400, 401, 403:
                throw .permissionDenied("login refused: \(VaultJSON.errors(in: response.body))")
            case 404: throw .missingMount("auth mount of the login")
            default: throw VaultServerError.keychainError(response)
            }
        }
    }

    private func renew(
        _ current: VaultTokenSession,
        until deadline: OperationDeadline
    ) throws(KeychainError)
        -> VaultPlan<VaultTokenSession>
    {
        let body = current.lease.map { VaultJSON.Value.object([("increment", .integer(Int($0.components.seconds)))]) }
        return try exchange(
            "POST",
            "auth/token/renew-self",
            token: current.token,
            body: VaultJSON.encode(body ?? .object([])),
            until: deadline
        ).map { response throws(KeychainError) in
            guard response.status == 200 else { throw VaultServerError.keychainError(response) }
            return try VaultTokenSession(loginAnswer: response.body, requestedLease: current.requestedLease)
        }
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
