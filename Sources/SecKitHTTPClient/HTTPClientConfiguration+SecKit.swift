import AsyncHTTPClient
import Foundation
import Logging
import Metrics
import NIOConcurrencyHelpers
import NIOCore
import NIOSSL
import SecKitNIO
import SecTLS

extension HTTPClient.Configuration {
    /// An AsyncHTTPClient configuration that applies a SecTLS configuration on every new
    /// connection, HTTP/1.1 and HTTP/2, before any request byte is sent:
    ///
    /// - **Trust and host name**: swift-nio-ssl (BoringSSL) verifies the chain against the same trust
    ///   roots (`.system`, a CA file or certificates, parsed by OpenSSL here) and the host name.
    ///   AsyncHTTPClient 1.37 lets no verification callback in, so this one check is BoringSSL's.
    /// - **Versions**: TLS 1.2 at least (or the configuration's range).
    /// - **Client identity**: the certificate chain and an OpenSSL-held key that signs for BoringSSL.
    /// - **No CN as a host name**: a server certificate without a DNS or IP subjectAltName is
    ///   refused (`certificateVerificationFailed`, host name mismatch) where swift-nio-ssl would
    ///   have matched the host against the subject's CN, as `TLSClient` and SecKitNIO refuse it.
    /// - **Pins**, checked by SecTLS once the handshake is done: AsyncHTTPClient shows only the
    ///   server's certificate, and not the host, so pins are matched against the certificate alone
    ///   (curl's `--pinnedpubkey`): the pin set of every host the certificate is valid for must
    ///   match (report-only sets report), and a certificate no pin set covers is refused unless
    ///   the policy allows unpinned hosts. The connected host is always among those names, the
    ///   host name having been matched against them. A pin policy's `reportURI` gets a report of
    ///   each mismatch, for the pin set's host name, with the server's certificate as both chains. Pins of a trusted CA's key are refused here
    ///   with `invalidConfiguration` rather than never matching; pin-only trust needs exactly one
    ///   enforced pin set.
    ///
    /// Cleartext `http://` requests pass (there is no TLS to configure) unless pins are configured:
    /// then they are refused with `invalidConfiguration`, never sent around the pins.
    ///
    /// A refused connection fails the request with the `TLSError` (`pinMismatch` lists the pins),
    /// and is closed. Failed connections are not retried (`retryConnectionEstablishment` is off): a
    /// certificate that failed does not pass on a second try, and the request fails at once.
    /// `onPinEvaluation` sees every evaluation (for example to log report-only mismatches).
    ///
    /// Every pin-checked connection is counted (`seckit_tls_handshakes_total`, `side=client`,
    /// `outcome=verified` or `refused`), and a pin refusal is counted by reason and logged at
    /// warning with the observed and expected pins, as `ClientTLSContext` does; BoringSSL's own
    /// refusals (trust, host name) reach the request as its error.
    ///
    /// - Parameters:
    ///   - configuration: SecTLS's configuration: trust roots, versions, pin policy and client
    ///     identity. Its `serverName` must be nil (AsyncHTTPClient takes the name from the URL).
    ///   - onPinEvaluation: called with every pin evaluation, on the connection's event loop.
    ///   - logger: where pin refusals (warning) and pin-checked connections (debug) are logged; by
    ///     default nowhere, as AsyncHTTPClient's default logger.
    ///   - metricsFactory: where connections are counted: the factory the application bootstrapped
    ///     unless another is given.
    /// - Throws: `TLSError.invalidConfiguration`: a `serverName`, a maximum version below the
    ///   minimum, an unreadable CA file, a pin of a trusted CA's key, or pin-only trust without
    ///   exactly one enforced pin set.
    public init(
        secKit configuration: TLSClientConfiguration,
        onPinEvaluation: (@Sendable (PinEvaluation) -> Void)? = nil,
        logger: Logger = .secKitDisabled,
        metricsFactory: any MetricsFactory = MetricsSystem.factory
    ) throws(TLSError) {
        let pinCheck = try LeafPinCheck(
            trustRoots: configuration.trustRoots,
            pinPolicy: configuration.pinPolicy ?? PinPolicy([])
        )
        try self.init(
            secKit: configuration,
            pinCheck: { pinCheck },
            onPinEvaluation: onPinEvaluation,
            logger: logger,
            metricsFactory: metricsFactory
        )
    }

