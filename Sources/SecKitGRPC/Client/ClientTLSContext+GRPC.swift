import GRPCCore
import GRPCNIOTransportHTTP2
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import SecKitNIO
import SecTLS

extension ClientTLSContext {
    /// The protocols a gRPC client offers in ALPN, as grpc-swift and gRPC core offer them.
    static let grpcApplicationProtocols = ["grpc-exp", "h2"]

    /// A context for gRPC connections: `configuration`'s verification, with ALPN offering HTTP/2
    /// (gRPC servers such as gRPC core's refuse a TLS connection that did not negotiate `h2`).
    ///
    /// - Parameter configuration: the trust roots, versions, pin policy, allow-list, client identity
    ///   and timeouts of every connection made with this context.
    /// - Throws: `TLSError.invalidConfiguration`, as `ClientTLSContext(configuration:)` throws it.
    public convenience init(grpc configuration: TLSClientConfiguration) throws(TLSError) {
        try self.init(configuration: configuration, applicationProtocols: Self.grpcApplicationProtocols)
    }

    /// Connects to a gRPC server at `host`:`port`, completes the TLS handshake with every check of
    /// `connect(host:port:scheme:on:)` (trust, host name, pins, client identity, timeouts), and
    /// returns the connection as a grpc-swift transport. A refused server never sees an HTTP/2
    /// frame, and its refusal is the typed `TLSError` this throws: `pinMismatch` with the
    /// certificate's and the expected pins, `certificateVerificationFailed` with OpenSSL's reason,
    /// `clientCertificateRequired` or `clientCertificateRejected`.
    ///
    /// ```swift
    /// let tls = try ClientTLSContext(grpc: configuration)   // make once, share
    /// let connection = try await tls.connectGRPC(host: "api.example.com", port: 443)
    /// try await withGRPCClient(transport: connection) { client in … }
    /// ```
    ///
    /// - Parameters:
    ///   - host: the server's name or IP address, checked against the allow-list and the certificate.
    ///   - port: the server's port.
    ///   - config: the transport's HTTP/2, keepalive and compression settings; the `:authority` of
    ///     its requests is `host:port` unless `config.http2.authority` is set.
    ///   - serviceConfig: the methods' timeouts, retries and throttling (load balancing does not
    ///     apply to one connection).
    ///   - group: the event loop group the connection runs on.
    /// - Returns: the connection, a client transport, with what the handshake verified.
    /// - Throws: `TLSError`: `invalidConfiguration` when the context offers no `h2` in ALPN (make it
    ///   with `ClientTLSContext(grpc:)`), `endpointNotAllowed`, `hostNotFound`, `connectionFailed`,
    ///   `timedOut`, the verification's errors, `cancelled`.
    public func connectGRPC(
        host: String,
        port: Int,
        config: HTTP2ClientTransport.WrappedChannel.Config = .defaults,
        serviceConfig: ServiceConfig = ServiceConfig(),
        on group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> GRPCClientConnection {
        guard applicationProtocols.contains("h2") else {
            throw TLSError.invalidConfiguration(
                "a gRPC connection needs ALPN h2: make the context with ClientTLSContext(grpc:)"
            )
        }
        var config = config
        if config.http2.authority == nil {
            config.http2.authority =
                TCPSocket.isIPAddress(host) && host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        }
        // Carries the chain out of `wrapping`'s closure, which runs once, before `wrapping` returns.
        let verified = NIOLockedValueBox<VerifiedServerChain?>(nil)
        let failure = TLSFailureRecorder()
        let transport = try await HTTP2ClientTransport.WrappedChannel.wrapping(
            config: config,
            serviceConfig: serviceConfig
        ) { configure in
            // gRPC's handlers go after the TLS handlers in the channel initializer; the transport
            // is built only once the handshake is verified, so a refusal throws here.
            let (configured, chain) = try await self.connect(host: host, port: port, scheme: "grpc", on: group) {
                channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(failure)
                }.flatMap { configure(channel) }
            }
            verified.withLockedValue { $0 = chain }
            return configured
        }
        return GRPCClientConnection(
            transport: transport,
            verified: verified.withLockedValue { $0! },
            failure: failure
        )
    }
}

extension RPCError {
    /// SecTLS's reason when TLS ended the RPC: the first `TLSError` among the error's causes (a
    /// TLS 1.3 server judges the client certificate after the handshake, so its refusal,
    /// `clientCertificateRequired` or `clientCertificateRejected`, ends the first RPC instead of
    /// the connect); nil when the RPC ended for another reason.
    public var tlsError: TLSError? {
        var cause = self.cause
        while let error = cause {
            if let error = error as? TLSError { return error }
            cause = (error as? RPCError)?.cause
        }
        return nil
    }
}
