import AsyncHTTPClient
import Dispatch
import NIOCore
import NIOHTTP1
import SecCrypto
import SecKeychain
import SecKitHTTPClient
import SecTLS
import SecVault
import Synchronization

/// `VaultTransport` over AsyncHTTPClient, for services that run SwiftNIO already: one `HTTPClient`
/// built from the SecTLS configuration (`HTTPClient.Configuration(secKit:)`: trust, versions,
/// client identity, pins on every new connection before any request byte), its connections kept
/// alive and shared by every request. The token travels in a header, which AsyncHTTPClient holds
/// as a `String` (not wiped).
///
/// `VaultStore`'s calls are blocking: each waits on its own thread (the async API runs them on a
/// thread of their own, never on the cooperative pool) while the request runs on the client's
/// event loop.
///
/// ```swift
/// let transport = try AsyncHTTPClientTransport(tls: configuration.tls)
/// let store = VaultStore(configuration: configuration, transport: transport)
/// let secret = try await store.secret(for: id)
/// try await transport.shutdown()
/// ```
public final class AsyncHTTPClientTransport: VaultTransport {
    private let client: HTTPClient

    /// A transport with its own `HTTPClient` on the shared event-loop group.
    /// - Throws: what `HTTPClient.Configuration(secKit:)` throws (an unreadable CA file, a
    ///   `serverName`, which AsyncHTTPClient takes from the URL).
    public init(tls: TLSClientConfiguration) throws(TLSError) {
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: try .init(secKit: tls))
    }

    /// Closes the client's connections; call it once the store is no longer used.
    public func shutdown() async throws { try await client.shutdown() }

    public func send(
        _ request: VaultRequest,
        deadline: ContinuousClock.Instant
    ) throws(VaultTransportError)
        -> VaultResponse
    {
        let remaining = deadline - .now
        guard remaining > .zero else { throw .timeout }
        var outgoing = HTTPClientRequest(url: request.url)
        outgoing.method = HTTPMethod(rawValue: request.method)
        if let token = request.token {
            outgoing.headers.add(
                name: "X-Vault-Token",
                value: token.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
            )
        }
        if let namespace = request.namespace { outgoing.headers.add(name: "X-Vault-Namespace", value: namespace) }
        if let body = request.body {
            outgoing.headers.add(name: "Content-Type", value: "application/json")
            outgoing.body = .bytes(body.withUnsafeBytes { ByteBuffer(bytes: $0) })
        }
        let nanoseconds =
            remaining.components.seconds * 1_000_000_000 + remaining.components.attoseconds / 1_000_000_000
        let outcome = Mutex<Result<VaultResponse, VaultTransportError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let client = self.client
        let task = Task {
            let result: Result<VaultResponse, VaultTransportError>
            do {
                let response = try await client.execute(outgoing, timeout: .nanoseconds(nanoseconds))
                var body = try await response.body.collect(upTo: 4 << 20)
                let bytes = body.readBytes(length: body.readableBytes) ?? []
                result = .success(
                    VaultResponse(
                        status: Int(response.status.code),
                        location: response.headers.first(name: "Location"),
                        body: SecureBytes(bytes)
                    )
                )
            } catch {
                result = .failure(Self.transportError(error))
            }
            outcome.withLock { $0 = result }
            done.signal()
        }
        if done.wait(timeout: .now() + .nanoseconds(Int(nanoseconds) + 1_000_000_000)) == .timedOut {
            task.cancel()
            throw .timeout
        }
        guard let result = outcome.withLock({ $0 }) else { throw .timeout }
        return try result.get()
    }

    /// AsyncHTTPClient's and SecTLS's errors as the core's.
    private static func transportError(_ error: any Error) -> VaultTransportError {
        if let error = error as? TLSError {
            switch error {
            case .pinMismatch, .noBackupPin: return .untrustedServer(.pinMismatch, "\(error)")
            case .certificateVerificationFailed: return .untrustedServer(.certificateVerificationFailed, "\(error)")
            case .clientCertificateRequired, .clientCertificateRejected, .clientNotAllowed:
                return .untrustedServer(.clientCertificateRefused, "\(error)")
            default: return .connection("\(error)")
            }
        }
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .connectTimeout, .readTimeout, .writeTimeout: return .timeout
            case .remoteConnectionClosed, .cancelled, .alreadyShutdown: return .connection("\(error)")
            default: return .invalidResponse("\(error)")
            }
        }
        if error is NIOTooManyBytesError { return .invalidResponse("a body over 4 MiB") }
        return .connection(String(describing: error))
    }
}