    /// `init(secKit:onPinEvaluation:logger:metricsFactory:)` with `context`'s configuration, whose
    /// pin policy rotates: each new connection is checked against the policy the context holds
    /// then, so that `context.reload(configuration:)` with new pins applies from the next
    /// connection, without a new `HTTPClient`; connections already pooled keep going.
    ///
    /// ```swift
    /// let tls = try ClientTLSContext(configuration: configuration)
    /// let client = HTTPClient(configuration: try HTTPClient.Configuration(secKit: tls))
    /// var rotated = tls.configuration
    /// rotated.pinPolicy = try PinPolicy(host: "api.example.com", pins: [nextPin, backupPin])
    /// try tls.reload(configuration: rotated)   // the client's next connection checks these
    /// ```
    ///
    /// The rest does not rotate: AsyncHTTPClient builds its swift-nio-ssl context from the
    /// configuration when the client is made, and lets no code in before the handshake, so the
    /// trust roots, versions and client identity stay those of `context` at this call. After a
    /// reload that changes one of them (or sets a `serverName`), new connections are refused with
    /// `invalidConfiguration` rather than made with the old trust or identity: make a new
    /// `HTTPClient` for those.
    ///
    /// - Parameters:
    ///   - context: the configuration, and the pin policy of every new connection.
    ///   - onPinEvaluation: called with every pin evaluation, on the connection's event loop.
    ///   - logger: where pin refusals (warning) and pin-checked connections (debug) are logged.
    ///   - metricsFactory: where connections are counted.
    /// - Throws: what `init(secKit:onPinEvaluation:logger:metricsFactory:)` throws for the
    ///   context's current configuration.
    public init(
        secKit context: ClientTLSContext,
        onPinEvaluation: (@Sendable (PinEvaluation) -> Void)? = nil,
        logger: Logger = .secKitDisabled,
        metricsFactory: any MetricsFactory = MetricsSystem.factory
    ) throws(TLSError) {
        let pins = try ReloadedPinCheck(context)
        try self.init(
            secKit: pins.configuration,
            pinCheck: pins.current,
            onPinEvaluation: onPinEvaluation,
            logger: logger,
            metricsFactory: metricsFactory
        )
    }

    private init(
        secKit configuration: TLSClientConfiguration,
        pinCheck: @escaping @Sendable () throws(TLSError) -> LeafPinCheck,
        onPinEvaluation: (@Sendable (PinEvaluation) -> Void)?,
        logger: Logger,
        metricsFactory: any MetricsFactory
    ) throws(TLSError) {
        self.init()
        try configuration.checkVersionRange()
        if configuration.serverName != nil {
            throw .invalidConfiguration("AsyncHTTPClient takes the server name from the URL; leave serverName nil")
        }
        var tls = NIOSSL.TLSConfiguration.makeClientConfiguration()
        try tls.apply(
            minimumVersion: configuration.minimumVersion,
            maximumVersion: configuration.maximumVersion,
            identity: configuration.clientIdentity
        )
        switch configuration.trustRoots {
        case .system:
            tls.trustRoots = .default
        case .caFile(let path):
            tls.trustRoots = .certificates(try [NIOSSLCertificate].from(try Self.certificates(inFile: path)))
        case .certificates(let certificates):
            tls.trustRoots = .certificates(try [NIOSSLCertificate].from(certificates))
        case .pinsOnly:
            tls.certificateVerification = .none
        }
        self.tlsConfiguration = tls
        self.connectionPool.retryConnectionEstablishment = false
        let presentsIdentity = configuration.clientIdentity != nil
        let certificates = CertificateCache()
        let observer = HandshakeObserver(side: .client, logger: logger, metricsFactory: metricsFactory)
        let initializer: @Sendable (Channel) -> EventLoopFuture<Void> = { channel in
            channel.eventLoop.makeCompletedFuture {
                let current: LeafPinCheck
                do {
                    current = try pinCheck()
                } catch {
                    channel.close(promise: nil)
                    throw error
                }
                try Self.checkPins(on: channel, current, certificates, presentsIdentity, observer, onPinEvaluation)
            }
        }
        self.http1_1ConnectionDebugInitializer = initializer
        self.http2ConnectionDebugInitializer = initializer
    }

