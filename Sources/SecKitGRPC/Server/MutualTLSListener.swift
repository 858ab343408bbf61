import GRPCNIOTransportHTTP2
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import SecKitNIO

/// The TCP listener of `MutualTLSServerTransport` (which makes it): each accepted connection gets
/// `ServerTLSContext`'s handlers first, then gRPC's HTTP/2 pipeline, and its `MutualTLSPeer` is
/// kept by remote address for the RPCs that arrive on it.
public struct MutualTLSListener: HTTP2ServerTransport.ListenerFactory {
    let host: String
    let port: Int
    let context: ServerTLSContext
    let peers: ConnectedPeers
    /// The group the listener and its connections run on.
    public let eventLoopGroup: any EventLoopGroup

    /// Binds the listener (`HTTP2ServerTransport.Custom` calls it when the server starts).
    ///
    /// - Parameters:
    ///   - listenerConfigurator: gRPC's configuration of the listening channel.
    ///   - connectionConfigurator: gRPC's HTTP/2 configuration of each accepted connection.
    /// - Returns: the listening channel, whose inbound stream is the configured connections.
    /// - Throws: the bind's errors (an address in use, a name that does not resolve).
    public func makeListeningChannel(
        listenerConfigurator: HTTP2ServerTransport.ListenerConfigurator,
        connectionConfigurator: HTTP2ServerTransport.ConnectionConfigurator
    ) async throws -> NIOAsyncChannel<HTTP2ServerTransport.ConnectionConfigurator.ConnectionChannel, Never> {
        try await ServerBootstrap(group: eventLoopGroup)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelInitializer { listenerConfigurator.configure(channel: $0) }
            .bind(host: host, port: port) { [context, peers] channel in
                channel.eventLoop.makeCompletedFuture {
                    let peer = try context.addHandlers(to: channel)
                    peers.add(peer, for: channel)
                }.flatMap {
                    // ALPN is offered, not required: grpc-swift's own TLS server does the same.
                    connectionConfigurator.configure(channel: channel, tls: .configured(requireALPN: false))
                }
            }
    }
}

/// The peers of open connections by the remote address the RPCs' `ServerContext.remotePeer` names:
/// grpc-swift-nio-transport hands a stream handler that string, not the connection.
final class ConnectedPeers: Sendable {
    private let peers = NIOLockedValueBox<[String: (channel: ObjectIdentifier, peer: MutualTLSPeer)]>([:])

    /// Keeps `peer` until `channel` closes. Call in the child channel initializer.
    func add(_ peer: MutualTLSPeer, for channel: any Channel) {
        guard let key = Self.key(channel.remoteAddress) else { return }
        let id = ObjectIdentifier(channel)
        peers.withLockedValue { $0[key] = (id, peer) }
        channel.closeFuture.whenComplete { [peers] _ in
            // A new connection from the same address may already have taken the key.
            peers.withLockedValue { if $0[key]?.channel == id { $0[key] = nil } }
        }
    }

    /// The peer of the open connection whose remote address `remotePeer` describes.
    func peer(remotePeer: String) -> MutualTLSPeer? {
        peers.withLockedValue { $0[remotePeer]?.peer }
    }

    /// The address as grpc-swift-nio-transport writes `ServerContext.remotePeer` for TCP:
    /// `ipv4:127.0.0.1:50051`, `ipv6:[::1]:50051`.
    static func key(_ address: NIOCore.SocketAddress?) -> String? {
        switch address {
        case .v4(let v4)?: "ipv4:\(v4.host):\(address!.port!)"
        case .v6(let v6)?: "ipv6:[\(v6.host)]:\(address!.port!)"
        default: nil
        }
    }
}
