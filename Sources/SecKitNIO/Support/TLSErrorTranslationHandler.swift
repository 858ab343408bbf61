import NIOCore
import SecTLS

/// Turns TLS failures after the handshake (TLS 1.3 servers judge the client certificate then, with
/// alert 116 or a certificate alert) into SecTLS's typed errors, for stacks whose handshake SecKit
/// does not run: insert it right after swift-nio-ssl's handler.
package final class TLSErrorTranslationHandler: ChannelInboundHandler, RemovableChannelHandler {
    package typealias InboundIn = ByteBuffer
    package typealias InboundOut = ByteBuffer

    private let presentsIdentity: Bool

    package init(presentsIdentity: Bool) { self.presentsIdentity = presentsIdentity }

    package func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.fireErrorCaught(
            TLSErrorTranslation.translate(
                error,
                recordedFailure: nil,
                presentedIdentity: presentsIdentity,
                certificateRequested: false,
                duringHandshake: false
            )
        )
    }
}

extension TLSError {
    /// swift-nio-ssl's error `error` as a `TLSError` (a refused client certificate, an alert, a
    /// broken handshake); nil when it is no TLS error.
    ///
    /// - Parameters:
    ///   - error: an error of swift-nio-ssl, for example one AsyncHTTPClient passed through.
    ///   - clientIdentityConfigured: whether the connection presented a client certificate: tells a
    ///     refused certificate (`clientCertificateRejected`) from a missing one
    ///     (`clientCertificateRequired`).
    public init?(translating error: any Error, clientIdentityConfigured: Bool) {
        let translated = TLSErrorTranslation.translate(
            error,
            recordedFailure: nil,
            presentedIdentity: clientIdentityConfigured,
            certificateRequested: false,
            duringHandshake: true
        )
        guard let translated = translated as? TLSError else { return nil }
        self = translated
    }
}
