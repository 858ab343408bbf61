import SecCrypto
import SecIO
import SecKeychain

/// The JSON of requests, written straight into wiped-on-release memory: a body can hold a secret
/// (a KV write), a role's secret ID or a token, so it never passes through a `String`.
enum VaultJSON {
    /// A value of a request body.
    enum Value: Sendable {
        /// A JSON string of these UTF-8 bytes (escaped as RFC 8259 requires).
        case string(SecureBytes)
        case text(String)
        case integer(Int)
        case object([(String, Value)])
    }

    /// `value` as JSON text.
    static func encode(_ value: Value) -> SecureBytes {
        SecureBytes(count: length(value)) { output in
            var position = 0
            write(value, into: output, at: &position)
        }
    }

    private static func length(_ value: Value) -> Int {
        switch value {
        case .string(let bytes): bytes.withUnsafeBytes { stringLength($0) }
        case .text(let text): Array(text.utf8).withUnsafeBytes { stringLength($0) }
        case .integer(let number): String(number).utf8.count
        case .object(let members):
            // Braces, the separators between members, and each member's name, colon and value.
            2 + max(0, members.count - 1)
                + members.reduce(0) { sum, member in
                    sum + Array(member.0.utf8).withUnsafeBytes { stringLength($0) } + 1 + length(member.1)
                }
        }
    }

    private static func write(_ value: Value, into output: UnsafeMutableRawBufferPointer, at position: inout Int) {
        func put(_ byte: UInt8) {
            output[position] = byte
            position += 1
        }
        switch value {
        case .string(let bytes): bytes.withUnsafeBytes { writeString($0, into: output, at: &position) }
        case .text(let text): Array(text.utf8).withUnsafeBytes { writeString($0, into: output, at: &position) }
        case .integer(let number): for byte in String(number).utf8 { put(byte) }
        case .object(let members):
            put(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { put(UInt8(ascii: ",")) }
                Array(member.0.utf8).withUnsafeBytes { writeString($0, into: output, at: &position) }
                put(UInt8(ascii: ":"))
                write(member.1, into: output, at: &position)
            }
            put(UInt8(ascii: "}"))
        }
    }

    /// The length of `bytes` as a JSON string, quotes included.
    private static func stringLength(_ bytes: UnsafeRawBufferPointer) -> Int {
        bytes.reduce(2) { sum, byte in
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): sum + 2
            case 0..<0x20: sum + 6
            default: sum + 1
            }
        }
    }

    private static func writeString(
        _ bytes: UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer,
        at position: inout Int
    ) {
        let hex = Array("0123456789abcdef".utf8)
        func put(_ byte: UInt8) {
            output[position] = byte
            position += 1
        }
        put(UInt8(ascii: "\""))
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                put(UInt8(ascii: "\\"))
                put(byte)
            case 0..<0x20:
                for escape in Array("\\u00".utf8) { put(escape) }
                put(hex[Int(byte >> 4)])
                put(hex[Int(byte & 0xf)])
            default: put(byte)
            }
        }
        put(UInt8(ascii: "\""))
    }

    /// Decodes a server's JSON answer; `invalidResponse` naming `what` when it is not that JSON (an
    /// HTML page from a proxy, a body cut short).
    static func decode<T: Decodable>(_ type: T.Type, from body: SecureBytes, _ what: String) throws(KeychainError) -> T
    {
        do {
            return try decoded(T.self, body)
        } catch {
            throw .invalidResponse("\(what) is not the JSON the API returns (\(body.count) bytes)")
        }
    }

    /// JSONDecoder reading the body where it is: a `Data` over the wiped memory, not a copy of it,
    /// which would outlive the call unwiped with the secrets and tokens in it. The `String`s the
    /// decoder makes of JSON strings are not wiped: Swift has no way to clear a string's storage
    /// (docs/SecVault.md, "What is not wiped").
    private static func decoded<T: Decodable>(_ type: T.Type, _ body: SecureBytes) throws -> T {
        try body.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress, !bytes.isEmpty else {
                return try decoder.decode(T.self, from: Data())
            }
            let view = Data(
                bytesNoCopy: UnsafeMutableRawPointer(mutating: base),
                count: bytes.count,
                deallocator: .none
            )
            return try decoder.decode(T.self, from: view)
        }
    }

    /// One decoder for every answer (it is `Sendable` and keeps no state between calls), rather
    /// than one made per answer.
    private static let decoder = JSONDecoder()

    /// The `errors` of an error answer, joined; empty when there are none or the body is not JSON.
    static func errors(in body: SecureBytes) -> String {
        struct ErrorAnswer: Decodable { var errors: [String]? }
        let answer = try? decoded(ErrorAnswer.self, body)
        let text = (answer?.errors ?? []).joined(separator: "; ")
        return text.isEmpty ? "" : UntrustedText.quoted(text, maximumLength: 300)
    }
}
