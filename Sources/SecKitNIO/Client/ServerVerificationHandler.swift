import NIOCore
import NIOSSL
import NIOTLS
import SecTLS

/// Sits after swift-nio-ssl's client handler: reports the connection's `VerifiedServerChain` once
/// the handshake completes, and turns TLS failures into SecTLS's typed `TLSError` for every handler
/// after it (pin mismatch with both pin lists, expired, unknown issuer, host name mismatch, client
/// certificate required or rejected), where swift-nio-ssl would pass on BoringSSL's generic errors.
public final class ServerVerificationHandler: ChannelInboundHandler, RemovableChannelHandler {
    public typealias InboundIn = ByteBuffer
    public typealias InboundOut = ByteBuffer

    private let record: HandshakeRecord<VerifiedServerChain>
    private let presentsIdentity: Bool
    private let promise: EventLoopPromise<VerifiedServerChain>
    private var handshakeCompleted = false

    /// The verified chain and pin evaluation, once the handshake has completed; fails with the
    /// typed reason when it does not.
    public var verification: EventLoopFuture<VerifiedServerChain> { promise.futureResult }

    init(record: HandshakeRecord<VerifiedServerChain>, presentsIdentity: Bool, eventLoop: EventLoop) {
        self.record = record
        self.presentsIdentity = presentsIdentity
        self.promise = eventLoop.makePromise()
    }

    /// On swift-nio-ssl's `TLSUserEvent.handshakeCompleted`, fulfils `verification` with the chain
    /// SecKit's verification recorded, or fails it with `TLSError.handshakeFailed` and closes the
    /// channel when none was recorded; passes every event on.
    ///
    /// - Parameters:
    ///   - context: the handler's context in the pipeline.
    ///   - event: the user event.
    public func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case TLSUserEvent.handshakeCompleted = event {
            handshakeCompleted = true
            if let verified = record.verified {
                promise.succeed(verified)
            } else {
                promise.fail(TLSError.handshakeFailed("the handshake completed without SecKit's verification"))
                context.close(promise: nil)
            }
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// Translates swift-nio-ssl's error into SecTLS's typed `TLSError` (the failure SecKit's
    /// verification recorded, such as `pinMismatch` or `certificateVerificationFailed`, else
    /// `clientCertificateRequired`, `clientCertificateRejected`, `handshakeFailed` or
    /// `connectionBroken`; any other error stays as it is), fails `verification` with it, and passes it
    /// on in place of the original.
    ///
    /// - Parameters:
    ///   - context: the handler's context in the pipeline.
    ///   - error: the error an earlier handler (swift-nio-ssl's) reported.
    public func errorCaught(context: ChannelHandlerContext, error: any Error) {
        let translated = TLSErrorTranslation.translate(
            error,
            recordedFailure: record.failure,
            presentedIdentity: presentsIdentity,
            certificateRequested: record.certificateRequested,
            duringHandshake: !handshakeCompleted
        )
        promise.fail(translated)
        context.fireErrorCaught(translated)
    }

    /// Fails `verification`, if it is still pending, with the recorded verification failure or
    /// `TLSError.handshakeFailed`.
    ///
    /// - Parameter context: the handler's context in the pipeline.
    public func handlerRemoved(context: ChannelHandlerContext) {
        promise.fail(record.failure ?? TLSError.handshakeFailed("the connection closed before the handshake completed"))
    }

    /// Fails `verification`, if it is still pending, with the recorded verification failure or
    /// `TLSError.handshakeFailed` (the server closed the connection), and passes the event on.
    ///
    /// - Parameter context: the handler's context in the pipeline.
    public func channelInactive(context: ChannelHandlerContext) {
        promise.fail(record.failure ?? TLSError.handshakeFailed("the server closed the connection"))
        context.fireChannelInactive()
    }
}
