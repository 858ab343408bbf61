import GRPCCore
import GRPCNIOTransportHTTP2
import NIOConcurrencyHelpers
import NIOCore
import SecKitNIO
import SecTLS

/// A gRPC client connection whose server SecTLS verified during the handshake, before the first
/// HTTP/2 frame was sent, as a grpc-swift client transport: pass it to `GRPCClient(transport:)` or
/// `withGRPCClient(transport:)`.
///
/// It is grpc-swift-nio-transport's wrapped-channel transport on that one connection: it does not
/// reconnect, and once the connection closes its RPCs fail with `unavailable`. When TLS closed it (a
/// TLS 1.3 server refusing the client certificate after the handshake), that `RPCError`'s cause is
/// SecTLS's `TLSError` (`RPCError.tlsError`).
public struct GRPCClientConnection: ClientTransport {
    public typealias Bytes = GRPCNIOTransportBytes

    private let transport: HTTP2ClientTransport.WrappedChannel
    private let failure: TLSFailureRecorder
    /// The server's verified chain and its pin evaluation.
    public let verified: VerifiedServerChain

    init(transport: HTTP2ClientTransport.WrappedChannel, verified: VerifiedServerChain, failure: TLSFailureRecorder) {
        self.transport = transport
        self.verified = verified
        self.failure = failure
    }

    /// The retry throttle of the service config the connection was made with.
    public var retryThrottle: RetryThrottle? { transport.retryThrottle }

    /// Runs the connection until it closes (`GRPCClient` calls it).
    ///
    /// - Throws: the wrapped transport's errors.
    public func connect() async throws {
        try await transport.connect()
    }

    /// Lets the open RPCs finish, then closes the connection (`GRPCClient` calls it).
    public func beginGracefulShutdown() {
        transport.beginGracefulShutdown()
    }

    /// Opens a stream for one RPC (`GRPCClient` calls it); an error of a connection that TLS closed
    /// carries SecTLS's reason.
    ///
    /// - Parameters:
    ///   - descriptor: the method.
    ///   - options: the call's options.
    ///   - closure: runs the RPC on the stream.
    /// - Returns: what `closure` returns.
    /// - Throws: `RPCError`, with the `TLSError` as its cause when TLS closed the connection;
    ///   `closure`'s errors.
    public func withStream<T: Sendable>(
        descriptor: MethodDescriptor,
        options: CallOptions,
        _ closure: (RPCStream<Inbound, Outbound>, ClientContext) async throws -> T
    ) async throws -> T {
        do {
            return try await transport.withStream(descriptor: descriptor, options: options, closure)
        } catch let error as RPCError where error.tlsError == nil {
            guard let reason = failure.error else { throw error }
            throw RPCError(code: error.code, message: "\(reason)", metadata: error.metadata, cause: reason)
        }
    }

    /// The method's configuration in the service config (`GRPCClient` calls it).
    ///
    /// - Parameter descriptor: the method.
    /// - Returns: its configuration, if the service config has one.
    public func config(forMethod descriptor: MethodDescriptor) -> MethodConfig? {
        transport.config(forMethod: descriptor)
    }
}

/// Keeps the first `TLSError` that reaches gRPC's handlers (SecKitNIO's verification handler
/// translates TLS failures into them), which grpc-swift's connection handler does not pass on.
final class TLSFailureRecorder: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let first = NIOLockedValueBox<TLSError?>(nil)

    var error: TLSError? { first.withLockedValue { $0 } }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let error = error as? TLSError { first.withLockedValue { $0 = $0 ?? error } }
        context.fireErrorCaught(error)
    }
}
