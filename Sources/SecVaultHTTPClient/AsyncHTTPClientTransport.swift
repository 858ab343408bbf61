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
/// It is an `AsyncVaultTransport`: `VaultStore`'s async calls run over it end to end, each
/// request awaited (AsyncHTTPClient's `execute(_:deadline:)`), no thread blocked, a cancelled task's
/// request cancelled. Its blocking calls wait on the calling thread while the request runs on the
/// client's event loop: do not make them from an event loop of the client's group.
///
/// ```swift
/// let transport = try AsyncHTTPClientTransport(tls: configuration.tls)
/// let store = VaultStore(configuration: configuration, transport: transport)
/// let secret = try await store.secret(for: id)
/// try await transport.shutdown()
/// ```
public final class AsyncHTTPClientTransport: AsyncVaultTransport {
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
        let limit = try Self.nioDeadline(deadline)
        let outgoing: HTTPClient.Request
        do {
            outgoing = try HTTPClient.Request(
                url: request.url,
                method: HTTPMethod(rawValue: request.method),
                headers: Self.headers(of: request),
                body: request.body.map { body in .bytes(body.withUnsafeBytes { Array($0) }) }
            )
        } catch {
            throw .unusable("\(error)")
        }
        // The request runs on the client's event loop and this thread waits for it: never on Swift's
        // cooperative pool, which blocking callers elsewhere in the process can starve.
        let task = client.execute(
            request: outgoing,
            delegate: ResponseAccumulator(request: outgoing, maxBodySize: Self.maximumBodySize),
            deadline: limit
        )
        do {
            let response = try task.futureResult.wait()
            return Self.answer(response.status, response.headers, response.body ?? ByteBuffer())
        } catch {
            throw Self.transportError(error)
        }
    }

    /// Sends `request` on the client's event loop and awaits the answer: the calling task is
    /// suspended, no thread waits. Cancelling the task cancels the request.
    ///
    /// - Parameters:
    ///   - request: the exchange to make: its method, URL, token and namespace headers, and body.
    ///   - deadline: when the exchange must have ended, connecting, TLS and the whole body included.
    /// - Returns: the server's answer, whatever its HTTP status, with its body (at most 4 MiB) in
    ///   memory that is wiped on release.
    /// - Throws: what the blocking `send(_:deadline:)` throws; `VaultTransportError.connection`
    ///   when the task was cancelled (the core then throws `KeychainError.cancelled`).
    public func send(
        _ request: VaultRequest,
        deadline: ContinuousClock.Instant
    ) async throws(VaultTransportError) -> VaultResponse {
        let limit = try Self.nioDeadline(deadline)
        var outgoing = HTTPClientRequest(url: request.url)
        outgoing.method = HTTPMethod(rawValue: request.method)
        outgoing.headers = Self.headers(of: request)
        if let body = request.body { outgoing.body = .bytes(body.withUnsafeBytes { ByteBuffer(bytes: $0) }) }
        let response: HTTPClientResponse
        do {
            response = try await client.execute(outgoing, deadline: limit)
        } catch {
            throw Self.transportError(error)
        }
        do {
            let body = try await response.body.collect(upTo: Self.maximumBodySize)
            return Self.answer(response.status, response.headers, body)
        } catch {
            // The server answered and then broke off its body (closed early, as a truncated answer
            // does): not a connection to retry, but an answer that is not the API's.
            switch Self.transportError(error) {
            case .connection(let reason) where !Task.isCancelled:
                throw .invalidResponse("the answer ended before its body did (\(reason))")
            case let failure: throw failure
            }
        }
    }

    private static let maximumBodySize = 4 << 20

    /// `deadline` on NIO's clock; throws `timeout` when it has passed.
    private static func nioDeadline(_ deadline: ContinuousClock.Instant) throws(VaultTransportError) -> NIODeadline {
        let remaining = deadline - .now
        guard remaining > .zero else { throw .timeout }
        let (seconds, attoseconds) = remaining.components
        return .now() + .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    /// The token, namespace and content-type headers. The token becomes a `String` here, which
    /// AsyncHTTPClient keeps until the request is written (not wiped).
    private static func headers(of request: VaultRequest) -> HTTPHeaders {
        var headers = HTTPHeaders()
        if let token = request.token {
            headers.add(name: "X-Vault-Token", value: token.withUnsafeBytes { String(decoding: $0, as: UTF8.self) })
        }
        if let namespace = request.namespace { headers.add(name: "X-Vault-Namespace", value: namespace) }
        if request.body != nil { headers.add(name: "Content-Type", value: "application/json") }
        return headers
    }

    /// The answer, its body copied into wiped-on-release memory.
    private static func answer(
        _ status: HTTPResponseStatus,
        _ headers: HTTPHeaders,
        _ body: ByteBuffer
    ) -> VaultResponse {
        VaultResponse(
            status: Int(status.code),
            location: headers.first(name: "Location"),
            body: SecureBytes(count: body.readableBytes) { output in
                body.withUnsafeReadableBytes { output.copyMemory(from: $0) }
            }
        )
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
            case .invalidURL, .emptyHost, .emptyScheme: return .unusable("\(error)")
            default: return .invalidResponse("\(error)")
            }
        }
        if error is ResponseAccumulator.ResponseTooBigError || error is NIOTooManyBytesError {
            return .invalidResponse("a body over 4 MiB")
        }
        if error is CancellationError { return .connection("cancelled") }
        if error is HTTPParserError { return .invalidResponse("\(error)") }
        return .connection(String(describing: error))
    }
}
