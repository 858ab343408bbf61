import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import SecTLS

/// A TLS connection made by `ClientTLSContext.connect`: the channel, ready for application data,
/// and what the handshake verified.
public struct ClientTLSConnection: Sendable {
    /// The connection's plaintext side (`ByteBuffer`s in and out).
    public let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
    /// The server's verified chain and its pin evaluation.
    public let verified: VerifiedServerChain
}

extension ClientTLSContext {
    /// Connects to `host` (a name or an IP address) on `port` over SwiftNIO and completes the
    /// handshake with every check, within the configuration's connect and handshake timeouts: the
    /// same checks and typed errors as `TLSClient.connect` (`scheme` only matters for the
    /// allow-list), with one difference: under TLS 1.3 a server's refusal of the client certificate
    /// arrives after the handshake, as the error of the first read (`TLSClient.connect` waits for
    /// it). A cancelled task closes the connection and gets `TLSError.cancelled`.
    ///
    /// ```swift
    /// let connection = try await tls.connect(host: "api.example.com", port: 443)
    /// try await connection.channel.executeThenClose { inbound, outbound in
    ///     try await outbound.write(ByteBuffer(string: "GET / HTTP/1.0\r\n\r\n"))
    ///     for try await chunk in inbound { print(String(buffer: chunk)) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - host: the server's name or IP address, checked against the allow-list and the certificate.
    ///   - port: the server's port.
    ///   - scheme: the scheme the allow-list is checked for.
    ///   - group: the event loop group the connection runs on.
    /// - Returns: the connection, its handshake done and verified.
    /// - Throws: `TLSError`: `endpointNotAllowed` before anything is resolved, `hostNotFound`,
    ///   `connectionFailed`, `timedOut`, the verification's errors (`pinMismatch`,
    ///   `certificateVerificationFailed`, `clientCertificateRequired`, …), `cancelled`.
    public func connect(
        host: String,
        port: Int,
        scheme: String = "tls",
        on group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> ClientTLSConnection {
        let (channel, verified) = try await connect(host: host, port: port, scheme: scheme, on: group) { channel in
            channel.eventLoop.makeCompletedFuture {
                try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
            }
        }
        return ClientTLSConnection(channel: channel, verified: verified)
    }

    /// `connect(host:port:scheme:on:)` for a protocol that sets up its own pipeline: `configure`
    /// adds its handlers after the TLS handlers, in the channel initializer (before any byte is
    /// read), and its result is returned once the handshake is verified. On any failure the
    /// channel is closed.
    ///
    /// - Parameters:
    ///   - host: the server's name or IP address, checked against the allow-list and the certificate.
    ///   - port: the server's port.
    ///   - scheme: the scheme the allow-list is checked for.
    ///   - group: the event loop group the connection runs on.
    ///   - configure: adds the protocol's handlers to the new channel, on its event loop.
    /// - Returns: what `configure` made, and the verified chain.
    /// - Throws: the errors of `connect(host:port:scheme:on:)`, and `configure`'s.
    package func connect<Output: Sendable>(
        host: String,
        port: Int,
        scheme: String,
        on group: any EventLoopGroup,
        configure: @escaping @Sendable (any Channel) -> EventLoopFuture<Output>
    ) async throws -> (output: Output, verified: VerifiedServerChain) {
        let configuration = self.configuration
        try TLSClient.checkEndpoint(host: host, port: port, scheme: scheme, configuration: configuration)
        let timeouts = configuration.timeouts
        let opened: (any Channel, Output, EventLoopFuture<VerifiedServerChain>)
        do {
            opened = try await ClientBootstrap(group: group)
                .connectTimeout(TimeAmount(timeouts.connect))
                .connect(host: host, port: port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try self.addHandlers(to: channel.pipeline.syncOperations, serverName: host, port: port)
                    }.flatMap { verification in
                        configure(channel).map { (channel, $0, verification) }
                    }
                }
        } catch {
            if Task.isCancelled { throw TLSError.cancelled }
            throw Self.connectFailure(error, host: host, port: port)
        }
        let (channel, output, verification) = opened
        let timedOut = NIOLockedValueBox(false)
        let deadline = verification.eventLoop.scheduleTask(in: TimeAmount(timeouts.handshake)) {
            timedOut.withLockedValue { $0 = true }
            channel.close(promise: nil)
        }
        // Ended on the event loop as soon as the handshake's outcome is known: this task may resume
        // much later (a busy cooperative pool), and a verdict reached in time is no timeout.
        verification.whenComplete { _ in deadline.cancel() }
        do {
            let verified = try await withTaskCancellationHandler {
                try await verification.get()
            } onCancel: {
                channel.close(promise: nil)
            }
            return (output, verified)
        } catch {
            try? await channel.close()
            if Task.isCancelled { throw TLSError.cancelled }
            if timedOut.withLockedValue({ $0 }) { throw TLSError.timedOut(.handshake) }
            throw error
        }
    }

    /// SwiftNIO's connect errors as `TLSError`s.
    private static func connectFailure(_ error: any Error, host: String, port: Int) -> any Error {
        switch error {
        case ChannelError.connectTimeout: return TLSError.timedOut(.connect)
        case let error as NIOConnectionError:
            if error.connectionErrors.isEmpty, let resolution = error.dnsAError ?? error.dnsAAAAError {
                return TLSError.hostNotFound(host: host, reason: "\(resolution)")
            }
            let reasons = error.connectionErrors.map { "\($0.target): \($0.error)" }
            return TLSError.connectionFailed(reasons.isEmpty ? "\(host):\(port)" : reasons.joined(separator: "; "))
        case let error as TLSError: return error
        default: return TLSError.connectionFailed("\(host):\(port): \(error)")
        }
    }
}
