import GRPCCore
import GRPCNIOTransportHTTP2
import NIOCore
import NIOPosix
import SecKitNIO
import SecTLS

/// A gRPC server transport (HTTP/2 over TCP) that requires client certificates: every connection
/// runs `ServerTLSContext`'s mutual TLS, whose client verification is SecTLS's (the client CAs,
/// purpose client authentication, the allow-list of client key pins), before gRPC reads a frame. A
/// refused client reaches no handler. Each RPC's `ServerContext.verifiedClient` is the client of
/// its connection.
///
/// ```swift
/// let tls = try ServerTLSContext(grpcIdentity: identity, clientVerifier: verifier)
/// let server = GRPCServer(transport: MutualTLSServerTransport(host: "0.0.0.0", port: 50051, context: tls),
///                         services: [EchoService()])
/// try await server.serve()
/// ```
public final class MutualTLSServerTransport: ListeningServerTransport {
    public typealias Bytes = GRPCNIOTransportBytes

    private let base: HTTP2ServerTransport.Custom<MutualTLSListener>
    private let peers: ConnectedPeers

    /// A transport that listens on `host`:`port` once the server runs.
    ///
    /// - Parameters:
    ///   - host: the address to bind (`127.0.0.1`, `::1`, `0.0.0.0`).
    ///   - port: the port; 0 for a free one (read it from `listeningAddress`).
    ///   - context: the server's identity, client verifier and connection limits; it must offer
    ///     `h2` in ALPN (`ServerTLSContext(grpcIdentity:clientVerifier:…)` does).
    ///   - config: gRPC's HTTP/2, keepalive, compression and message size settings.
    ///   - eventLoopGroup: the group the listener and its connections run on.
    /// - Throws: `TLSError.invalidConfiguration` when `context` offers no `h2` in ALPN: gRPC core
    ///   clients refuse such a server.
    public init(
        host: String,
        port: Int,
        context: ServerTLSContext,
        config: HTTP2ServerTransport.Custom<MutualTLSListener>.Config = .defaults,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) throws(TLSError) {
        guard context.applicationProtocols.contains("h2") else {
            throw TLSError.invalidConfiguration(
                "a gRPC server needs ALPN h2: make the context with ServerTLSContext(grpcIdentity:clientVerifier:)"
            )
        }
        let peers = ConnectedPeers()
        let listener = MutualTLSListener(
            host: host,
            port: port,
            context: context,
            peers: peers,
            eventLoopGroup: eventLoopGroup
        )
        self.base = HTTP2ServerTransport.Custom(listenerFactory: listener, config: config)
        self.peers = peers
    }

    /// The address the transport listens on, once the server has started.
    public var listeningAddress: GRPCNIOTransportCore.SocketAddress {
        get async throws {
            guard let address = await base.listeningAddress else {
                throw RPCError(code: .unavailable, message: "the transport is not listening")
            }
            return address
        }
    }

    /// Passes the server's methods on to the HTTP/2 transport (`GRPCServer` calls it).
    ///
    /// - Parameter context: the server's registered methods.
    public func configure(context: GRPCServerContext) {
        base.configure(context: context)
    }

    /// Listens and hands each RPC to `streamHandler` with `ServerContext.verifiedClient` set
    /// (`GRPCServer` calls it).
    ///
    /// - Parameter streamHandler: the server's handler of each RPC stream.
    /// - Throws: the listener's errors (an address in use, a name that does not resolve).
    public func listen(
        streamHandler: @escaping @Sendable (RPCStream<Inbound, Outbound>, ServerContext) async -> Void
    ) async throws {
        try await base.listen { [peers] stream, context in
            // Every connection of this transport passed mutual TLS, so a missing client is a
            // bookkeeping failure: refuse the RPC rather than run it unattributed.
            guard let client = peers.peer(remotePeer: context.remotePeer)?.client else {
                let status = Status(code: .unauthenticated, message: "no verified client certificate")
                try? await stream.outbound.write(.status(status, [:]))
                await stream.outbound.finish()
                return
            }
            var context = context
            context.transportSpecific = GRPCVerifiedClient(client: client)
            await streamHandler(stream, context)
        }
    }

    /// Stops accepting connections and lets the open RPCs finish (`GRPCServer` calls it).
    public func beginGracefulShutdown() {
        base.beginGracefulShutdown()
    }
}

/// The `ServerContext.transportSpecific` of an RPC served by `MutualTLSServerTransport`.
public struct GRPCVerifiedClient: ServerContext.TransportSpecific {
    /// The client of the RPC's connection, as SecTLS verified it.
    public let client: VerifiedClient
}

extension ServerContext {
    /// The client of the connection this RPC came on, verified by SecTLS (subject, SANs, `sha256/…`
    /// key pin, chain); nil outside a `MutualTLSServerTransport`.
    public var verifiedClient: VerifiedClient? {
        (transportSpecific as? GRPCVerifiedClient)?.client
    }
}

extension ServerTLSContext {
    /// A mutual TLS context for gRPC servers: `ServerTLSContext(identity:clientVerifier:…)` that
    /// selects HTTP/2 in ALPN (gRPC core clients refuse a server that does not).
    ///
    /// - Parameters:
    ///   - identity: the server's certificate (with its chain) and key.
    ///   - clientVerifier: the client CAs and the optional allow-list of client key pins.
    ///   - minimumVersion: TLS 1.2 unless raised.
    ///   - maximumVersion: nil for the newest this build supports.
    ///   - limits: the handshake and idle timeouts and the per-peer connection cap.
    /// - Throws: `invalidConfiguration` when swift-nio-ssl refuses the result.
    public convenience init(
        grpcIdentity identity: ClientIdentity,
        clientVerifier: ClientCertificateVerifier,
        minimumVersion: SecTLS.TLSVersion = .tls12,
        maximumVersion: SecTLS.TLSVersion? = nil,
        limits: ServerConnectionLimits = ServerConnectionLimits()
    ) throws(TLSError) {
        try self.init(
            identity: identity,
            clientVerifier: clientVerifier,
            minimumVersion: minimumVersion,
            maximumVersion: maximumVersion,
            limits: limits,
            applicationProtocols: ["grpc-exp", "h2"]
        )
    }
}
