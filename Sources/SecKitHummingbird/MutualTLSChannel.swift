import Hummingbird
import HummingbirdCore
import Logging
import NIOConcurrencyHelpers
import NIOCore
import SecKitNIO
import SecTLS

/// A Hummingbird child channel that runs mutual TLS with a `ServerTLSContext` before the HTTP
/// channel it wraps, and gives the connection's verified client to the request handlers
/// (`MutualTLS.verifiedClient`).
struct MutualTLSChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value

    let base: Base
    let context: ServerTLSContext
    /// The peers of connections set up but not yet handled, by channel.
    private let pending = NIOLockedValueBox<[ObjectIdentifier: MutualTLSPeer]>([:])

    init(_ base: Base, context: ServerTLSContext) {
        self.base = base
        self.context = context
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            let peer = try context.addHandlers(to: channel)
            pending.withLockedValue { $0[ObjectIdentifier(channel)] = peer }
        }.flatMap {
            base.setup(channel: channel, logger: logger)
        }.flatMapErrorThrowing { error in
            // No `handle` will take this connection's peer.
            pending.withLockedValue { _ = $0.removeValue(forKey: ObjectIdentifier(channel)) }
            throw error
        }
    }

    func handle(value: Value, logger: Logger) async {
        let peer = pending.withLockedValue { $0.removeValue(forKey: ObjectIdentifier(value.channel)) }
        await MutualTLS.$peer.withValue(peer) {
            await base.handle(value: value, logger: logger)
        }
    }
}

extension MutualTLSChannel: HTTPChannelHandler where Base: HTTPChannelHandler {
    var responder: HTTPChannelHandler.Responder { base.responder }
}

/// The mutual TLS connection a request arrived on.
public enum MutualTLS {
    @TaskLocal static var peer: MutualTLSPeer?

    /// The client of the connection the current request came on, verified by SecTLS (subject, SANs,
    /// `sha256/…` key pin); nil outside a `.mutualTLS` server. Read it in a request handler.
    public static var verifiedClient: VerifiedClient? { peer?.client }
}

extension HTTPServerBuilder {
    /// An HTTP/1.1 server behind mutual TLS: every client must present a certificate that SecTLS
    /// verifies with `context`'s client verifier before any request is read.
    ///
    /// ```swift
    /// let app = Application(router: router, server: .mutualTLS(context: tls))
    /// router.get("/") { _, _ in MutualTLS.verifiedClient?.subject ?? "" }
    /// ```
    ///
    /// - Parameters:
    ///   - configuration: Hummingbird's HTTP/1.1 settings.
    ///   - context: the server's identity, client verifier and connection limits.
    /// - Returns: the server builder to pass to `Application(router:server:)`.
    public static func mutualTLS(
        http1 configuration: HTTP1Channel.Configuration = .init(),
        context: ServerTLSContext
    ) -> HTTPServerBuilder {
        .init { responder in
            MutualTLSChannel(HTTP1Channel(responder: responder, configuration: configuration), context: context)
        }
    }
}
