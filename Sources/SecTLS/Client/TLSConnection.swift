import SecCrypto
import SecIO
import Synchronization

/// An established, verified TLS connection: read and write the application protocol over it, then
/// `close()` (also done when the connection is released). Calls from several threads or tasks are
/// serialised: a read waiting for data holds up a write, `peerChain` and `close()` until it returns
/// (at most the read timeout); the async `read`/`write` run on a thread of their own and stop with
/// `cancelled` when their task is cancelled, which ends such a wait at once.
public final class TLSConnection: Sendable {
    /// The host connected to, as given.
    public let host: String
    public let port: Int
    /// The name sent in SNI, verified and used to look up pins (lower-case).
    public let serverName: String
    /// The IP address connected to (`127.0.0.1`, `::1`).
    public let remoteAddress: String
    /// The negotiated protocol version.
    public let protocolVersion: TLSVersion
    /// The negotiated cipher suite, by OpenSSL's name (`TLS_AES_256_GCM_SHA384`, `ECDHE-RSA-AES256-GCM-SHA384`).
    public let cipher: String
    /// The chain as the server sent it, depth 0 first (built on first use). May hold certificates
    /// that prove nothing.
    public var peerChain: [X509Certificate] { session.withLock { $0.peerChain(reusing: verifiedChain) } }
    /// The chain verification built (`SSL_get0_verified_chain`): from the server's certificate to the
    /// trusted CA; in pin-only mode, the part of the sent chain linked by signatures from the server's
    /// certificate, which reaches a pinned certificate.
    /// Pins were checked against this chain.
    public let verifiedChain: [X509Certificate]
    /// The pin check (outcome `.notPinned` without a pin set for `serverName`), with its warnings.
    public let pinEvaluation: PinEvaluation
    /// True when the server asked for a client certificate.
    public let clientCertificateRequested: Bool

    /// The session, one call at a time: OpenSSL's `SSL` is not safe to use from two threads at once.
    private let session: Mutex<SSLSession>
    private let timeouts: TLSTimeouts

    init(
        socket: TCPSocket,
        host: String,
        port: Int,
        serverName: String,
        client: TLSClient
    ) throws(TLSError) {
        let configuration = client.configuration
        let session = try SSLSession(socket: socket, context: client.context)
        let established = try session.handshake(
            serverName: serverName,
            port: port,
            configuration: configuration,
            verifier: client.verifier,
            deadline: ContinuousClock.now + configuration.timeouts.handshake
        )
        self.session = Mutex(session)
        self.timeouts = configuration.timeouts
        self.host = host
        self.port = port
        self.serverName = serverName
        self.remoteAddress = socket.address
        self.protocolVersion = established.protocolVersion
        self.cipher = established.cipher
        self.verifiedChain = established.verifiedChain
        self.pinEvaluation = established.pinEvaluation
        self.clientCertificateRequested = established.clientCertificateRequested
    }

    /// Up to `maxLength` bytes, waiting at most the read timeout for the first; an empty array when
    /// the server closed the connection (with a TLS close_notify).
    ///
    /// - Parameter maxLength: the most bytes to return (16 KiB by default).
    /// - Returns: between 1 and `maxLength` bytes, or an empty array when the server closed the
    ///   connection.
    /// - Throws: ``TLSError/timedOut(_:)`` (read) when nothing arrives within the read timeout;
    ///   ``TLSError/connectionBroken(_:)`` when the connection is closed, fails, or the server sends an
    ///   alert.
    public func read(maxLength: Int = 16 * 1024) throws(TLSError) -> [UInt8] {
        let deadline = ContinuousClock.now + timeouts.read
        return try session.withLock { (session) throws(TLSError) in
            try session.read(maxLength: maxLength, deadline: deadline)
        }
    }

    /// Writes all of `bytes`; each wait for the peer to take data is limited by the write timeout.
    ///
    /// - Parameter bytes: the bytes to send.
    /// - Throws: ``TLSError/timedOut(_:)`` (write) when the server takes no data within the write
    ///   timeout; ``TLSError/connectionBroken(_:)`` when the connection is closed, fails, or the server
    ///   sends an alert.
    public func write(_ bytes: some DataProtocol) throws(TLSError) {
        let bytes = [UInt8](bytes)
        try session.withLock { (session) throws(TLSError) in try session.write(bytes, timeout: timeouts.write) }
    }

    /// Reads until the server closes the connection (or `limit` bytes, which throws).
    ///
    /// - Parameter limit: the most bytes accepted (16 MiB by default).
    /// - Returns: every byte up to the server's close.
    /// - Throws: ``TLSError/connectionBroken(_:)`` when more than `limit` bytes arrive, or as
    ///   `read(maxLength:)` throws (``TLSError/timedOut(_:)`` when a read times out).
    public func readToEnd(limit: Int = 16 * 1024 * 1024) throws(TLSError) -> [UInt8] {
        var result: [UInt8] = []
        while true {
            let chunk = try read()
            if chunk.isEmpty { return result }
            result += chunk
            guard result.count <= limit else {
                throw .connectionBroken("more than \(limit) bytes before the end of the stream")
            }
        }
    }

    /// Sends close_notify (without waiting for the server's) and closes the socket. Idempotent.
    public func close() { session.withLock { $0.close() } }
}

/// What a completed handshake established.
struct EstablishedSession {
    var protocolVersion: TLSVersion
    var cipher: String
    var verifiedChain: [X509Certificate]
    var pinEvaluation: PinEvaluation
    var clientCertificateRequested: Bool
}
