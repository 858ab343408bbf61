import SwiftProtobuf

// The messages of Protos/echo.proto, with what protoc-gen-swift writes for them (the name map,
// decoding, traversal, equality), written by hand once: the build runs no protoc plugin. Both
// messages are one `string text = 1`, so they share that code.

/// `echo.EchoRequest`: the text of a message to be echoed.
struct Echo_EchoRequest: EchoTextMessage {
    static let protoMessageName = "echo.EchoRequest"
    var text = ""
    var unknownFields = SwiftProtobuf.UnknownStorage()
}

/// `echo.EchoResponse`: the text of an echo response.
struct Echo_EchoResponse: EchoTextMessage {
    static let protoMessageName = "echo.EchoResponse"
    var text = ""
    var unknownFields = SwiftProtobuf.UnknownStorage()
}

/// A message whose one field is `string text = 1`; unknown fields are kept, as generated code keeps
/// them.
protocol EchoTextMessage: SwiftProtobuf._MessageImplementationBase, SwiftProtobuf._ProtoNameProviding {
    var text: String { get set }
}

extension EchoTextMessage {
    static var _protobuf_nameMap: SwiftProtobuf._NameMap { [1: .same(proto: "text")] }

    mutating func decodeMessage<D: SwiftProtobuf.Decoder>(decoder: inout D) throws {
        while let fieldNumber = try decoder.nextFieldNumber() {
            if fieldNumber == 1 { try decoder.decodeSingularStringField(value: &text) }
        }
    }

    func traverse<V: SwiftProtobuf.Visitor>(visitor: inout V) throws {
        if !text.isEmpty { try visitor.visitSingularStringField(value: text, fieldNumber: 1) }
        try unknownFields.traverse(visitor: &visitor)
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.text == rhs.text && lhs.unknownFields == rhs.unknownFields
    }
}