    private static func certificates(inFile path: String) throws(TLSError) -> [X509Certificate] {
        guard let pem = FileManager.default.contents(atPath: path) else {
            throw .invalidConfiguration("cannot read the CA file \(path)")
        }
        return try X509Certificate.load(pem: pem)
    }

    /// Runs on the connection's event loop after its handshake, before AsyncHTTPClient uses it.
    private static func checkPins(
        on channel: Channel,
        _ pinCheck: LeafPinCheck,
        _ certificates: CertificateCache,
        _ presentsIdentity: Bool,
        _ observer: HandshakeObserver,
        _ onPinEvaluation: (@Sendable (PinEvaluation) -> Void)?
    ) throws {
        let pipeline = channel.pipeline.syncOperations
        guard let tlsHandler = try? pipeline.handler(type: NIOSSLClientHandler.self) else {
            // A cleartext http:// connection: nothing to verify, unless pins are configured, which
            // such a connection would silently bypass.
            guard pinCheck.pinPolicy.pinSets.isEmpty else {
                channel.close(promise: nil)
                throw TLSError.invalidConfiguration("pins are configured: a cleartext http:// connection is refused")
            }
            return
        }
        try pipeline.addHandler(
            TLSErrorTranslationHandler(presentsIdentity: presentsIdentity),
            position: .after(tlsHandler)
        )
        do {
            guard let leaf = tlsHandler.peerCertificate else {
                throw TLSError.handshakeFailed("the server sent no certificate")
            }
            let evaluations = try pinCheck.check(
                try certificates.certificate(leaf),
                port: channel.remoteAddress?.port
            )
            for evaluation in evaluations { onPinEvaluation?(evaluation) }
            observer.succeeded(
                since: nil,
                peer: channel.remoteAddress,
                metadata: ["tls.pin.outcome": .array(evaluations.map { "\($0.outcome)" })]
            )
        } catch {
            if case .pinMismatch(let evaluation) = error as? TLSError { onPinEvaluation?(evaluation) }
            observer.ended(since: nil, peer: channel.remoteAddress, error: error, refusal: error as? TLSError)
            channel.close(promise: nil)
            throw error
        }
    }
}

/// The pin check of a `ClientTLSContext`'s current pin policy, for the AsyncHTTPClient connections
/// of one client: made again when a reload changed the policy (the trust roots are read again
/// then, to refuse pins of a trusted CA), and refused when a reload changed what the client fixed.
final class ReloadedPinCheck: Sendable {
    /// The context's configuration when the client was made: AsyncHTTPClient keeps its TLS part.
    let configuration: TLSClientConfiguration
    private let context: ClientTLSContext
    private let cached: NIOLockedValueBox<LeafPinCheck>

    init(_ context: ClientTLSContext) throws(TLSError) {
        self.context = context
        configuration = context.configuration
        cached = NIOLockedValueBox(
            try LeafPinCheck(trustRoots: configuration.trustRoots, pinPolicy: configuration.pinPolicy ?? PinPolicy([]))
        )
    }

    /// The check for a new connection.
    @Sendable func current() throws(TLSError) -> LeafPinCheck {
        let now = context.configuration
        guard now.trustRoots == configuration.trustRoots, now.minimumVersion == configuration.minimumVersion,
            now.maximumVersion == configuration.maximumVersion, now.serverName == configuration.serverName,
            now.clientIdentity?.certificate == configuration.clientIdentity?.certificate
        else {
            throw .invalidConfiguration(
                "the context's trust roots, versions, server name or client identity changed after this HTTPClient was made, and AsyncHTTPClient keeps them: make a new HTTPClient"
            )
        }
        let policy = now.pinPolicy ?? PinPolicy([])
        let check = cached.withLockedValue { $0 }
        if check.pinPolicy == policy { return check }
        let fresh = try LeafPinCheck(trustRoots: now.trustRoots, pinPolicy: policy)
        cached.withLockedValue { $0 = fresh }
        return fresh
    }
}
