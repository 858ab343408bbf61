import Foundation
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
    public let configuration: TLSClientConfiguration
    /// The protocols offered in ALPN, most preferred first (empty: no ALPN extension).
    public let applicationProtocols: [String]
    let verifier: ServerCertificateVerifier
    let sslContext: NIOSSLContext
    let certificates = CertificateCache()

    /// Reads the trust store and the identity into memory.
    ///
    /// - Parameters:
    ///   - configuration: the trust roots, versions, pin policy, allow-list, client identity and
    ///     timeouts of every connection made with this context.
    ///   - applicationProtocols: the protocols to offer in ALPN, most preferred first (`["h2"]` for
    ///     HTTP/2); none by default.
    /// - Throws: `TLSError.invalidConfiguration` as `TLSClient(configuration:)` throws it (an
    ///   unreadable CA file, a maximum version below the minimum, pin-only trust without an enforced
    ///   pin set), or when swift-nio-ssl refuses the result.
    public init(configuration: TLSClientConfiguration, applicationProtocols: [String] = []) throws(TLSError) {
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
        self.configuration = configuration
        self.applicationProtocols = applicationProtocols
        self.verifier = try ServerCertificateVerifier(configuration: configuration)
        self.sslContext = try NIOSSLContext.make(tls)
    }

    /// Adds to `pipeline` the TLS handlers for a connection to `serverName` (the name sent in SNI
    /// — none for an IP address —, verified against the certificate and used to look up pins), and
    /// returns the future of its verification. Every handler added after these sees SecTLS's typed
    /// `TLSError` in `errorCaught`. Call on the channel's event loop (a channel initializer).
    ///
    /// - Parameters:
    ///   - pipeline: the new channel's pipeline, in its synchronous form.
    ///   - serverName: the host the channel connects to; the configuration's `serverName` wins when
    ///     it is set.
    /// - Returns: the future of the handshake's verification: the verified chain and its pin
    ///   evaluation, or the `TLSError` it failed with.
    /// - Throws: `TLSError` when pin-only trust has no enforced pin set for `serverName`, or the
    ///   pipeline's error when a handler cannot be added.
    public func addHandlers(
        to pipeline: ChannelPipeline.SynchronousOperations,
        serverName: String
    ) throws -> EventLoopFuture<VerifiedServerChain> {
        let serverName = HostPattern.normalize(configuration.serverName ?? serverName)
        if configuration.trustRoots == .pinsOnly {
            _ = try verifier.enforcedPinSet(forPinOnlyTrust: serverName, at: Date())
        }
        let record = HandshakeRecord<VerifiedServerChain>()
        let callback = VerificationCallback.make(record: record, cache: certificates) {
            [verifier] presented throws(TLSError) in
            let verified = try verifier.verify(presented, serverName: serverName)
            return (verified, verified.chain)
        }
        let tlsHandler = try NIOSSLClientHandler(
            context: sslContext,
            serverHostname: TCPSocket.isIPAddress(serverName) ? nil : serverName,
            customVerificationCallbackWithMetadata: callback
        )
        let reporter = ServerVerificationHandler(
            record: record,
            presentsIdentity: configuration.clientIdentity != nil,
            eventLoop: pipeline.eventLoop
        )
        try pipeline.addHandler(CertificateRequestDetector(record: record))
        try pipeline.addHandler(tlsHandler)
        try pipeline.addHandler(reporter)
        return reporter.verification
    }
}
