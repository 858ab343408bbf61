import NIOCore
import NIOSSL
import NIOTLS
import SecTLS

/// Sits after swift-nio-ssl's client handler: reports the connection's `VerifiedServerChain` once
/// the handshake completes, and turns TLS failures into SecTLS's typed `TLSError` for every handler
/// after it (pin mismatch with both pin lists, expired, unknown issuer, host name mismatch, client
/// certificate required or rejected), where swift-nio-ssl would pass on BoringSSL's generic errors.
/// It also reports how the handshake ended to the context's logger and metrics.
public final class ServerVerificationHandler: ChannelInboundHandler, RemovableChannelHandler {
    public typealias InboundIn = ByteBuffer
    public typealias InboundOut = ByteBuffer

    private let record: HandshakeRecord<VerifiedServerChain>
    private let presentsIdentity: Bool
    private let promise: EventLoopPromise<VerifiedServerChain>
    private let serverName: String
    private let observer: HandshakeObserver
    private var handshakeCompleted = false
    private var reported = false
    private var started: NIODeadline?
    private var peer: SocketAddress?

    /// The verified chain and pin evaluation, once the handshake has completed; fails with the
    /// typed reason when it does not.
    public var verification: EventLoopFuture<VerifiedServerChain> { promise.futureResult }

    init(
        record: HandshakeRecord<VerifiedServerChain>,
        presentsIdentity: Bool,
        serverName: String,
        observer: HandshakeObserver,
        eventLoop: EventLoop
    ) {
        self.record = record
        self.presentsIdentity = presentsIdentity
        self.serverName = serverName
        self.observer = observer
        self.promise = eventLoop.makePromise()
    }

    /// Starts the handshake's clock (the connection is being opened).
    ///
    /// - Parameter context: the handler's context in the pipeline.
    public func handlerAdded(context: ChannelHandlerContext) {
        started = observer.started()
        peer = context.channel.remoteAddress
    }

    /// Notes the server's address for the log, and passes the event on.
    ///
    /// - Parameter context: the handler's context in the pipeline.
    public func channelActive(context: ChannelHandlerContext) {
        peer = context.channel.remoteAddress
        context.fireChannelActive()
    }

    /// Reports the handshake's end, once, to the observer.
    private func report(_ outcome: Result<VerifiedServerChain, any Error>) {
        guard !reported else { return }
        reported = true
        switch outcome {
        case .success(let verified):
            observer.succeeded(
                since: started,
                peer: peer,
                metadata: [
                    "tls.host": "\(serverName)",
                    "tls.pin.outcome": "\(verified.pinEvaluation.outcome)",
                ]
            )
        case .failure(let error):
            observer.ended(since: started, peer: peer, host: serverName, error: error, refusal: record.failure)
        }
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
                report(.success(verified))
                promise.succeed(verified)
            } else {
                let failure = TLSError.handshakeFailed("the handshake completed without SecKit's verification")
                report(.failure(failure))
                promise.fail(failure)
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
        if !handshakeCompleted { report(.failure(translated)) }
        promise.fail(translated)
        context.fireErrorCaught(translated)
    }

    /// Fails `verification`, if it is still pending, with the recorded verification failure or
    /// `TLSError.handshakeFailed`.
    ///
    /// - Parameter context: the handler's context in the pipeline.
    public func handlerRemoved(context: ChannelHandlerContext) {
        let failure = record.failure ?? TLSError.handshakeFailed("the connection closed before the handshake completed")
        if !handshakeCompleted { report(.failure(failure)) }
        promise.fail(failure)
    }

    /// Fails `verification`, if it is still pending, with the recorded verification failure or
    /// `TLSError.handshakeFailed` (the server closed the connection), and passes the event on.
    ///
    /// - Parameter context: the handler's context in the pipeline.
    public func channelInactive(context: ChannelHandlerContext) {
        let failure = record.failure ?? TLSError.handshakeFailed("the server closed the connection")
        if !handshakeCompleted { report(.failure(failure)) }
        promise.fail(failure)
        context.fireChannelInactive()
    }
}
