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
    func send(_ request: VaultRequest, deadline: ContinuousClock.Instant) throws(VaultTransportError) -> VaultResponse
}
