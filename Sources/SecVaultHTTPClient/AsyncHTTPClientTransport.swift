import AsyncHTTPClient
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
/// event loop. Do not call them from an event loop of the client's group.
///
/// ```swift
/// let transport = try AsyncHTTPClientTransport(tls: configuration.tls)
/// let store = VaultStore(configuration: configuration, transport: transport)
/// let secret = try await store.secret(for: id)
/// try await transport.shutdown()
/// ```
public final class AsyncHTTPClientTransport: VaultTransport {
    private let client: HTTPClient
    private let isShutDown = Mutex(false)

    /// A transport with its own `HTTPClient` on the shared event-loop group.
    ///
    /// - Parameter tls: the trust roots, versions, pins and client identity; its `serverName` must
    ///   be nil (AsyncHTTPClient takes the name from the URL).
    /// - Throws: what `HTTPClient.Configuration(secKit:)` throws, `TLSError.invalidConfiguration`:
    ///   a `serverName`, a maximum version below the minimum, an unreadable CA file, a pin of a
    ///   trusted CA's key, or pin-only trust without exactly one enforced pin set.
    public init(tls: TLSClientConfiguration) throws(TLSError) {
        var configuration = try HTTPClient.Configuration(secKit: tls)
        // VaultClient follows a redirect itself (one, same method and body, never to http), so the
        // transport hands every 3xx back instead of following it with AsyncHTTPClient's defaults.
        configuration.redirectConfiguration = .disallow
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Closes the client's connections; call it once the store is no longer used.
    ///
    /// - Throws: what `HTTPClient.shutdown()` throws, which in practice is nothing: a second call
    ///   returns at once (no `HTTPClientError.alreadyShutdown`), and connections still in use are
    ///   closed without an error (no clean close is required).
    public func shutdown() async throws {
        guard
            isShutDown.withLock({ shutDown in
                defer { shutDown = true }
                return !shutDown
            })
        else { return }
        try await client.shutdown()
    }

    /// A transport released without `shutdown()` (a thrown error skipped it) closes its client
    /// here, rather than leaving AsyncHTTPClient's connections and threads behind.
    deinit {
        if !isShutDown.withLock({ $0 }) { try? client.syncShutdown() }
    }

    /// Sends `request` on the client's event loop and waits for the answer on the calling thread.
    ///
    /// - Parameters:
    ///   - request: the exchange to make: its method, URL, token and namespace headers, and body.
    ///   - deadline: when the exchange must have ended, connecting and TLS included (the request's
    ///     AsyncHTTPClient deadline).
    /// - Returns: the server's answer, whatever its HTTP status, with its body (at most 4 MiB) in
    ///   memory that is wiped on release.
    /// - Throws: `VaultTransportError.timeout` when `deadline` has passed before the request or
    ///   passes during it; `VaultTransportError.untrustedServer` when TLS refused the server's
    ///   certificate or pins, or the server our certificate; `VaultTransportError.invalidResponse`
    ///   for a body over 4 MiB or another `HTTPClientError` (an answer it cannot read);
    ///   `VaultTransportError.connection` for a closed connection or another TLS or connection
    ///   failure; `VaultTransportError.unusable` for a request AsyncHTTPClient cannot make (a bad
    ///   URL).
    public func send(
        _ request: VaultRequest,
        deadline: ContinuousClock.Instant
    ) throws(VaultTransportError)
        -> VaultResponse
    {
        let remaining = deadline - .now
        guard remaining > .zero else { throw .timeout }
        var headers = HTTPHeaders()
        if let token = request.token {
            headers.add(name: "X-Vault-Token", value: token.withUnsafeBytes { String(decoding: $0, as: UTF8.self) })
        }
        if let namespace = request.namespace { headers.add(name: "X-Vault-Namespace", value: namespace) }
        if request.body != nil { headers.add(name: "Content-Type", value: "application/json") }
        let outgoing: HTTPClient.Request
        do {
            outgoing = try HTTPClient.Request(
                url: request.url,
                method: HTTPMethod(rawValue: request.method),
                headers: headers,
                body: request.body.map { body in .bytes(body.withUnsafeBytes { Array($0) }) }
            )
        } catch {
            throw .unusable("\(error)")
        }
        let nanoseconds =
            remaining.components.seconds * 1_000_000_000 + remaining.components.attoseconds / 1_000_000_000
        // The request runs on the client's event loop and this thread waits for it: never on Swift's
        // cooperative pool, which blocking callers elsewhere in the process can starve.
        let task = client.execute(
            request: outgoing,
            delegate: ResponseAccumulator(request: outgoing, maxBodySize: 4 << 20),
            deadline: .now() + .nanoseconds(nanoseconds)
        )
        do {
            let response = try task.futureResult.wait()
            var body = response.body ?? ByteBuffer()
            let bytes = body.readBytes(length: body.readableBytes) ?? []
            return VaultResponse(
                status: Int(response.status.code),
                location: response.headers.first(name: "Location"),
                body: SecureBytes(bytes)
            )
        } catch {
            throw Self.transportError(error)
        }
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
        if error is ResponseAccumulator.ResponseTooBigError { return .invalidResponse("a body over 4 MiB") }
        return .connection(String(describing: error))
    }
}
