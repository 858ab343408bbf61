import NIOCore
import NIOSSL
import SecTLS

/// swift-nio-ssl server TLS that requires client certificates verified by SecTLS (mutual TLS): the
/// client's chain is verified by OpenSSL against the client CAs with purpose client authentication,
/// and its key checked against the optional allow-list, inside the handshake. The server's key
/// stays in OpenSSL and signs for BoringSSL. Make one and share it across connections.
///
/// ```swift
/// let tls = try ServerTLSContext(
///     identity: try ClientIdentity(certificateFile: "server.pem", keyFile: "server.key"),
///     clientVerifier: try ClientCertificateVerifier(clientCA: .caFile("clients-ca.pem"))
/// )
/// // in a child channel initializer:
/// let peer = try tls.addHandlers(to: channel)
/// ```
///
/// Every connection is bounded by `limits`: the handshake must end within its timeout, an idle
/// connection is closed, and one peer address holds at most so many connections.
public final class ServerTLSContext: Sendable {
    public let clientVerifier: ClientCertificateVerifier
    public let limits: ServerConnectionLimits
    /// The protocols the server selects from in ALPN, most preferred first (empty: no ALPN).
    public let applicationProtocols: [String]
    let sslContext: NIOSSLContext
    let certificates = CertificateCache()
    private let peers = PeerConnectionCounter()

    /// Makes the context.
    ///
    /// - Parameters:
    ///   - identity: the server's certificate (with its chain) and key.
    ///   - clientVerifier: the client CAs and the optional allow-list of client key pins.
    ///   - minimumVersion: TLS 1.2 unless raised.
    ///   - maximumVersion: nil for the newest this build supports.
    ///   - limits: the handshake and idle timeouts and the per-peer connection cap.
    ///   - applicationProtocols: the protocols the server selects from in ALPN, most preferred
    ///     first (`["h2"]` for HTTP/2); none by default.
    /// - Throws: `invalidConfiguration` when swift-nio-ssl refuses the result.
    public init(
        identity: ClientIdentity,
        clientVerifier: ClientCertificateVerifier,
        minimumVersion: SecTLS.TLSVersion = .tls12,
        maximumVersion: SecTLS.TLSVersion? = nil,
        limits: ServerConnectionLimits = ServerConnectionLimits(),
        applicationProtocols: [String] = []
    ) throws(TLSError) {
        // apply(…) sets the chain, and the same OpenSSL-held key again (not the deprecated `.file`).
        var tls = NIOSSL.TLSConfiguration.makeServerConfiguration(
            certificateChain: [],
            privateKey: .privateKey(NIOSSLPrivateKey(customPrivateKey: OpenSSLPrivateKey(identity)))
        )
        try tls.apply(minimumVersion: minimumVersion, maximumVersion: maximumVersion, identity: identity)
        // A certificate is required; the callback verifies it. The client CAs are named in the
        // CertificateRequest, so that clients with several identities pick the right one.
        tls.certificateVerification = .noHostnameVerification
        tls.trustRoots = .certificates(try [NIOSSLCertificate].from(clientVerifier.clientCAs))
        tls.sendCANameList = true
        tls.applicationProtocols = applicationProtocols
        self.clientVerifier = clientVerifier
        self.limits = limits
        self.applicationProtocols = applicationProtocols
        self.sslContext = try NIOSSLContext.make(tls)
    }

    /// Adds the server TLS handler, and the handlers that enforce `limits`, to an accepted
    /// `channel`, and returns the connection's `MutualTLSPeer`, which holds the verified client
    /// once the handshake is done. Call on the channel's event loop (a child channel initializer).
    ///
    /// - Parameter channel: the accepted connection.
    /// - Returns: the connection's peer.
    /// - Throws: `TLSError.connectionFailed` (and closes `channel`) when its peer address already
    ///   holds `limits.maximumConnectionsPerPeer` connections; swift-nio-ssl's errors.
    public func addHandlers(to channel: any Channel) throws -> MutualTLSPeer {
        if let limit = limits.maximumConnectionsPerPeer, !peers.admit(channel, limit: limit) {
            channel.close(promise: nil)
            throw TLSError.connectionFailed("the peer already holds \(limit) connections")
        }
        let pipeline = channel.pipeline.syncOperations
        let record = HandshakeRecord<VerifiedClient>()
        let callback = VerificationCallback.make(record: record, cache: certificates) {
            [clientVerifier] presented throws(TLSError) in
            let client = try clientVerifier.verify(presented)
            return (client, client.chain)
        }
        try pipeline.addHandler(
            NIOSSLServerHandler(context: sslContext, customVerificationCallbackWithMetadata: callback)
        )
        try pipeline.addHandler(HandshakeTimeoutHandler(timeout: limits.handshakeTimeout))
        if let idle = limits.idleTimeout {
            try pipeline.addHandlers(IdleStateHandler(allTimeout: TimeAmount(idle)), IdleConnectionCloser())
        }
        return MutualTLSPeer(record: record)
    }
}

/// The client of one mutual TLS connection, as SecTLS verified it.
public struct MutualTLSPeer: Sendable {
    let record: HandshakeRecord<VerifiedClient>

    /// The verified client; nil before the handshake has verified it, or when it was refused.
    public var client: VerifiedClient? { record.verified }
    /// Why the client's certificate was refused (`certificateVerificationFailed`, `clientNotAllowed`).
    public var failure: TLSError? { record.failure }
}
