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
/// let peer = try tls.addHandlers(to: channel.pipeline.syncOperations)
/// ```
public final class ServerTLSContext: Sendable {
    public let clientVerifier: ClientCertificateVerifier
    let sslContext: NIOSSLContext
    let certificates = CertificateCache()

    /// `identity` is the server's certificate (with its chain) and key. Throws `invalidConfiguration`
    /// when swift-nio-ssl refuses the result.
    public init(
        identity: ClientIdentity,
        clientVerifier: ClientCertificateVerifier,
        minimumVersion: SecTLS.TLSVersion = .tls12,
        maximumVersion: SecTLS.TLSVersion? = nil
    ) throws(TLSError) {
        var tls = NIOSSL.TLSConfiguration.makeServerConfiguration(certificateChain: [], privateKey: .file(""))
        try tls.apply(minimumVersion: minimumVersion, maximumVersion: maximumVersion, identity: identity)
        // A certificate is required; the callback verifies it. The client CAs are named in the
        // CertificateRequest, so that clients with several identities pick the right one.
        tls.certificateVerification = .noHostnameVerification
        tls.trustRoots = .certificates(try [NIOSSLCertificate].from(clientVerifier.clientCAs))
        tls.sendCANameList = true
        self.clientVerifier = clientVerifier
        self.sslContext = try NIOSSLContext.make(tls)
    }

    /// Adds the server TLS handler to `pipeline` and returns the connection's `MutualTLSPeer`, which
    /// holds the verified client once the handshake is done. Call on the channel's event loop.
    public func addHandlers(to pipeline: ChannelPipeline.SynchronousOperations) throws -> MutualTLSPeer {
        let record = HandshakeRecord<VerifiedClient>()
        let callback = VerificationCallback.make(record: record, cache: certificates) {
            [clientVerifier] presented throws(TLSError) in
            let client = try clientVerifier.verify(presented)
            return (client, client.chain)
        }
        try pipeline.addHandler(
            NIOSSLServerHandler(context: sslContext, customVerificationCallbackWithMetadata: callback)
        )
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
