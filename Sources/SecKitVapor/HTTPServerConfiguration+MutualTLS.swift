import NIOCore
import SecKitNIO
import SecTLS
import Vapor

extension HTTPServer.Configuration {
    /// Requires client certificates verified by SecTLS (mutual TLS): the server presents
    /// `context`'s identity (its key stays in OpenSSL and signs for BoringSSL), names the client
    /// CAs in its CertificateRequest, and verifies each client's chain with `context`'s
    /// `ClientCertificateVerifier` inside the handshake, through the same callback as
    /// `ServerTLSContext.addHandlers(to:)`. A refused client gets no request to a responder; a
    /// verified one is `Request.secKitClient` in the handlers.
    ///
    /// ```swift
    /// app.http.server.configuration.useMutualTLS(tls)
    /// app.get { req in req.secKitClient?.subject ?? "" }
    /// ```
    ///
    /// It follows the context's `reload(identity:clientVerifier:)` for new connections, as
    /// SecKitNIO's own servers do: the certificate and key at each client hello (swift-nio-ssl's
    /// `sslContextCallback`), the client CAs and allow-list at each verification. Established
    /// connections keep what they started with. The CA names of the CertificateRequest are the
    /// exception: Vapor makes them from this configuration, so after a reload that changes the
    /// client CAs call `useMutualTLS` again (Vapor applies a changed configuration to the
    /// connections it accepts from then on).
    ///
    /// Each client verification is logged and counted through the context's logger and metrics
    /// factory, a refusal at warning with its reason and the observed and expected pins, as
    /// SecKitNIO's servers do; Vapor's pipeline has no place for their handshake handler, so a
    /// handshake that ends before the client's certificate is verified is not reported, and
    /// handshakes are counted but not timed.
    ///
    /// What else it sets, and why:
    /// - `supportVersions` to HTTP/1.1 only: Vapor gives the verified chain to the requests of an
    ///   HTTP/1.1 connection, but not to those of an HTTP/2 stream, whose handlers would then see
    ///   no client.
    /// - `idleTimeout` to `context.limits.idleTimeout`. Vapor's pipeline has no place for the
    ///   other two limits: a handshake is bounded by the idle timeout rather than by
    ///   `handshakeTimeout`, and `maximumConnectionsPerPeer` is not enforced.
    /// - It replaces `tlsConfiguration` and both custom verification callbacks.
    ///
    /// - Parameter context: the server's identity and client verifier.
    public mutating func useMutualTLS(_ context: ServerTLSContext) {
        tlsConfiguration = context.reloadingNIOSSLConfiguration
        customCertificateVerifyCallback = nil
        // Vapor adds swift-nio-ssl's handler itself and takes one callback for all connections.
        customCertificateVerifyCallbackWithMetadata = context.reportingVerificationCallback()
        supportVersions = [.one]
        idleTimeout = context.limits.idleTimeout.map { TimeAmount($0) }
    }
}
