import Logging
import Metrics
import NIOConcurrencyHelpers
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
    public let limits: ServerConnectionLimits
    /// The protocols the server selects from in ALPN, most preferred first (empty: no ALPN); a
    /// reload keeps them.
    public let applicationProtocols: [String]
    let certificates = CertificateCache()
    private let peers = PeerConnectionCounter()
    private let observer: HandshakeObserver
    private let minimumVersion: SecTLS.TLSVersion
    private let maximumVersion: SecTLS.TLSVersion?
    /// What new connections use; `reload` replaces it whole.
    private let current: NIOLockedValueBox<Settings>

    /// Servers that make their swift-nio-ssl contexts from a configuration they were given (Vapor),
    /// told each new generation of settings; `reload` calls them in order, under `current`'s lock.
    private let followers = NIOLockedValueBox<[@Sendable (NIOSSL.TLSConfiguration) -> Void]>([])

    /// The identity, client verifier and swift-nio-ssl context of one generation of settings.
    struct Settings: Sendable {
        let identity: ClientIdentity
        let clientVerifier: ClientCertificateVerifier
        /// The swift-nio-ssl configuration `sslContext` was made from.
        let nioSSLConfiguration: NIOSSL.TLSConfiguration
        let sslContext: NIOSSLContext
    }

    /// The client CAs and allow-list new connections are verified with.
    public var clientVerifier: ClientCertificateVerifier { current.withLockedValue { $0.clientVerifier } }
    /// The certificate and key new connections are served with.
    public var identity: ClientIdentity { current.withLockedValue { $0.identity } }

    /// Calls `apply` now with the swift-nio-ssl server configuration of the current settings (the
    /// identity with its OpenSSL-held key, the client CAs named in the CertificateRequest), then
    /// with that of every later successful `reload`, in order: for servers that make their
    /// contexts from a configuration they keep (Vapor, which makes one per accepted connection),
    /// so that new connections follow the reload without a callback in each handshake. A reload
    /// that throws calls nothing.
    ///
    /// - Parameter apply: gives the server the configuration; it must not call the context back.
    package func follow(_ apply: @escaping @Sendable (NIOSSL.TLSConfiguration) -> Void) {
        current.withLockedValue { settings in
            apply(settings.nioSSLConfiguration)
            followers.withLockedValue { $0.append(apply) }
        }
    }

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
    ///   - logger: where refused clients (warning), other failed handshakes (notice), verified
    ///     clients (debug) and reloads (notice) are logged; by default nowhere, as AsyncHTTPClient's
    ///     default logger.
    ///   - metricsFactory: where handshakes are counted and timed, and refusals counted by reason:
    ///     the factory the application bootstrapped unless another is given.
    /// - Throws: `invalidConfiguration` when swift-nio-ssl refuses the result.
    public init(
        identity: ClientIdentity,
        clientVerifier: ClientCertificateVerifier,
        minimumVersion: SecTLS.TLSVersion = .tls12,
        maximumVersion: SecTLS.TLSVersion? = nil,
        limits: ServerConnectionLimits = ServerConnectionLimits(),
        applicationProtocols: [String] = [],
        logger: Logger = .secKitDisabled,
        metricsFactory: any MetricsFactory = MetricsSystem.factory
    ) throws(TLSError) {
        self.minimumVersion = minimumVersion
        self.maximumVersion = maximumVersion
        self.limits = limits
        self.applicationProtocols = applicationProtocols
        self.observer = HandshakeObserver(side: .server, logger: logger, metricsFactory: metricsFactory)
        self.current = NIOLockedValueBox(
            try Self.settings(
                identity,
                clientVerifier,
                minimumVersion: minimumVersion,
                maximumVersion: maximumVersion,
                applicationProtocols: applicationProtocols
            )
        )
    }

    /// Replaces the identity, the client CAs and the allow-list at run time: connections accepted
    /// from now on use the new ones, and established connections go on with those they started
    /// with. Nothing changes when it throws.
    ///
    /// ```swift
    /// try tls.reload(
    ///     identity: try ClientIdentity(certificateFile: "server.pem", keyFile: "server.key"),
    ///     clientVerifier: try ClientCertificateVerifier(clientCA: .caFile("clients-ca.pem"))
    /// )
    /// ```
    ///
    /// - Parameters:
    ///   - identity: the new certificate (with its chain) and key; pass `identity` to keep the current one.
    ///   - clientVerifier: the new client CAs and allow-list; pass `clientVerifier` to keep the current one.
    /// - Throws: `invalidConfiguration` when swift-nio-ssl refuses the result (the old settings stay).
    public func reload(identity: ClientIdentity, clientVerifier: ClientCertificateVerifier) throws(TLSError) {
        let settings = try Self.settings(
            identity,
            clientVerifier,
            minimumVersion: minimumVersion,
            maximumVersion: maximumVersion,
            applicationProtocols: applicationProtocols
        )
        current.withLockedValue { current in
            current = settings
            for apply in followers.withLockedValue({ $0 }) { apply(settings.nioSSLConfiguration) }
        }
        observer.logger.notice(
            "TLS server settings reloaded",
            metadata: [
                "tls.identity.pin": "\(identity.certificate.publicKeyPin)",
                "tls.identity.not_after": "\(identity.certificate.notAfter)",
                "tls.client_cas": "\(clientVerifier.clientCAs.count)",
                "tls.client_pins": "\(clientVerifier.allowedPins.map { "\($0.count)" } ?? "any")",
            ]
        )
    }

    private static func settings(
        _ identity: ClientIdentity,
        _ clientVerifier: ClientCertificateVerifier,
        minimumVersion: SecTLS.TLSVersion,
        maximumVersion: SecTLS.TLSVersion?,
        applicationProtocols: [String]
    ) throws(TLSError) -> Settings {
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
        return Settings(
            identity: identity,
            clientVerifier: clientVerifier,
            nioSSLConfiguration: tls,
            sslContext: try NIOSSLContext.make(tls)
        )
    }

    /// Adds the server TLS handler, and the handlers that enforce `limits`, to an accepted
    /// `channel`, and returns the connection's `MutualTLSPeer`, which holds the verified client
    /// once the handshake is done. The connection uses the settings current now (see `reload`).
    /// Call on the channel's event loop (a child channel initializer).
    ///
    /// - Parameter channel: the accepted connection.
    /// - Returns: the connection's peer.
    /// - Throws: `TLSError.connectionFailed` (and closes `channel`) when its peer address already
    ///   holds `limits.maximumConnectionsPerPeer` connections; swift-nio-ssl's errors.
    public func addHandlers(to channel: any Channel) throws -> MutualTLSPeer {
        if let limit = limits.maximumConnectionsPerPeer, !peers.admit(channel, limit: limit) {
            channel.close(promise: nil)
            observer.logger.notice(
                "TLS client refused: too many connections",
                metadata: [
                    "tls.side": "server", "tls.peer": "\(channel.remoteAddress.logDescription)",
                    "tls.limit": "\(limit)",
                ]
            )
            throw TLSError.connectionFailed("the peer already holds \(limit) connections")
        }
        let settings = current.withLockedValue { $0 }
        let pipeline = channel.pipeline.syncOperations
        let record = HandshakeRecord<VerifiedClient>()
        let clientVerifier = settings.clientVerifier
        try pipeline.addHandler(
            NIOSSLServerHandler(
                context: settings.sslContext,
                customVerificationCallbackWithMetadata: verificationCallback(
                    record: record,
                    clientVerifier: clientVerifier
                )
            )
        )
        try pipeline.addHandler(
            ServerHandshakeHandler(
                timeout: limits.handshakeTimeout,
                record: record,
                observer: observer,
                allowedPins: clientVerifier.allowedPins
            )
        )
        if let idle = limits.idleTimeout {
            try pipeline.addHandlers(IdleStateHandler(allTimeout: TimeAmount(idle)), IdleConnectionCloser())
        }
        return MutualTLSPeer(record: record)
    }

    /// swift-nio-ssl's verification callback for servers that add swift-nio-ssl's handler
    /// themselves (Vapor), whose pipeline has no place for the handshake handler of `addHandlers`:
    /// each call verifies one client with the current `clientVerifier` and reports the outcome to
    /// the context's logger and metrics as that handler does, a refusal at warning with the
    /// observed and expected pins, a verified client at debug. What it cannot see, it does not
    /// report: the peer's address (logged as `?`), the handshake's duration (the `verified` and
    /// `refused` outcomes are counted, not timed), and handshakes that end before the client's
    /// certificate is verified (none sent, an alert, a closed connection).
    ///
    /// - Returns: the callback for `NIOSSLServerHandler(context:customVerificationCallbackWithMetadata:)`.
    package func reportingVerificationCallback()
        -> @Sendable ([NIOSSLCertificate], EventLoopPromise<NIOSSLVerificationResultWithMetadata>) -> Void
    {
        { [self] certificates, promise in
            let record = HandshakeRecord<VerifiedClient>()
            let clientVerifier = self.clientVerifier
            // The callback settles `promise` before it returns: the record holds the outcome.
            verificationCallback(record: record, clientVerifier: clientVerifier)(certificates, promise)
            if let client = record.verified {
                observer.succeeded(since: nil, peer: nil, metadata: client.logMetadata)
            } else if let failure = record.failure {
                observer.ended(
                    since: nil,
                    peer: nil,
                    error: failure,
                    refusal: failure,
                    expectedPins: clientVerifier.allowedPins
                )
            }
        }
    }

    /// swift-nio-ssl's verification callback for one handshake: the client's chain verified by
    /// `clientVerifier`, the outcome to `record`, the verified chain (client certificate to client
    /// CA) handed to swift-nio-ssl as the peer's validated chain. `addHandlers` and the servers
    /// that add swift-nio-ssl's handler themselves (Vapor) verify clients through this one path.
    ///
    /// - Parameters:
    ///   - record: where the verified client or the typed reason goes.
    ///   - clientVerifier: the client CAs and allow-list of the connection's settings.
    /// - Returns: the callback for `NIOSSLServerHandler(context:customVerificationCallbackWithMetadata:)`.
    private func verificationCallback(
        record: HandshakeRecord<VerifiedClient>,
        clientVerifier: ClientCertificateVerifier
    ) -> NIOSSLCustomVerificationCallbackWithMetadata {
        VerificationCallback.make(record: record, cache: certificates) { presented throws(TLSError) in
            let client = try clientVerifier.verify(presented)
            return (client, client.chain)
        }
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
