import NIOConcurrencyHelpers
import NIOCore

/// How long a server's TLS connection may take and sit, and how many one peer may hold: what keeps
/// half-open handshakes, silent sockets and idle keep-alive connections from holding a server's
/// descriptors for ever.
public struct ServerConnectionLimits: Sendable, Hashable {
    /// From the accepted TCP connection to the end of the TLS handshake (a client that sends
    /// nothing, or part of a ClientHello, is closed then).
    public var handshakeTimeout: Duration
    /// After the handshake, the longest time with nothing read or written before the connection is
    /// closed (nil: never).
    public var idleTimeout: Duration?
    /// The most connections open at once from one IP address; the next ones are closed on accept
    /// (nil: no cap).
    public var maximumConnectionsPerPeer: Int?

    /// - Parameters:
    ///   - handshakeTimeout: 10 s by default, what a client on a slow network needs with room to spare.
    ///   - idleTimeout: 60 s by default, as HTTP servers keep idle keep-alive connections.
    ///   - maximumConnectionsPerPeer: 64 by default, several browsers' worth of parallel connections.
    public init(
        handshakeTimeout: Duration = .seconds(10),
        idleTimeout: Duration? = .seconds(60),
        maximumConnectionsPerPeer: Int? = 64
    ) {
        self.handshakeTimeout = handshakeTimeout
        self.idleTimeout = idleTimeout
        self.maximumConnectionsPerPeer = maximumConnectionsPerPeer
    }
}

/// The open connections of each peer address of one server context.
final class PeerConnectionCounter: Sendable {
    private let counts = NIOLockedValueBox<[String: Int]>([:])

    /// Counts `channel` for its peer until it closes; false (and nothing counted) when the peer
    /// already holds `limit` connections.
    func admit(_ channel: any Channel, limit: Int) -> Bool {
        let peer = channel.remoteAddress?.ipAddress ?? "?"
        let admitted = counts.withLockedValue { counts -> Bool in
            guard counts[peer, default: 0] < limit else { return false }
            counts[peer, default: 0] += 1
            return true
        }
        if admitted {
            channel.closeFuture.whenComplete { _ in
                self.counts.withLockedValue { counts in
                    counts[peer, default: 1] -= 1
                    if counts[peer] == 0 { counts[peer] = nil }
                }
            }
        }
        return admitted
    }
}

/// Closes the connection on NIO's `IdleStateHandler` event: nothing read or written for a while.
final class IdleConnectionCloser: ChannelInboundHandler {
    typealias InboundIn = NIOAny

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent {
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }
}
