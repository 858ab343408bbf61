import Foundation
import Testing

@testable import SecEnvelope

/// The small RFC 8259 parser and writer behind JOSE headers, JWKs and legacy envelopes.
@Suite struct JSONValueTests {
    private static func parse(_ text: String, maximumDepth: Int = 32) throws -> JSONValue {
        try JSONValue(parsing: Array(text.utf8), maximumDepth: maximumDepth)
    }

    /// Expects `bytes` to be refused; returns the error.
    @discardableResult
    private static func expectRefused(
        _ bytes: [UInt8],
        maximumDepth: Int = 32,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> JSONError? {
        #expect(
            throws: JSONError.self,
            "\(String(decoding: bytes, as: UTF8.self).debugDescription)",
            sourceLocation: sourceLocation
        ) {
            try JSONValue(parsing: bytes, maximumDepth: maximumDepth)
        }
    }

    @discardableResult
    private static func expectRefused(
        _ text: String,
        maximumDepth: Int = 32,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> JSONError? {
        expectRefused(Array(text.utf8), maximumDepth: maximumDepth, sourceLocation: sourceLocation)
    }

    // MARK: Accepted

    /// RFC 8259 §13: the two examples, and the small texts of the same section.
    @Test func rfc8259Examples() throws {
        let image = try Self.parse(
            """
            {
              "Image": {
                  "Width":  800,
                  "Height": 600,
                  "Title":  "View from 15th Floor",
                  "Thumbnail": {
                      "Url":    "http://www.example.com/image/481989943",
                      "Height": 125,
                      "Width":  100
                  },
                  "Animated" : false,
                  "IDs": [116, 943, 234, 38793]
                }
            }
            """
        )
        let members = try #require(image.object?["Image"]?.object)
        #expect(members["Width"]?.integer == 800)
        #expect(members["Title"]?.string == "View from 15th Floor")
        #expect(members["Thumbnail"]?.object?["Url"]?.string == "http://www.example.com/image/481989943")
        #expect(members["Animated"] == .bool(false))
        #expect(members["IDs"]?.array?.compactMap(\.integer) == [116, 943, 234, 38793])

        let places = try Self.parse(
            """
            [
              {
                 "precision": "zip",
                 "Latitude":  37.7668,
                 "Longitude": -122.3959,
                 "Address":   "",
                 "City":      "SAN FRANCISCO",
                 "State":     "CA",
                 "Zip":       "94107",
                 "Country":   "US"
              },
              {
                 "precision": "zip",
                 "Latitude":  37.371991,
                 "Longitude": -122.026020,
                 "Address":   "",
                 "City":      "SUNNYVALE",
                 "State":     "CA",
                 "Zip":       "94085",
                 "Country":   "US"
              }
            ]
            """
        )
        let array = try #require(places.array)
        #expect(array.count == 2)
        #expect(array[0].object?["Latitude"] == .number("37.7668"))
        #expect(array[1].object?["Longitude"] == .number("-122.026020"))
        #expect(array[1].object?["Address"] == .string(""))
        #expect(array[1].object?["Longitude"]?.integer == nil)

        #expect(try Self.parse(#""Hello world!""#) == .string("Hello world!"))
        #expect(try Self.parse("42") == .number("42"))
        #expect(try Self.parse("true") == .bool(true))
        #expect(try Self.parse(" \t\r\n null \n") == .null)
        #expect(try Self.parse("[]") == .array([]))
        #expect(try Self.parse("{ }") == .object([:]))
    }

    /// Numbers keep their text; `integer` is there only for integers that fit an `Int`.
    @Test(
        arguments: [
            ("0", 0), ("-0", 0), ("1", 1), ("-1", -1), ("9223372036854775807", Int.max),
            ("-9223372036854775808", Int.min),
            ("1.5", nil), ("1e3", nil), ("1E+3", nil), ("-0.0e-2", nil), ("9223372036854775808", nil), ("10.0", nil),
        ] as [(String, Int?)]
    )
    func numbers(_ text: String, _ integer: Int?) throws {
        let value = try Self.parse(text)
        #expect(value == .number(text))
        #expect(value.integer == integer)
    }

    /// Every escape RFC 8259 defines, `\u` in either case, and surrogate pairs.
    @Test(arguments: [
        (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{8}\u{c}\n\r\t"),
        (#""\u0041\u00e9\u20AC\u0000\u001f""#, "Aé€\u{0}\u{1f}"),
        (#""\ud83d\ude00""#, "😀"),
        (#""\uD834\uDD1E clef""#, "𝄞 clef"),
        (#""\uDBFF\uDFFF""#, "\u{10FFFF}"),
        (#""\ud800\udc00""#, "\u{10000}"),
        (#""a\u0022b""#, "a\"b"),
        ("\"raw é € 😀\"", "raw é € 😀"),
        ("\"\u{7f}\"", "\u{7f}"),
    ])
    func escapes(_ text: String, _ expected: String) throws {
        #expect(try Self.parse(text) == .string(expected))
        #expect(try Self.parse("{\(text):\(text)}") == .object([expected: .string(expected)]))
    }

    // MARK: Refused

    @Test(arguments: ["{} x", "1 2", "{}}", "[]]", "\"a\"\"b\"", "null null", "{}\u{0}", "true,", "[1] [2]", "0 1"])
    func trailingData(_ text: String) {
        Self.expectRefused(text)
    }

    /// Unescaped control characters (U+0000–U+001F) inside strings.
    @Test func controlCharacters() {
        for byte in UInt8(0)..<0x20 {
            Self.expectRefused([0x22, 0x61, byte, 0x62, 0x22])
            Self.expectRefused([0x22, 0x5c, 0x6e, byte, 0x22])  // after an escape: the slow path
        }
        Self.expectRefused("\"\u{7f}")  // unterminated, DEL itself is allowed
    }

    /// A surrogate must be a high one followed by an escaped low one.
    @Test(arguments: [
        #""\ud800""#, #""\udbff""#, #""\udc00""#, #""\udfff""#, #""\ud800\u0041""#, #""\ud800x""#, #""\ud800\ud800""#,
        #""\udc00\ud800""#, #""\ud800\""#, #""\ud800\n""#, #""\ud800\u""#, #""\ud800\udc0""#,
    ])
    func loneSurrogates(_ text: String) {
        Self.expectRefused(text)
    }

    /// Strings must be valid UTF-8: no stray continuation bytes, overlong forms, encoded surrogates,
    /// truncated sequences or bytes above U+10FFFF. Outside strings non-ASCII is never valid.
    @Test(
        arguments: [
            [0x80], [0xbf], [0xc0, 0xaf], [0xc1, 0xbf], [0xe0, 0x80, 0xaf], [0xed, 0xa0, 0x80], [0xed, 0xbf, 0xbf],
            [0xf0, 0x80, 0x80, 0xaf], [0xf4, 0x90, 0x80, 0x80], [0xf5, 0x80, 0x80, 0x80], [0xff], [0xfe], [0xc3],
            [0xe2, 0x82],
            [0xf0, 0x9f, 0x98],
        ] as [[UInt8]]
    )
    func invalidUTF8(_ sequence: [UInt8]) {
        Self.expectRefused([0x22] + sequence + [0x22])
        Self.expectRefused([0x22, 0x5c, 0x74] + sequence + [0x22])  // with an escape before it
        Self.expectRefused([0x7b, 0x22] + sequence + [0x22, 0x3a, 0x31, 0x7d])  // as a member name
        Self.expectRefused(sequence)
    }

    /// A name given twice is refused, at any depth, also when the two spellings differ only in escapes.
    @Test(arguments: [
        #"{"a":1,"a":2}"#, #"{"a":1,"a":1}"#, #"{"a":1,"b":{"c":1,"c":2}}"#, #"[{"x":null,"x":null}]"#,
        #"{"a":1,"\u0061":2}"#, #"{"é":1,"\u00e9":2}"#, #"{"":1,"":2}"#,
    ])
    func duplicateNames(_ text: String) {
        let error = Self.expectRefused(text)
        #expect(error?.reason.contains("twice") == true, "\(String(describing: error))")
    }

    /// Nesting is limited: 32 levels by default, or what the caller says.
    @Test func depth() throws {
        let ok = String(repeating: "[", count: 32) + String(repeating: "]", count: 32)
        #expect(throws: Never.self) { try Self.parse(ok) }
        Self.expectRefused(String(repeating: "[", count: 33) + String(repeating: "]", count: 33))
        Self.expectRefused(String(repeating: #"{"a":"#, count: 33) + "1" + String(repeating: "}", count: 33))
        #expect(throws: Never.self) {
            try Self.parse(String(repeating: #"{"a":"#, count: 32) + "1" + String(repeating: "}", count: 32))
        }
        #expect(throws: Never.self) { try Self.parse("[[[1]]]", maximumDepth: 3) }
        Self.expectRefused("[[[[1]]]]", maximumDepth: 3)
        Self.expectRefused(#"{"a":[{"b":[]}]}"#, maximumDepth: 3)
        #expect(throws: Never.self) { try Self.parse("1", maximumDepth: 0) }
        Self.expectRefused("[]", maximumDepth: 0)
        // Deep nesting is refused long before the stack could suffer.
        Self.expectRefused(String(repeating: "[", count: 100_000))
        // Siblings do not add up.
        let wide = "[" + Array(repeating: "[[]]", count: 1000).joined(separator: ",") + "]"
        #expect(throws: Never.self) { try Self.parse(wide, maximumDepth: 3) }
    }

    @Test(arguments: [
        "01", "-01", "00", "[01]", #"{"a":00}"#, "1.", ".5", "+1", "1e", "1e+", "-", "--1", "0x10", "1.e5", "Infinity",
        "NaN",
        "-Infinity", "1_000", "０", "0.0.0", "1ee5", "1e5.0",
    ])
    func invalidNumbers(_ text: String) {
        Self.expectRefused(text)
    }

    @Test(arguments: [
        "", " ", "\n", "tru", "nul", "True", "NULL", "falsey", "'a'", "\"abc", "\"\\x\"", "\"\\u12\"", "\"\\u12G4\"",
        "\"\\", "\"\\U0041\"",
        "{", "[", "{\"a\"}", "{\"a\":}", "{\"a\" 1}", "{\"a\":1,}", "[1,]", "[,1]", "{,}", "{1:2}", "{a:1}", "[1 2]",
        "\u{a0}1", "\u{feff}1", "\u{c}1", "/* */1", "[1]//", "\u{0}",
    ])
    func otherSyntaxErrors(_ text: String) {
        Self.expectRefused(text)
    }

    /// The error gives a 1-based position and a reason, never the text itself.
    @Test func errorDescription() throws {
        let error = try #require(Self.expectRefused(#"{"secret":"hunter2",}"#))
        #expect(error.offset == 20)
        #expect(error.description.hasPrefix("invalid JSON at byte 21: "))
        #expect(!error.description.contains("hunter2"))
        #expect(Self.expectRefused("[1,]")?.offset == 3)
    }

    // MARK: Writer

    /// Quote, backslash and control characters are escaped; nothing else is (not `/`, not DEL, not non-ASCII).
    @Test func writerEscapes() {
        var writer = JSONWriter()
        writer.string("a\"b\\c/d\n\r\t\u{0}\u{1}\u{8}\u{c}\u{1f}\u{7f}é😀")
        #expect(
            String(decoding: writer.bytes, as: UTF8.self) == #""a\"b\\c/d\n\r\t\u0000\u0001\u0008\u000c\u001f"#
                + "\u{7f}é😀\""
        )
    }

    @Test func writerObjectOrder() {
        var writer = JSONWriter()
        writer.object { object in
            object.member("z", .number("1"))
            object.member("a", .array([.null, .bool(true), .string("x")]))
            object.member("m", .object(["b": .number("2"), "a": .number("-0.5e3")]))
        }
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"z":1,"a":[null,true,"x"],"m":{"a":-0.5e3,"b":2}}"#)
        var empty = JSONWriter()
        empty.object { _ in }
        #expect(empty.bytes == Array("{}".utf8))
    }

    /// What the writer writes parses back to the same value: every ASCII character, escapes, astral
    /// characters, nesting.
    @Test func writerRoundTrip() throws {
        let allASCII = String(decoding: Array(0..<0x80 as Range<UInt8>), as: UTF8.self)
        let values: [JSONValue] = [
            .string(allASCII), .string(""), .string("\u{10FFFF}\u{FFFD}😀é"),
            .object([
                allASCII: .string(allASCII), "": .null, "n": .array([.number("0"), .number("-1.25E+7"), .bool(false)]),
            ]),
            .array([.array([.array([.object(["deep": .string("\\\"")])])])]),
        ]
        for value in values {
            var writer = JSONWriter()
            writer.value(value)
            #expect(try JSONValue(parsing: writer.bytes) == value)
            #expect(writer.bytes.allSatisfy { $0 >= 0x20 }, "no raw control characters")
        }
        for _ in 0..<200 {
            let scalars =
                (0..<Int.random(in: 0...20)).map { _ in
                    Unicode.Scalar(UInt32.random(in: 0...0x7f)) ?? "?"
                } + [Unicode.Scalar(UInt32.random(in: 0x80...0xd7ff))!]
            let text = String(String.UnicodeScalarView(scalars))
            var writer = JSONWriter()
            writer.object { $0.member(text, .string(text)) }
            #expect(try JSONValue(parsing: writer.bytes) == .object([text: .string(text)]), "\(text.debugDescription)")
        }
    }
}
