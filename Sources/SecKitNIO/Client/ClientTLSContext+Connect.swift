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
        let configuration = self.configuration
        try TLSClient.checkEndpoint(host: host, port: port, scheme: scheme, configuration: configuration)
        let timeouts = configuration.timeouts
        let opened: (NIOAsyncChannel<ByteBuffer, ByteBuffer>, EventLoopFuture<VerifiedServerChain>)
        do {
            opened = try await ClientBootstrap(group: group)
                .connectTimeout(TimeAmount(timeouts.connect))
                .connect(host: host, port: port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let verification = try self.addHandlers(
                            to: channel.pipeline.syncOperations,
                            serverName: host,
                            port: port
                        )
                        return (try NIOAsyncChannel(wrappingChannelSynchronously: channel), verification)
                    }
                }
        } catch {
            if Task.isCancelled { throw TLSError.cancelled }
            throw Self.connectFailure(error, host: host, port: port)
        }
        let (channel, verification) = opened
        let timedOut = NIOLockedValueBox(false)
        let deadline = verification.eventLoop.scheduleTask(in: TimeAmount(timeouts.handshake)) {
            timedOut.withLockedValue { $0 = true }
            channel.channel.close(promise: nil)
        }
        // Ended on the event loop as soon as the handshake's outcome is known: this task may resume
        // much later (a busy cooperative pool), and a verdict reached in time is no timeout.
        verification.whenComplete { _ in deadline.cancel() }
        do {
            let verified = try await withTaskCancellationHandler {
                try await verification.get()
            } onCancel: {
                channel.channel.close(promise: nil)
            }
            return ClientTLSConnection(channel: channel, verified: verified)
        } catch {
            try? await channel.channel.close()
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
