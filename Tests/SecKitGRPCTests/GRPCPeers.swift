import Foundation
import GRPCCore
import GRPCProtobuf
import SwiftProtobuf
import TestSupport

/// grpcio's echo.Echo server (`Tests/Peers/grpc_echo_peer.py serve`) with the fixture's server
/// certificate (leaf-rsa, with its chain), on a free port of 127.0.0.1.
enum GRPCEchoPeer {
    static func serve(_ fixture: TestPKI) throws -> AnnouncingServer {
        let command = try InteropPeer.grpcEcho.commandLine()
        return try AnnouncingServer(
            command[0],
            Array(command.dropFirst()) + ["serve", "--cert", "chain.pem", "--key", "leaf-rsa.key"],
            in: fixture.url(".")
        )
    }

    /// One Get by grpcio to 127.0.0.1:`port`, trusting the fixture's CA, as the client `<identity>.pem`
    /// (`<identity>.key`) or without a certificate, off the cooperative pool (the server under test
    /// needs it).
    static func call(port: Int, identity: String?, text: String, _ fixture: TestPKI) async throws -> ProcessResult {
        var command = ["call", "--target", "127.0.0.1:\(port)", "--ca", fixture.path("ca.pem"), "--text", text]
        if let identity {
            command += ["--cert", fixture.path("\(identity).pem"), "--key", fixture.path("\(identity).key")]
        }
        let arguments = command
        return try await ProcessRunner.offThePool { try InteropPeer.grpcEcho.runAllowingFailure(arguments) }
    }
}

/// `echo.Echo/Get` in the tests: `Google_Protobuf_StringValue` is `string value = 1`, the same
/// wire form as EchoRequest and EchoResponse (`string text = 1`).
enum EchoMethod {
    static let descriptor = MethodDescriptor(fullyQualifiedService: "echo.Echo", method: "Get")

    /// A service whose Get answers with `answer(request text, context)`.
    struct Service: RegistrableRPCService {
        let answer: @Sendable (String, ServerContext) throws -> String

        func registerMethods<Transport: ServerTransport>(with router: inout RPCRouter<Transport>) {
            router.registerHandler(
                forMethod: EchoMethod.descriptor,
                deserializer: ProtobufDeserializer<Google_Protobuf_StringValue>(),
                serializer: ProtobufSerializer<Google_Protobuf_StringValue>()
            ) { request, context in
                let single = try await ServerRequest(stream: request)
                let text = try answer(single.message.value, context)
                return StreamingServerResponse(single: ServerResponse(message: .init(text)))
            }
        }
    }

    /// Calls Get with `text` on `client`; the response's text.
    static func call<Transport: ClientTransport>(_ client: GRPCClient<Transport>, _ text: String) async throws -> String
    {
        try await client.unary(
            request: ClientRequest(message: Google_Protobuf_StringValue(text)),
            descriptor: descriptor,
            serializer: ProtobufSerializer<Google_Protobuf_StringValue>(),
            deserializer: ProtobufDeserializer<Google_Protobuf_StringValue>(),
            options: .defaults
        ) { try $0.message.value }
    }
}
