import Foundation
import Logging
import Metrics
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL
import SecTLS

/// swift-nio-ssl client TLS with SecTLS's verification: the server's chain is verified by OpenSSL
/// exactly as `TLSClient` verifies it (trust roots, host name including IP SANs, purpose server
/// authentication, then the pin policy: enforce or report-only, expiry, the backup-pin rule), inside
/// the swift-nio-ssl handshake, before any application byte is sent. The client identity's key stays
/// in OpenSSL and signs for BoringSSL. Make one per configuration and share it: it holds the trust
/// store and swift-nio-ssl's context.
///
/// ```swift
/// let tls = try ClientTLSContext(configuration: configuration)
/// let connection = try await tls.connect(host: "api.example.com", port: 443)
/// print(connection.verified.pinEvaluation)
/// ```
public final class ClientTLSContext: Sendable {
    /// The protocols offered in ALPN, most preferred first (empty: no ALPN extension); a reload keeps them.
    public let applicationProtocols: [String]
    let certificates = CertificateCache()
    private let observer: HandshakeObserver
    /// What new connections use; `reload` replaces it whole.
    private let current: NIOLockedValueBox<Settings>

    /// The configuration, verifier and swift-nio-ssl context of one generation of settings.
    struct Settings: Sendable {
        let configuration: TLSClientConfiguration
        let verifier: ServerCertificateVerifier
        let sslContext: NIOSSLContext
    }

    /// The configuration new connections are made with.
    public var configuration: TLSClientConfiguration { current.withLockedValue { $0.configuration } }

    /// Reads the trust store and the identity into memory.
    ///
    /// - Parameters:
    ///   - configuration: the trust roots, versions, pin policy, allow-list, client identity and
    ///     timeouts of every connection made with this context.
    ///   - applicationProtocols: the protocols to offer in ALPN, most preferred first (`["h2"]` for
    ///     HTTP/2); none by default.
    ///   - logger: where refused servers (warning, with the observed and expected pins), other
    ///     failed handshakes (notice), verified handshakes (debug) and reloads (notice) are
    ///     logged; by default nowhere, as AsyncHTTPClient's default logger.
    ///   - metricsFactory: where handshakes are counted and timed, and refusals counted by reason:
    ///     the factory the application bootstrapped unless another is given.
    /// - Throws: `TLSError.invalidConfiguration` as `TLSClient(configuration:)` throws it (an
    ///   unreadable CA file, a maximum version below the minimum, pin-only trust without an enforced
    ///   pin set), or when swift-nio-ssl refuses the result.
    public init(
        configuration: TLSClientConfiguration,
        applicationProtocols: [String] = [],
        logger: Logger = .secKitDisabled,
        metricsFactory: any MetricsFactory = MetricsSystem.factory
    ) throws(TLSError) {
        self.applicationProtocols = applicationProtocols
        self.observer = HandshakeObserver(side: .client, logger: logger, metricsFactory: metricsFactory)
        self.current = NIOLockedValueBox(try Self.settings(configuration, applicationProtocols: applicationProtocols))
    }

    /// Replaces the configuration at run time (a new pin policy, client identity or trust store):
    /// connections made from now on use it, and established connections go on with the one they
    /// started with. Nothing changes when it throws.
    ///
    /// ```swift
    /// var rotated = tls.configuration
    /// rotated.pinPolicy = try PinPolicy(host: "api.example.com", pins: newPins)
    /// try tls.reload(configuration: rotated)
    /// ```
    ///
    /// - Parameter configuration: the new configuration.
    /// - Throws: what `init(configuration:applicationProtocols:logger:metricsFactory:)` throws (the
    ///   old configuration stays).
    public func reload(configuration: TLSClientConfiguration) throws(TLSError) {
        let settings = try Self.settings(configuration, applicationProtocols: applicationProtocols)
        current.withLockedValue { $0 = settings }
        observer.logger.notice(
            "TLS client settings reloaded",
            metadata: [
                "tls.identity.pin":
                    "\(configuration.clientIdentity.map { "\($0.certificate.publicKeyPin)" } ?? "none")",
                "tls.pin_sets": "\(configuration.pinPolicy?.pinSets.count ?? 0)",
            ]
        )
    }

    private static func settings(
        _ configuration: TLSClientConfiguration,
        applicationProtocols: [String]
    ) throws(TLSError) -> Settings {
        try configuration.checkVersionRange()
        var tls = NIOSSL.TLSConfiguration.makeClientConfiguration()
        // The callback replaces BoringSSL's verification; BoringSSL itself trusts nothing.
        tls.trustRoots = .certificates([])
        tls.certificateVerification = .noHostnameVerification
        try tls.apply(
            minimumVersion: configuration.minimumVersion,
            maximumVersion: configuration.maximumVersion,
            identity: configuration.clientIdentity
        )
        tls.applicationProtocols = applicationProtocols
        return Settings(
            configuration: configuration,
            verifier: try ServerCertificateVerifier(configuration: configuration),
            sslContext: try NIOSSLContext.make(tls)
        )
    }

    /// Adds to `pipeline` the TLS handlers for a connection to `serverName` (the name sent in SNI
    /// — none for an IP address —, verified against the certificate and used to look up pins), and
    /// returns the future of its verification. Every handler added after these sees SecTLS's typed
    /// `TLSError` in `errorCaught`. The connection uses the configuration current now (see
    /// `reload`). Call on the channel's event loop (a channel initializer).
    ///
    /// - Parameters:
    ///   - pipeline: the new channel's pipeline, in its synchronous form.
    ///   - serverName: the host the channel connects to; the configuration's `serverName` wins when
    ///     it is set.
    ///   - port: the port the channel connects to, for the pin policy's failure reports; nil (the
    ///     default) sends none.
    /// - Returns: the future of the handshake's verification: the verified chain and its pin
    ///   evaluation, or the `TLSError` it failed with.
    /// - Throws: `TLSError` when pin-only trust has no enforced pin set for `serverName`, or the
    ///   pipeline's error when a handler cannot be added.
    public func addHandlers(
        to pipeline: ChannelPipeline.SynchronousOperations,
        serverName: String,
        port: Int? = nil
    ) throws -> EventLoopFuture<VerifiedServerChain> {
        let settings = current.withLockedValue { $0 }
        let configuration = settings.configuration
        let verifier = settings.verifier
        let serverName = HostPattern.normalize(configuration.serverName ?? serverName)
        if configuration.trustRoots == .pinsOnly {
            _ = try verifier.enforcedPinSet(forPinOnlyTrust: serverName, at: Date())
        }
        let record = HandshakeRecord<VerifiedServerChain>()
        let callback = VerificationCallback.make(record: record, cache: certificates) {
            presented throws(TLSError) in
            let verified = try verifier.verify(presented, serverName: serverName, port: port)
            return (verified, verified.chain)
        }
        let tlsHandler = try NIOSSLClientHandler(
            context: settings.sslContext,
            serverHostname: TCPSocket.isIPAddress(serverName) ? nil : serverName,
            customVerificationCallbackWithMetadata: callback
        )
        let reporter = ServerVerificationHandler(
            record: record,
            presentsIdentity: configuration.clientIdentity != nil,
            serverName: serverName,
            observer: observer,
            eventLoop: pipeline.eventLoop
        )
        try pipeline.addHandler(CertificateRequestDetector(record: record))
        try pipeline.addHandler(tlsHandler)
        try pipeline.addHandler(reporter)
        return reporter.verification
    }
}
