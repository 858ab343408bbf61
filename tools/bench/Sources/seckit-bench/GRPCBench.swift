import GRPCCore
import GRPCNIOTransportHTTP2
import NIOCore
import SecKitGRPC
import SecKitNIO
import SecTLS

// MARK: gRPC

// `grpc-unary` and `grpc-unary-seckit`: one unary RPC on a new connection (a full mutual TLS
// handshake, HTTP/2 set-up, the call, a graceful close), to an in-process gRPC server that requires
// a client certificate. Plain: grpc-swift-nio-transport's own TLS on both ends (HTTP2ClientTransport
// and HTTP2ServerTransport.Posix with `.mTLS`, swift-nio-ssl verifying the server and the client
// against the CA). SecKit: `ClientTLSContext(grpc:)` with the leaf's pin and `connectGRPC`, against
// `MutualTLSServerTransport` with a `ServerTLSContext` whose verifier trusts the CA. The client
// identity and the server are the bench PKI's (the `nio` part's variables). The calls are awaited
// in a row, `callsPerRun` per call of the timing loop, as HTTPAuthBench.swift does for its requests.
// The messages are the request's bytes as they are (both sides use the same codec).

private let callsPerRun = 8

/// UTF-8 text as the message bytes.
private struct TextCodec: MessageSerializer, MessageDeserializer {
    func serialize<Bytes: GRPCContiguousBytes>(_ message: String) throws -> Bytes { Bytes(message.utf8) }

    func deserialize<Bytes: GRPCContiguousBytes>(_ serializedMessageBytes: Bytes) throws -> String {
        serializedMessageBytes.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }
}

private let method = MethodDescriptor(fullyQualifiedService: "bench.Echo", method: "Get")

/// `bench.Echo/Get`: answers `client SUBJECT` when SecKit verified the client, else `ok`.
private struct BenchService: RegistrableRPCService {
    func registerMethods<Transport: ServerTransport>(with router: inout RPCRouter<Transport>) {
        router.registerHandler(forMethod: method, deserializer: TextCodec(), serializer: TextCodec()) {
            request,
            context in
            _ = try await ServerRequest(stream: request)
            let answer = context.verifiedClient.map { "client \($0.subject)" } ?? "ok"
            return StreamingServerResponse(single: ServerResponse(message: answer))
        }
    }
}

private func call<Transport: ClientTransport>(_ client: GRPCClient<Transport>) async throws -> String {
    try await client.unary(
        request: ClientRequest(message: "ping"),
        descriptor: method,
        serializer: TextCodec(),
        deserializer: TextCodec(),
        options: .defaults
    ) { try $0.message }
}

/// Runs `server` on the server event loop until the process ends; the port it listens on.
private func start<Transport: ListeningServerTransport>(_ transport: Transport, name: String) -> Int {
    let server = GRPCServer(transport: transport, services: [BenchService()])
    Task.detached {
        do { try await server.serve() } catch { fail("\(name): server: \(error)") }
    }
    return blocking(name) {
        guard let port = try await transport.listeningAddress.ipv4?.port else { fail("\(name): not IPv4") }
        return port
    }
}

func grpcUnary(secKit: Bool) -> Benchmark {
    let name = secKit ? "grpc-unary-seckit" : "grpc-unary"
    return Benchmark(
        name: name,
        summary: "gRPC unary call on a new mutual TLS connection to an in-process server, "
            + (secKit
                ? "SecKitGRPC (connectGRPC with the leaf pin, MutualTLSServerTransport)"
                : "grpc-swift-nio-transport's own TLS (.mTLS on both ends)")
    ) {
        let ca = setting("SECKIT_BENCH_NIO_CA", for: name)
        let serverChain = setting("SECKIT_BENCH_NIO_SERVER_CHAIN", for: name)
        let serverKey = setting("SECKIT_BENCH_NIO_SERVER_KEY", for: name)
        let clientChain = setting("SECKIT_BENCH_NIO_CLIENT_CHAIN", for: name)
        let clientKey = setting("SECKIT_BENCH_NIO_CLIENT_KEY", for: name)
        let once: @Sendable () async throws -> String
        if secKit {
            let server = attempt(name) {
                try MutualTLSServerTransport(
                    host: "127.0.0.1",
                    port: 0,
                    context: try ServerTLSContext(
                        grpcIdentity: ClientIdentity(certificateFile: serverChain, keyFile: serverKey),
                        clientVerifier: ClientCertificateVerifier(clientCA: .caFile(ca))
                    ),
                    eventLoopGroup: serverGroup
                )
            }
            let port = start(server, name: name)
            var configuration = TLSClientConfiguration(
                trustRoots: .caFile(ca),
                clientIdentity: attempt(name) { try ClientIdentity(certificateFile: clientChain, keyFile: clientKey) }
            )
            configuration.pinPolicy = attempt(name) {
                try PinPolicy(host: "127.0.0.1", pins: [Pin(parsing: setting("SECKIT_BENCH_NIO_PIN", for: name))])
            }
            let context = attempt(name) { try ClientTLSContext(grpc: configuration) }
            once = {
                let connection = try await context.connectGRPC(host: "127.0.0.1", port: port, on: clientGroup)
                guard case .matched(_, depth: 0) = connection.verified.pinEvaluation.outcome else {
                    return "not-pinned"
                }
                return try await withGRPCClient(transport: connection) { try await call($0) }
            }
        } else {
            let server = HTTP2ServerTransport.Posix(
                address: .ipv4(host: "127.0.0.1", port: 0),
                transportSecurity: .mTLS(
                    certificateChain: [.file(path: serverChain, format: .pem)],
                    privateKey: .file(path: serverKey, format: .pem)
                ) { $0.trustRoots = .certificates([.file(path: ca, format: .pem)]) },
                eventLoopGroup: serverGroup
            )
            let port = start(server, name: name)
            once = {
                let transport = try HTTP2ClientTransport.Posix(
                    target: .ipv4(address: "127.0.0.1", port: port),
                    transportSecurity: .mTLS(
                        certificateChain: [.file(path: clientChain, format: .pem)],
                        privateKey: .file(path: clientKey, format: .pem)
                    ) { $0.trustRoots = .certificates([.file(path: ca, format: .pem)]) },
                    eventLoopGroup: clientGroup
                )
                return try await withGRPCClient(transport: transport) { try await call($0) }
            }
        }
        return sequence(of: once, name: name, result: blocking(name, once), count: callsPerRun)
    }
}
