/// Base64 (RFC 4648 §4) and base64url (§5), with or without padding and with optional line wrapping.
public enum Base64 {
    /// The 64-character alphabet.
    public enum Alphabet: Sendable {
        /// `A–Z a–z 0–9 + /`
        case standard
        /// `A–Z a–z 0–9 - _` (URL and file-name safe; JWT/JWE and Fernet use it).
        case url

        fileprivate var characters: [UInt8] {
            switch self {
            case .standard: Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
            case .url: Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
            }
        }
    }

    private static let standardCharacters = Alphabet.standard.characters
    private static let urlCharacters = Alphabet.url.characters
    private static let standardValues = reverse(standardCharacters)
    private static let urlValues = reverse(urlCharacters)

    private static func reverse(_ characters: [UInt8]) -> [UInt8] {
        var table = [UInt8](repeating: 0xff, count: 256)
        for (value, character) in characters.enumerated() { table[Int(character)] = UInt8(value) }
        return table
    }

    /// Encodes `bytes`. `lineLength` wraps the output (64 is PEM and `openssl enc -a`, 76 is MIME);
    /// lines are joined with `lineSeparator` and no separator follows the last line.
    public static func encode(
        _ bytes: some ContiguousBytes, alphabet: Alphabet = .standard, padding: Bool = true,
        lineLength: Int? = nil, lineSeparator: String = "\n"
    ) -> String {
        precondition(lineLength.map { $0 > 0 && $0 % 4 == 0 } ?? true, "line length must be a positive multiple of 4")
        let table = alphabet == .standard ? standardCharacters : urlCharacters
        return bytes.withUnsafeBytes { input in
            var output: [UInt8] = []
            output.reserveCapacity((input.count + 2) / 3 * 4)
            var index = 0
            while index + 3 <= input.count {
                let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
                for shift in stride(from: 18, through: 0, by: -6) { output.append(table[Int(chunk >> UInt32(shift) & 0x3f)]) }
                index += 3
            }
            let rest = input.count - index
            if rest > 0 {
                let chunk = UInt32(input[index]) << 16 | (rest == 2 ? UInt32(input[index + 1]) << 8 : 0)
                output.append(table[Int(chunk >> 18 & 0x3f)])
                output.append(table[Int(chunk >> 12 & 0x3f)])
                if rest == 2 { output.append(table[Int(chunk >> 6 & 0x3f)]) }
                if padding { output.append(contentsOf: rest == 2 ? [UInt8(ascii: "=")] : Array("==".utf8)) }
            }
            guard let lineLength, output.count > lineLength else { return String(decoding: output, as: UTF8.self) }
            let separator = Array(lineSeparator.utf8)
            var wrapped: [UInt8] = []
            wrapped.reserveCapacity(output.count + output.count / lineLength * separator.count)
            for start in stride(from: 0, to: output.count, by: lineLength) {
                if start > 0 { wrapped.append(contentsOf: separator) }
                wrapped.append(contentsOf: output[start..<min(start + lineLength, output.count)])
            }
            return String(decoding: wrapped, as: UTF8.self)
        }
    }

    /// Decodes base64 in `alphabet`. Padding is optional, but where present it must be correct;
    /// white space and line breaks are ignored.
    public static func decode(_ text: String, alphabet: Alphabet = .standard) throws(CryptoError) -> [UInt8] {
        try decode(utf8: text.utf8, alphabet: alphabet)
    }

    /// Decodes base64 given as UTF-8 bytes (for example a secret held in `SecureBytes`), with the same rules.
    public static func decode(utf8 text: some Collection<UInt8>, alphabet: Alphabet = .standard) throws(CryptoError) -> [UInt8] {
        let values = alphabet == .standard ? standardValues : urlValues
        let name = alphabet == .standard ? "base64" : "base64url"
        var output: [UInt8] = []
        output.reserveCapacity(text.count / 4 * 3)
        var accumulator: UInt32 = 0
        var pending = 0  // sextets in the accumulator
        var padding = 0
        for (offset, character) in text.enumerated() {
            switch character {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                continue
            case UInt8(ascii: "="):
                padding += 1
                if pending < 2 || pending + padding > 4 { throw .invalidEncoding("\(name): misplaced padding at position \(offset + 1)") }
            default:
                let value = values[Int(character)]
                if value == 0xff { throw .invalidEncoding("\(name): invalid character at position \(offset + 1)") }
                if padding > 0 { throw .invalidEncoding("\(name): data after padding at position \(offset + 1)") }
                accumulator = accumulator << 6 | UInt32(value)
                pending += 1
                if pending == 4 {
                    output.append(UInt8(truncatingIfNeeded: accumulator >> 16))
                    output.append(UInt8(truncatingIfNeeded: accumulator >> 8))
                    output.append(UInt8(truncatingIfNeeded: accumulator))
                    accumulator = 0
                    pending = 0
                }
            }
        }
        // Padding was checked as it came: at most 4 - pending characters, never after a whole quad.
        switch pending {
        case 0:
            break
        case 1:
            throw .invalidEncoding("\(name): truncated input (length is not valid for base64)")
        case 2:
            if padding != 0 && padding != 2 { throw .invalidEncoding("\(name): incomplete padding") }
            output.append(UInt8(truncatingIfNeeded: accumulator >> 4))
        default:  // 3
            output.append(UInt8(truncatingIfNeeded: accumulator >> 10))
            output.append(UInt8(truncatingIfNeeded: accumulator >> 2))
        }
        return output
    }
}
