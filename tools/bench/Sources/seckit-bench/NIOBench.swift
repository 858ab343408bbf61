import AsyncHTTPClient
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS
import SecKitHTTPClient
import SecKitHummingbird
import SecKitNIO
import SecTLS

#if canImport(Glibc)
import Glibc
#endif

// MARK: SwiftNIO, AsyncHTTPClient and Hummingbird

// The `nio` part's benchmarks come in pairs: the same work verified by swift-nio-ssl (BoringSSL)
// alone, and with SecKit's verification. One operation is one new connection with a full handshake
// (swift-nio-ssl clients keep no sessions to resume), made from the main thread, which waits for
// it on a one-thread client event loop; servers run in-process on an event loop group of their own. The throwaway PKI (root CA,
// intermediate CA, leaf certificates for 127.0.0.1/localhost and for a client) is tools/bench/run's,
// named by the environment:
//
//   SECKIT_BENCH_NIO_PORT          the port on 127.0.0.1 of its `openssl s_server` (handshakes)
//   SECKIT_BENCH_NIO_CA            the root CA, the only trust anchor of every client and server
//   SECKIT_BENCH_NIO_PIN           the server leaf's SPKI pin (sha256/…)
//   SECKIT_BENCH_NIO_SERVER_CHAIN  the server leaf and the intermediate, PEM; _SERVER_KEY its key
//   SECKIT_BENCH_NIO_CLIENT_CHAIN  the client leaf and the intermediate, PEM; _CLIENT_KEY its key
//
// `result=` names what was checked on the first operation, so the run can tell that both variants
// did the same work.

/// The value of an environment variable the run sets, or a failure naming it.
func setting(_ variable: String, for name: String) -> String {
    guard let value = getenv(variable).map({ String(cString: $0) }), !value.isEmpty else {
        fail("\(name): \(variable) is not set")
    }
    return value
}

/// The single client event loop every benchmark's connections run on.
let clientGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)

func attempt<T>(_ name: String, _ body: () throws -> T) -> T {
    do { return try body() } catch { fail("\(name): \(error)") }
}

/// `nio-handshake` and `nio-handshake-seckit`: ClientBootstrap connect to the `openssl s_server`,
/// full TLS handshake with SNI localhost, close. Plain: `NIOSSLClientHandler` with swift-nio-ssl's
/// full verification against the CA. SecKit: `ClientTLSContext` (`.caFile`, a pin policy for
/// localhost with the leaf's pin) and its `addHandlers`, whose future is the verified chain.
func nioHandshake(secKit: Bool) -> Benchmark {
    let name = secKit ? "nio-handshake-seckit" : "nio-handshake"
    return Benchmark(
        name: name,
        summary: "NIO connect + TLS handshake + close to s_server on $SECKIT_BENCH_NIO_PORT, "
            + (secKit ? "SecKitNIO ClientTLSContext with the leaf pin" : "NIOSSLClientHandler, full verification")
    ) {
        guard let port = Int(setting("SECKIT_BENCH_NIO_PORT", for: name)) else { fail("\(name): bad port") }
        let ca = setting("SECKIT_BENCH_NIO_CA", for: name)
        let handshake: @Sendable (EventLoopPromise<String>, Channel) throws -> Void
        if secKit {
            var configuration = TLSClientConfiguration(trustRoots: .caFile(ca))
            configuration.pinPolicy = attempt(name) {
                try PinPolicy(host: "localhost", pins: [Pin(parsing: setting("SECKIT_BENCH_NIO_PIN", for: name))])
            }
            let context = attempt(name) { try ClientTLSContext(configuration: configuration) }
            handshake = { promise, channel in
                let verified = try context.addHandlers(to: channel.pipeline.syncOperations, serverName: "localhost")
                verified.map { chain -> String in
                    guard case .matched(_, depth: 0) = chain.pinEvaluation.outcome else { return "not-pinned" }
                    return "handshake-leaf-pin-matched"
                }.cascade(to: promise)
            }
        } else {
            var configuration = NIOSSL.TLSConfiguration.makeClientConfiguration()
            configuration.trustRoots = .file(ca)
            let context = attempt(name) { try NIOSSLContext(configuration: configuration) }
            handshake = { promise, channel in
                let tls = try NIOSSLClientHandler(context: context, serverHostname: "localhost")
                try channel.pipeline.syncOperations.addHandler(tls)
                try channel.pipeline.syncOperations.addHandler(HandshakeCompletion(promise))
            }
        }
        func connect() -> String {
            attempt(name) {
                let loop = clientGroup.next()
                let promise = loop.makePromise(of: String.self)
                let channel = try ClientBootstrap(group: loop)
                    .channelInitializer { channel in
                        channel.eventLoop.makeCompletedFuture { try handshake(promise, channel) }
                    }
                    .connect(host: "127.0.0.1", port: port).wait()
                let outcome = Result { try promise.futureResult.wait() }
                channel.close(promise: nil)
                try channel.closeFuture.wait()
                return try outcome.get()
            }
        }
        return Prepared(operation: { UInt8(truncatingIfNeeded: connect().utf8.count) }, result: connect())
    }
}

