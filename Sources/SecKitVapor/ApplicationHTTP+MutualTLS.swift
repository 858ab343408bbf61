import NIOCore
import SecKitNIO
import SecTLS
import Vapor

// On `app.http` rather than `app.http.server`: following reloads needs the application, which
// `Application.HTTP.Server` keeps internal.
extension Application.HTTP {
    /// Requires client certificates verified by SecTLS (mutual TLS): the server presents
    /// `context`'s identity (its key stays in OpenSSL and signs for BoringSSL), names the client
    /// CAs in its CertificateRequest, and verifies each client's chain with `context`'s
    /// `ClientCertificateVerifier` inside the handshake, through the same callback as
    /// `ServerTLSContext.addHandlers(to:)`. A refused client gets no request to a responder; a
    /// verified one is `Request.secKitClient` in the handlers.
    ///
    /// ```swift
    /// app.http.useMutualTLS(tls)
    /// app.get { req in req.secKitClient?.subject ?? "" }
    /// ```
    ///
    /// It follows the context's `reload(identity:clientVerifier:)` for new connections, as
    /// SecKitNIO's own servers do: each successful reload sets the server configuration's
    /// `tlsConfiguration` to the new certificate, key and client CA names (Vapor reads its
    /// configuration for every connection it accepts), and each verification uses the client CAs
    /// and allow-list current then. Established connections keep what they started with; a
    /// reload that throws changes nothing. Call it before or after the server starts.
    ///
    /// Each client verification is logged and counted through the context's logger and metrics
    /// factory, a refusal at warning with its reason and the observed and expected pins, as
    /// SecKitNIO's servers do; Vapor's pipeline has no place for their handshake handler, so a
    /// handshake that ends before the client's certificate is verified is not reported, and
    /// handshakes are counted but not timed.
    ///
    /// What else it sets in `app.http.server.configuration`, and why:
    /// - `supportVersions` to HTTP/1.1 only: Vapor gives the verified chain to the requests of an
    ///   HTTP/1.1 connection, but not to those of an HTTP/2 stream, whose handlers would then see
    ///   no client.
    /// - `idleTimeout` to `context.limits.idleTimeout`. Vapor's pipeline has no place for the
    ///   other two limits: a handshake is bounded by the idle timeout rather than by
    ///   `handshakeTimeout`, and `maximumConnectionsPerPeer` is not enforced.
    /// - It replaces `tlsConfiguration` and both custom verification callbacks. Setting
    ///   `tlsConfiguration` again afterwards lasts until the context's next reload.
    ///
    /// - Parameter context: the server's identity and client verifier.
    public func useMutualTLS(_ context: ServerTLSContext) {
        var configuration = application.http.server.configuration
        configuration.customCertificateVerifyCallback = nil
        // Vapor adds swift-nio-ssl's handler itself and takes one callback for all connections.
        configuration.customCertificateVerifyCallbackWithMetadata = context.reportingVerificationCallback()
        configuration.supportVersions = [.one]
        configuration.idleTimeout = context.limits.idleTimeout.map { TimeAmount($0) }
        application.http.server.configuration = configuration
        // The application is not kept alive by its context: once it is gone, reloads skip it.
        context.follow { [weak application] tls in
            application?.http.server.configuration.tlsConfiguration = tls
        }
    }
}
