import Logging
import NIOCore
import NIOTLS
import SecTLS

/// Bounds and reports one server connection's handshake: closes the connection when the
/// handshake has not completed within the timeout, counted from when the handler is added (the
/// accepted connection), and tells the context's observer how the handshake ended (the verified
/// client, the refusal SecKit's verification recorded, or the failure).
final class ServerHandshakeHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private let timeout: TimeAmount
    private let record: HandshakeRecord<VerifiedClient>
    private let observer: HandshakeObserver
    private let allowedPins: [Pin]?
    private var deadline: Scheduled<Void>?
    private var started: NIODeadline?
    private var peer: SocketAddress?
    private var timedOut = false
    private var reported = false

    init(timeout: Duration, record: HandshakeRecord<VerifiedClient>, observer: HandshakeObserver, allowedPins: [Pin]?) {
        self.timeout = TimeAmount(timeout)
        self.record = record
        self.observer = observer
        self.allowedPins = allowedPins
    }

    func handlerAdded(context: ChannelHandlerContext) {
        started = observer.started()
        peer = context.channel.remoteAddress
        let channel = context.channel
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: timeout) {
            handler.value.timedOut = true
            channel.close(promise: nil)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) { deadline?.cancel() }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case TLSUserEvent.handshakeCompleted = event, !reported {
            reported = true
            deadline?.cancel()
            if let client = record.verified {
                observer.succeeded(since: started, peer: peer, metadata: client.logMetadata)
            }
            context.pipeline.syncOperations.removeHandler(self, promise: nil)
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        report(
            TLSErrorTranslation.translate(
                error,
                recordedFailure: record.failure,
                presentedIdentity: true,
                certificateRequested: false,
                duringHandshake: true
            )
        )
        context.fireErrorCaught(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        report(
            record.failure
                ?? (timedOut ? TLSError.timedOut(.handshake) : .handshakeFailed("the client closed the connection"))
        )
        context.fireChannelInactive()
    }

    private func report(_ error: any Error) {
        guard !reported else { return }
        reported = true
        deadline?.cancel()
        observer.ended(since: started, peer: peer, error: error, refusal: record.failure, expectedPins: allowedPins)
    }
}

extension VerifiedClient {
    /// What a verified client's log entry says of it: its subject and key pin.
    var logMetadata: Logger.Metadata {
        ["tls.client.subject": "\(subject)", "tls.client.pin": "\(publicKeyPin)"]
    }
}
