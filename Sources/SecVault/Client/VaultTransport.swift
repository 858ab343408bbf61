import SecCrypto
import SecKeychain

/// One HTTP exchange with an OpenBao or Vault server, as the protocol core (`VaultClient`) asks a
/// transport for it. The transport sends exactly this request once: it follows no redirect and
/// retries nothing (the core does both, by the server's rules).
public struct VaultRequest: Sendable {
    /// `GET`, `POST`, `DELETE` or `LIST` (sent as is: OpenBao and Vault take `LIST` as a method).
    public var method: String
    /// The whole URL, `https://host:port/v1/...`, its path already percent-encoded.
    public var url: String
    /// `X-Vault-Token`; nil for a login.
    public var token: SecureBytes?
    /// `X-Vault-Namespace`; nil for the root namespace.
    public var namespace: String?
    /// A JSON body (sent with `Content-Type: application/json`); nil for none.
    public var body: SecureBytes?

    /// A request of these parts, each sent as it is.
    ///
    /// - Parameters:
    ///   - method: `GET`, `POST`, `DELETE` or `LIST`.
    ///   - url: the whole URL, `https://host:port/v1/...`, its path already percent-encoded.
    ///   - token: the `X-Vault-Token`; nil (the default) for a login.
    ///   - namespace: the `X-Vault-Namespace`; nil (the default) for the root namespace.
    ///   - body: a JSON body, sent with `Content-Type: application/json`; nil (the default) for none.
    public init(
        method: String,
        url: String,
        token: SecureBytes? = nil,
        namespace: String? = nil,
        body: SecureBytes? = nil
    ) {
        self.method = method
        self.url = url
        self.token = token
        self.namespace = namespace
        self.body = body
    }
}

/// What a server answered.
public struct VaultResponse: Sendable {
    /// The HTTP status.
    public var status: Int
    /// The `Location` of a redirect; nil for other answers.
    public var location: String?
    /// The body (JSON, as the server sent it), in memory that is wiped on release: it may hold a
    /// secret or a token.
    public var body: SecureBytes

    /// An answer of these parts, as a transport read it.
    ///
    /// - Parameters:
    ///   - status: the HTTP status.
    ///   - location: the `Location` header of a redirect; nil (the default) for other answers.
    ///   - body: the body as the server sent it (empty for none).
    public init(status: Int, location: String? = nil, body: SecureBytes) {
        self.status = status
        self.location = location
        self.body = body
    }
}

/// Why a transport got no answer. The core retries `connection` and maps the others to
/// `KeychainError`s.
public enum VaultTransportError: Error, Sendable {
    /// No answer: refused, unreachable, unknown host, reset, a handshake failure. The core retries
    /// within the call's timeout.
    case connection(String)
    /// The deadline passed.
    case timeout
    /// The server's certificate was refused (or ours by the server) before any request byte was sent.
    case untrustedServer(ServerTrustFailure, String)
    /// The answer is not HTTP the protocol allows: oversized headers or body, a malformed status line.
    case invalidResponse(String)
    /// The transport cannot be used (its library is missing, a bad setting); the string says what.
    case unusable(String)
}

/// How `VaultClient` sends requests: libcurl for seccli (`CurlTransport`), AsyncHTTPClient for
/// services. A transport keeps connections alive between requests and may be called from several
/// threads at once.
public protocol VaultTransport: Sendable {
    /// Sends `request` and returns the answer, or throws when there is none before `deadline`.
    ///
    /// - Parameters:
    ///   - request: the exchange to make, sent once: no redirect followed, nothing retried.
    ///   - deadline: when the exchange must have ended, connecting and TLS included.
    /// - Returns: the server's answer, whatever its HTTP status (a redirect, a 4xx or 5xx included:
    ///   the core reads them).
    /// - Throws: ``VaultTransportError/timeout`` when `deadline` passes first;
    ///   ``VaultTransportError/connection(_:)`` when there is no answer (refused, unreachable,
    ///   unknown host, reset); ``VaultTransportError/untrustedServer(_:_:)`` when TLS refused the
    ///   server's certificate or the server ours, before any request byte was sent;
    ///   ``VaultTransportError/invalidResponse(_:)`` for an answer that is not the HTTP the protocol
    ///   allows (oversized headers or body, a malformed status line);
    ///   ``VaultTransportError/unusable(_:)`` when the transport cannot make the request (its
    ///   library is missing, a URL it cannot send).
    func send(_ request: VaultRequest, deadline: ContinuousClock.Instant) throws(VaultTransportError) -> VaultResponse
}

/// A transport that can also await its answers, without blocking a thread: AsyncHTTPClient's in
/// SecVaultHTTPClient. `VaultStore`'s async calls drive the core over it with `await` (back-off by
/// `Task.sleep`, the task's cancellation honoured); the blocking `send` stays for its sync calls.
public protocol AsyncVaultTransport: VaultTransport {
    /// Sends `request` and returns the answer, or throws when there is none before `deadline`; the
    /// calling task is suspended, not blocked, while the request runs.
    ///
    /// - Parameters:
    ///   - request: the exchange to make, sent once: no redirect followed, nothing retried.
    ///   - deadline: when the exchange must have ended, connecting and TLS included.
    /// - Returns: the server's answer, whatever its HTTP status.
    /// - Throws: what the blocking `send(_:deadline:)` throws; when the task is cancelled, the
    ///   request is cancelled and a `VaultTransportError` thrown (the core reports `cancelled`).
    func send(
        _ request: VaultRequest,
        deadline: ContinuousClock.Instant
    ) async throws(VaultTransportError) -> VaultResponse
}
