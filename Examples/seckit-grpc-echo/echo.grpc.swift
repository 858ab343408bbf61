import GRPCCore
import GRPCProtobuf

// The `echo.Echo` service of Protos/echo.proto, its unary Get: the descriptors, the server's
// registration and the client call that protoc-gen-grpc-swift writes, written by hand once (the
// build runs no protoc plugin) and reduced to the one method.

/// `echo.Echo`'s descriptors.
enum Echo_Echo {
    static let descriptor = ServiceDescriptor(fullyQualifiedService: "echo.Echo")
    /// `/echo.Echo/Get`.
    static let get = MethodDescriptor(service: descriptor, method: "Get")
}

/// The server side of `echo.Echo`: `Get` answered by `get`.
struct EchoService: RegistrableRPCService {
    let get: @Sendable (Echo_EchoRequest, ServerContext) async throws -> Echo_EchoResponse

    func registerMethods<Transport: ServerTransport>(with router: inout RPCRouter<Transport>) {
        router.registerHandler(
            forMethod: Echo_Echo.get,
            deserializer: ProtobufDeserializer<Echo_EchoRequest>(),
            serializer: ProtobufSerializer<Echo_EchoResponse>()
        ) { request, context in
            let single = try await ServerRequest(stream: request)
            let response = try await get(single.message, context)
            return StreamingServerResponse(single: ServerResponse(message: response))
        }
    }
}

extension GRPCClient {
    /// Calls `echo.Echo/Get` with `text`.
    ///
    /// - Parameters:
    ///   - text: the request's text.
    ///   - options: the call's options (its timeout).
    /// - Returns: the response's text.
    /// - Throws: `RPCError` with the status the server (or the transport) ended the call with.
    func echo(_ text: String, options: CallOptions) async throws -> String {
        var request = Echo_EchoRequest()
        request.text = text
        return try await unary(
            request: ClientRequest(message: request),
            descriptor: Echo_Echo.get,
            serializer: ProtobufSerializer<Echo_EchoRequest>(),
            deserializer: ProtobufDeserializer<Echo_EchoResponse>(),
            options: options
        ) { response in try response.message.text }
    }
}