/// Completes a promise when swift-nio-ssl's handshake has completed, or fails it with the
/// handshake's error.
private final class HandshakeCompletion: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    private let promise: EventLoopPromise<String>

    init(_ promise: EventLoopPromise<String>) { self.promise = promise }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case TLSUserEvent.handshakeCompleted = event { promise.succeed("handshake-no-pin") }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        promise.fail(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        promise.fail(ChannelError.ioOnClosedChannel)
        context.fireChannelInactive()
    }
}

/// The event loop of the in-process servers, apart from the clients'.
let serverGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)

/// Starts a Hummingbird HTTP/1.1 server on 127.0.0.1 (a free port) that answers GET / with `ok`,
/// or with the subject of the client SecKit verified; returns its port once it listens.
private func startServer(_ server: HTTPServerBuilder, name: String) -> Int {
    let router = Router()
    router.get("/") { _, _ in MutualTLS.verifiedClient.map { "client \($0.subject)" } ?? "ok" }
    let listening = serverGroup.next().makePromise(of: Int.self)
    var logger = Logger(label: name)
    logger.logLevel = .error
    let app = Application(
        router: router,
        server: server,
        configuration: .init(address: .hostname("127.0.0.1", port: 0)),
        onServerRunning: { channel in listening.succeed(channel.localAddress?.port ?? 0) },
        eventLoopGroupProvider: .shared(serverGroup),
        logger: logger
    )
    Task.detached {
        do { try await app.runService(gracefulShutdownSignals: []) } catch { fail("\(name): server: \(error)") }
    }
    return attempt(name) { try listening.futureResult.wait() }
}

/// An AsyncHTTPClient on the client event loop whose every GET goes on a new connection: the
/// request says `connection: close`, so the connection is closed after its response and never
/// pooled. Returns the operation: one GET of `https://127.0.0.1:port/`, its body.
private func getter(_ configuration: HTTPClient.Configuration, port: Int, name: String) -> () -> String {
    let client = HTTPClient(eventLoopGroup: clientGroup, configuration: configuration)
    let request = attempt(name) {
        try HTTPClient.Request(url: "https://127.0.0.1:\(port)/", method: .GET, headers: ["connection": "close"])
    }
    return {
        attempt(name) {
            let response = try client.execute(request: request).wait()
            guard response.status == .ok, let body = response.body else { fail("\(name): \(response.status)") }
            return String(buffer: body)
        }
    }
}

private func plainClientConfiguration(identity: Bool, name: String) -> HTTPClient.Configuration {
    var tls = NIOSSL.TLSConfiguration.makeClientConfiguration()
    tls.trustRoots = .file(setting("SECKIT_BENCH_NIO_CA", for: name))
    if identity {
        tls.certificateChain = attempt(name) {
            try NIOSSLCertificate.fromPEMFile(setting("SECKIT_BENCH_NIO_CLIENT_CHAIN", for: name)).map {
                .certificate($0)
            }
        }
        tls.privateKey = privateKey("SECKIT_BENCH_NIO_CLIENT_KEY", name)
    }
    var configuration = HTTPClient.Configuration()
    configuration.tlsConfiguration = tls
    return configuration
}

private func privateKey(_ variable: String, _ name: String) -> NIOSSLPrivateKeySource {
    attempt(name) { .privateKey(try NIOSSLPrivateKey(file: setting(variable, for: name), format: .pem)) }
}

private func serverChain(_ name: String) -> [NIOSSLCertificateSource] {
    attempt(name) {
        try NIOSSLCertificate.fromPEMFile(setting("SECKIT_BENCH_NIO_SERVER_CHAIN", for: name)).map { .certificate($0) }
    }
}

