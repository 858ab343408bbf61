/// A parsed JSON value (RFC 8259), for the small documents envelopes carry: JOSE headers, JWKs and
/// legacy `{iv, mac, payload}` envelopes. Numbers keep their text so that integers stay exact.
package enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The string, if this is one.
    package var string: String? {
        if case .string(let value) = self { value } else { nil }
    }

    /// The integer, if this is a number without fraction or exponent that fits an `Int`.
    package var integer: Int? {
        if case .number(let text) = self { Int(text) } else { nil }
    }

    /// The members, if this is an object.
    package var object: [String: JSONValue]? {
        if case .object(let members) = self { members } else { nil }
    }

    /// The elements, if this is an array.
    package var array: [JSONValue]? {
        if case .array(let elements) = self { elements } else { nil }
    }

    /// Parses one JSON value that fills `bytes` (white space around it allowed). Objects with a
    /// repeated member name are refused (RFC 7516 §4 allows refusing them; accepting one of the two
    /// would let a header say two things). Nesting is limited to `maximumDepth`.
    package init(parsing bytes: some Collection<UInt8>, maximumDepth: Int = 32) throws(JSONError) {
        if let value = try bytes.withContiguousBytesIfAvailable({ (buffer) throws(JSONError) in
            var parser = JSONParser(bytes: buffer, maximumDepth: maximumDepth)
            return try parser.parseDocument()
        }) {
            self = value
            return
        }
        let copy = Array(bytes)
        self = try copy.withUnsafeBufferPointer { (buffer) throws(JSONError) in
            var parser = JSONParser(bytes: UnsafeRawBufferPointer(buffer), maximumDepth: maximumDepth)
            return try parser.parseDocument()
        }
    }
}

/// Why a JSON text could not be parsed: the reason and the byte offset, never the text itself.
package struct JSONError: Error, Equatable, Sendable, CustomStringConvertible {
    package let reason: String
    package let offset: Int

    package var description: String { "invalid JSON at byte \(offset + 1): \(reason)" }
}

private struct JSONParser {
    let bytes: UnsafeRawBufferPointer
    let maximumDepth: Int
    var index = 0
    var depth = 0

    init(bytes: UnsafeRawBufferPointer, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    mutating func parseDocument() throws(JSONError) -> JSONValue {
        let value = try parseValue()
        skipWhiteSpace()
        guard index == bytes.count else { throw fail("unexpected data after the value") }
        return value
    }

    private func fail(_ reason: String) -> JSONError { JSONError(reason: reason, offset: index) }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhiteSpace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0a || byte == 0x0d { index += 1 }
    }

    private mutating func expect(_ literal: StaticString) throws(JSONError) {
        let matches = literal.withUTF8Buffer { expected in
            index + expected.count <= bytes.count && expected.indices.allSatisfy { bytes[index + $0] == expected[$0] }
        }
        guard matches else { throw fail("invalid literal") }
        index += literal.utf8CodeUnitCount
    }

    private mutating func parseValue() throws(JSONError) -> JSONValue {
        skipWhiteSpace()
        guard let byte = current else { throw fail("unexpected end of input") }
        switch byte {
        case UInt8(ascii: "{"): return .object(try parseObject())
        case UInt8(ascii: "["): return .array(try parseArray())
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expect("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expect("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expect("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw fail("unexpected character")
        }
    }

    private mutating func enter() throws(JSONError) {
        depth += 1
        guard depth <= maximumDepth else { throw fail("nested more than \(maximumDepth) levels deep") }
        index += 1
        skipWhiteSpace()
    }

    private mutating func parseObject() throws(JSONError) -> [String: JSONValue] {
        try enter()
        defer { depth -= 1 }
        var members: [String: JSONValue] = [:]
        if current == UInt8(ascii: "}") {
            index += 1
            return members
        }
        while true {
            skipWhiteSpace()
            guard current == UInt8(ascii: "\"") else { throw fail("expected a member name") }
            let nameOffset = index
            let name = try parseString()
            skipWhiteSpace()
            guard current == UInt8(ascii: ":") else { throw fail("expected ':'") }
            index += 1
            let value = try parseValue()
            guard members.updateValue(value, forKey: name) == nil else {
                throw JSONError(reason: "a member name appears twice", offset: nameOffset)
            }
            skipWhiteSpace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return members
            default: throw fail("expected ',' or '}'")
            }
        }
    }

    private mutating func parseArray() throws(JSONError) -> [JSONValue] {
        try enter()
        defer { depth -= 1 }
        var elements: [JSONValue] = []
        if current == UInt8(ascii: "]") {
            index += 1
            return elements
        }
        while true {
            elements.append(try parseValue())
            skipWhiteSpace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return elements
            default: throw fail("expected ',' or ']'")
            }
        }
    }

    private mutating func parseNumber() throws(JSONError) -> String {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        if current == UInt8(ascii: "0") {
            index += 1
        } else {
            guard try skipDigits() > 0 else { throw fail("invalid number") }
        }
        if current == UInt8(ascii: ".") {
            index += 1
            guard try skipDigits() > 0 else { throw fail("invalid number") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard try skipDigits() > 0 else { throw fail("invalid number") }
        }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }

    private mutating func skipDigits() throws(JSONError) -> Int {
        let start = index
        while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
        return index - start
    }

    private mutating func parseString() throws(JSONError) -> String {
        index += 1  // the opening quote
        let start = index
        // Fast path: no escapes.
        while let byte = current, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\"), byte >= 0x20 { index += 1 }
        if current == UInt8(ascii: "\"") {
            index += 1
            return try validatedString(UnsafeRawBufferPointer(rebasing: bytes[start..<index - 1]), at: start)
        }
        var utf8 = Array(UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
        while true {
            guard let byte = current else { throw fail("unterminated string") }
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return try utf8.withUnsafeBufferPointer { (buffer) throws(JSONError) in
                    try validatedString(UnsafeRawBufferPointer(buffer), at: start)
                }
            case UInt8(ascii: "\\"):
                index += 1
                try parseEscape(into: &utf8)
            case 0..<0x20:
                throw fail("control character in string")
            default:
                utf8.append(byte)
                index += 1
            }
        }
    }

    private mutating func parseEscape(into utf8: inout [UInt8]) throws(JSONError) {
        guard let byte = current else { throw fail("unterminated string") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(byte)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0c)
        case UInt8(ascii: "n"): utf8.append(0x0a)
        case UInt8(ascii: "r"): utf8.append(0x0d)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try parseHex4()
            if (0xd800..<0xdc00).contains(scalar) {
                // A high surrogate must be followed by an escaped low surrogate.
                guard current == UInt8(ascii: "\\") else { throw fail("unpaired surrogate") }
                index += 1
                guard current == UInt8(ascii: "u") else { throw fail("unpaired surrogate") }
                index += 1
                let low = try parseHex4()
                guard (0xdc00..<0xe000).contains(low) else { throw fail("unpaired surrogate") }
                scalar = 0x10000 + (scalar - 0xd800) << 10 + (low - 0xdc00)
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw fail("unpaired surrogate") }
            utf8.append(contentsOf: String(Character(unicode)).utf8)
        default:
            throw fail("invalid escape")
        }
    }

    private mutating func parseHex4() throws(JSONError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail("invalid \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw fail("invalid \\u escape")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private func validatedString(_ utf8: UnsafeRawBufferPointer, at offset: Int) throws(JSONError) -> String {
        guard let string = String(validating: utf8.bindMemory(to: UInt8.self), as: UTF8.self) else {
            throw JSONError(reason: "string is not valid UTF-8", offset: offset)
        }
        return string
    }
}
