/// Writes compact JSON with members in the order given, so that a header or envelope is
/// byte-for-byte predictable.
package struct JSONWriter {
    package private(set) var bytes: [UInt8] = []

    package init() {}

    /// Writes an object whose members are written by `body` with `member(_:_:)`.
    package mutating func object(_ body: (inout ObjectWriter) -> Void) {
        bytes.append(UInt8(ascii: "{"))
        var writer = ObjectWriter(writer: self)
        self = JSONWriter()  // `writer` owns the bytes while the body runs
        body(&writer)
        self = writer.writer
        bytes.append(UInt8(ascii: "}"))
    }

    /// Writes one value.
    package mutating func value(_ value: JSONValue) {
        switch value {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .bool(let flag): bytes.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let text): bytes.append(contentsOf: text.utf8)
        case .string(let text): string(text)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                self.value(element)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            object { object in
                for name in members.keys.sorted() { object.member(name, members[name]!) }
            }
        }
    }

    /// Writes a string with the escapes RFC 8259 requires (quote, backslash, control characters).
    package mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
            case 0x0a: bytes.append(contentsOf: #"\n"#.utf8)
            case 0x0d: bytes.append(contentsOf: #"\r"#.utf8)
            case 0x09: bytes.append(contentsOf: #"\t"#.utf8)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: #"\u00"#.utf8)
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0f)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Writes the members of one object, with commas between them.
    package struct ObjectWriter {
        fileprivate var writer: JSONWriter
        private var isFirst = true

        fileprivate init(writer: JSONWriter) { self.writer = writer }

        package mutating func member(_ name: String, _ value: JSONValue) {
            if !isFirst { writer.bytes.append(UInt8(ascii: ",")) }
            isFirst = false
            writer.string(name)
            writer.bytes.append(UInt8(ascii: ":"))
            writer.value(value)
        }
    }
}