/// `ahc-get` and `ahc-get-seckit`: one AsyncHTTPClient GET on a new connection (full handshake) to
/// an in-process Hummingbird server with swift-nio-ssl TLS. Plain: `HTTPClient.Configuration` with
/// swift-nio-ssl TLS trusting the CA. SecKit: `HTTPClient.Configuration(secKit:)` with the CA and
/// the leaf's pin for localhost; its pin evaluations are counted to show one per request.
func httpClientGet(secKit: Bool) -> Benchmark {
    let name = secKit ? "ahc-get-seckit" : "ahc-get"
    return Benchmark(
        name: name,
        summary: "AsyncHTTPClient GET, connection: close, in-process Hummingbird TLS server, "
            + (secKit ? "HTTPClient.Configuration(secKit:) with the leaf pin" : "swift-nio-ssl TLS")
    ) {
        let tls = NIOSSL.TLSConfiguration.makeServerConfiguration(
            certificateChain: serverChain(name),
            privateKey: privateKey("SECKIT_BENCH_NIO_SERVER_KEY", name)
        )
        let port = startServer(attempt(name) { try .tls(tlsConfiguration: tls) }, name: name)
        let evaluations = NIOLockedValueBox(0)
        let configuration: HTTPClient.Configuration
        if secKit {
            var secKitConfiguration = TLSClientConfiguration(
                trustRoots: .caFile(setting("SECKIT_BENCH_NIO_CA", for: name))
            )
            secKitConfiguration.pinPolicy = attempt(name) {
                try PinPolicy(host: "localhost", pins: [Pin(parsing: setting("SECKIT_BENCH_NIO_PIN", for: name))])
            }
            configuration = attempt(name) {
                try HTTPClient.Configuration(secKit: secKitConfiguration) { evaluation in
                    if case .matched(_, depth: 0) = evaluation.outcome { evaluations.withLockedValue { $0 += 1 } }
                }
            }
        } else {
            configuration = plainClientConfiguration(identity: false, name: name)
        }
        let get = getter(configuration, port: port, name: name)
        var result = get()
        for _ in 1..<3 { result = get() }
        if secKit {
            let matched = evaluations.withLockedValue { $0 }
            guard matched == 3 else { fail("\(name): \(matched) pin matches for 3 requests: connections were reused") }
            result += "-3-connections-pinned"
        }
        return Prepared(operation: { UInt8(truncatingIfNeeded: get().utf8.count) }, result: result)
    }
}

/// `mtls-get` and `mtls-get-seckit`: one AsyncHTTPClient GET on a new connection, presenting the
/// client certificate, to an in-process Hummingbird server that requires one. Plain: `.tls` with
/// swift-nio-ssl's client verification against the CA. SecKit: `.mutualTLS` with a
/// `ServerTLSContext` whose `ClientCertificateVerifier` trusts the CA (the server's key held by
/// OpenSSL). The client is the same swift-nio-ssl one for both.
func mutualTLSGet(secKit: Bool) -> Benchmark {
    let name = secKit ? "mtls-get-seckit" : "mtls-get"
    return Benchmark(
        name: name,
        summary: "AsyncHTTPClient GET with a client certificate, connection: close, to Hummingbird "
            + (secKit ? ".mutualTLS (SecKit's client verification)" : ".tls (swift-nio-ssl's client verification)")
    ) {
        let ca = setting("SECKIT_BENCH_NIO_CA", for: name)
        let server: HTTPServerBuilder
        if secKit {
            let context = attempt(name) {
                try ServerTLSContext(
                    identity: ClientIdentity(
                        certificateFile: setting("SECKIT_BENCH_NIO_SERVER_CHAIN", for: name),
                        keyFile: setting("SECKIT_BENCH_NIO_SERVER_KEY", for: name)
                    ),
                    clientVerifier: ClientCertificateVerifier(clientCA: .caFile(ca))
                )
            }
            server = .mutualTLS(context: context)
        } else {
            var tls = NIOSSL.TLSConfiguration.makeServerConfiguration(
                certificateChain: serverChain(name),
                privateKey: privateKey("SECKIT_BENCH_NIO_SERVER_KEY", name)
            )
            tls.certificateVerification = .noHostnameVerification
            tls.trustRoots = .file(ca)
            server = attempt(name) { try .tls(tlsConfiguration: tls) }
        }
        let port = startServer(server, name: name)
        let get = getter(plainClientConfiguration(identity: true, name: name), port: port, name: name)
        return Prepared(operation: { UInt8(truncatingIfNeeded: get().utf8.count) }, result: get())
    }
}
