import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import SecKitNIO

/// A plain SwiftNIO server (no HTTP framework) on 127.0.0.1 behind a `ServerTLSContext`: whatever a
/// client sends after the handshake is answered once with `HTTP/1.0 200 OK` and the verified
/// client's subject and pin, one per line. It keeps every connection's `MutualTLSPeer`, so tests
/// see why a client was refused (`failure`), which an HTTP framework does not tell them.
final class PlainNIOMutualTLSServer: Sendable {
    let port: Int
    private let channel: any Channel
    private let peers: NIOLockedValueBox<[MutualTLSPeer]>

    private init(port: Int, channel: any Channel, peers: NIOLockedValueBox<[MutualTLSPeer]>) {
        self.port = port
        self.channel = channel
        self.peers = peers
    }

    /// Listens on a free port of 127.0.0.1.
    static func start(context: ServerTLSContext) async throws -> PlainNIOMutualTLSServer {
        let peers = NIOLockedValueBox<[MutualTLSPeer]>([])
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let peer = try context.addHandlers(to: channel)
                    peers.withLockedValue { $0.append(peer) }
                    try channel.pipeline.syncOperations.addHandler(VerifiedClientResponder(peer: peer))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return PlainNIOMutualTLSServer(port: channel.localAddress?.port ?? 0, channel: channel, peers: peers)
    }

    /// The peers of the connections accepted so far, oldest first.
    var connections: [MutualTLSPeer] { peers.withLockedValue { $0 } }

    func stop() async throws { try await channel.close() }
}

/// Answers the first bytes after the handshake with the verified client, then closes.
private final class VerifiedClientResponder: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    let peer: MutualTLSPeer
    private var answered = false

    init(peer: MutualTLSPeer) { self.peer = peer }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // Application data arrives only after the handshake, and so after the client was verified.
        guard !answered, let client = peer.client else { return }
        answered = true
        let body = "\(client.subject)\n\(client.publicKeyPin)\n"
        let response = "HTTP/1.0 200 OK\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: response)))
            .assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) { context.close(promise: nil) }
}
