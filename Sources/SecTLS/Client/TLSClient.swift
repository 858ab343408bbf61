import SecCrypto
import SecIO

/// A TLS client for one `TLSClientConfiguration`: make it once, then `connect` as often as needed (the
/// OpenSSL context, with its loaded CA store and client identity, is shared by every connection).
///
/// A connection is refused, with a typed `TLSError`, when the endpoint is not on the allow-list
/// (before anything is resolved or sent), when the certificate does not verify (expired, unknown
/// CA, wrong host name — skipped in pin-only mode, where the pins are the trust), when no pin of
/// an enforced pin set matches the verified chain, or when the server refuses our client certificate
/// (or its absence), which under TLS 1.3 is only known after the handshake and is waited for.
///
/// ```swift
/// let client = try TLSClient(configuration: configuration)
/// let connection = try client.connect(host: "api.example.com", port: 443)
/// defer { connection.close() }
/// try connection.write(Array("GET / HTTP/1.0\r\nHost: api.example.com\r\n\r\n".utf8))
/// let reply = try connection.read()
/// ```
public final class TLSClient: Sendable {
    public let configuration: TLSClientConfiguration
    let context: SSLContextHandle
    /// The trust store (shared with `context`) and the pin checks after the handshake.
    let verifier: ServerCertificateVerifier

    /// Builds the OpenSSL context. Throws `invalidConfiguration` for an unreadable CA file, pin-only
    /// trust without pins, or a maximum version below the minimum.
    ///
    /// - Parameter configuration: the trust, pins, client identity, versions, allow-list and timeouts
    ///   of every connection (the defaults: the system's CAs, TLS 1.2 and later).
    /// - Throws: ``TLSError/invalidConfiguration(_:)`` for a maximum version below the minimum, an
    ///   unreadable CA file or an empty CA list, or `.pinsOnly` trust without an enforced pin set;
    ///   ``TLSError/backendFailure(_:)`` when OpenSSL fails or refuses the client identity.
    public init(configuration: TLSClientConfiguration = TLSClientConfiguration()) throws(TLSError) {
        try configuration.checkVersionRange()
        self.configuration = configuration
        self.verifier = try ServerCertificateVerifier(configuration: configuration)
        self.context = try SSLContextHandle(configuration, trustStore: verifier.trustStore)
    }

    /// Connects to `host` (a name or an IPv4/IPv6 address) on `port`, completes the handshake and
    /// every check, and returns the open connection. `scheme` only matters for the allow-list.
    /// Throws `invalidConfiguration`, before anything is resolved, when `host` or the configured
    /// `serverName` holds a NUL, another control character or white space.
    ///
    /// - Parameters:
    ///   - host: the host name or IP address to connect to.
    ///   - port: the TCP port, 1 to 65535.
    ///   - scheme: the scheme the allow-list is checked with (`tls` by default).
    /// - Returns: the established connection, its chain verified and its pins checked.
    /// - Throws: before anything is resolved: ``TLSError/invalidConfiguration(_:)`` for a control
    ///   character, NUL or white space in `host` or `serverName`, a port out of range, or `.pinsOnly`
    ///   trust without an enforced, unexpired pin set for the host;
    ///   ``TLSError/endpointNotAllowed(host:port:scheme:)`` for an endpoint the allow-list does not
    ///   permit. Then ``TLSError/hostNotFound(host:reason:)``, ``TLSError/connectionFailed(_:)``,
    ///   ``TLSError/timedOut(_:)`` (connect or handshake phase); from the handshake
    ///   ``TLSError/certificateVerificationFailed(_:)``, ``TLSError/pinMismatch(_:)``,
    ///   ``TLSError/noBackupPin(host:)``, ``TLSError/clientCertificateRequired``,
    ///   ``TLSError/clientCertificateRejected(_:)`` or ``TLSError/handshakeFailed(_:)``.
    public func connect(host: String, port: Int, scheme: String = "tls") throws(TLSError) -> TLSConnection {
        try Self.checkEndpoint(host: host, port: port, scheme: scheme, configuration: configuration)
        let serverName = HostPattern.normalize(configuration.serverName ?? host)
        if configuration.trustRoots == .pinsOnly {
            _ = try verifier.enforcedPinSet(forPinOnlyTrust: serverName, at: Date())
        }
        let start = ContinuousClock.now
        let socket = try TCPSocket.connect(host: host, port: port, deadline: start + configuration.timeouts.connect)
        return try TLSConnection(
            socket: socket,
            host: host,
            port: port,
            serverName: serverName,
            client: self
        )
    }

    /// `connect(host:port:scheme:)` for Swift concurrency: name resolution, the TCP connect and the
    /// handshake run on a thread of their own, never on the cooperative pool. A cancelled task stops
    /// the connect or handshake at once with `cancelled` (a name resolution under way is not
    /// interrupted: the cancellation takes effect when it returns).
    ///
    /// ```swift
    /// let connection = try await client.connect(host: "api.example.com", port: 443)
    /// try await connection.write(Array("GET / HTTP/1.0\r\nHost: api.example.com\r\n\r\n".utf8))
    /// let reply = try await connection.readToEnd()
    /// ```
    ///
    /// - Parameters:
    ///   - host: the host name or IP address to connect to.
    ///   - port: the TCP port, 1 to 65535.
    ///   - scheme: the scheme the allow-list is checked with (`tls` by default).
    /// - Returns: the established connection, its chain verified and its pins checked.
    /// - Throws: ``TLSError/cancelled`` when the task is cancelled; otherwise what the synchronous
    ///   `connect(host:port:scheme:)` throws.
    public func connect(host: String, port: Int, scheme: String = "tls") async throws(TLSError) -> TLSConnection {
        try await BlockingThread.run { () throws(TLSError) in try self.connect(host: host, port: port, scheme: scheme) }
    }

    /// `TLSClient(configuration:).connect(host:port:scheme:)` in one call.
    ///
    /// - Parameters:
    ///   - host: the host name or IP address to connect to.
    ///   - port: the TCP port, 1 to 65535.
    ///   - scheme: the scheme the allow-list is checked with (`tls` by default).
    ///   - configuration: the client's configuration (the defaults by default).
    /// - Returns: the established connection.
    /// - Throws: what ``TLSClient/init(configuration:)`` and the instance's
    ///   `connect(host:port:scheme:)` throw.
    public static func connect(
        host: String,
        port: Int,
        scheme: String = "tls",
        configuration: TLSClientConfiguration = TLSClientConfiguration()
    ) throws(TLSError) -> TLSConnection {
        try TLSClient(configuration: configuration).connect(host: host, port: port, scheme: scheme)
    }

    /// The checks before anything is resolved: names without control characters or white space, and
    /// the endpoint on the allow-list. Shared with the other clients of a `TLSClientConfiguration`.
    package static func checkEndpoint(
        host: String,
        port: Int,
        scheme: String,
        configuration: TLSClientConfiguration
    ) throws(TLSError) {
        for (what, name) in [("host", host), ("server name", configuration.serverName)] {
            if let name, let position = HostPattern.positionOfControlOrSpace(in: name) {
                throw .invalidConfiguration(
                    "the \(what) has a control character, NUL or white space (character \(position) of \(name.unicodeScalars.count))"
                )
            }
        }
        if let allowList = configuration.allowedEndpoints, !allowList.permits(host: host, port: port, scheme: scheme) {
            throw .endpointNotAllowed(host: host, port: port, scheme: scheme.lowercased())
        }
    }
}
