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
    /// The two characters of every 12-bit value, so that encoding looks up twice per 3 bytes.
    private static let standardPairs = pairs(standardCharacters)
    private static let urlPairs = pairs(urlCharacters)
    private static let standardValues = reverse(standardCharacters)
    private static let urlValues = reverse(urlCharacters)

    private static func pairs(_ characters: [UInt8]) -> [UInt16] {
        (0..<4096).map { UInt16(characters[$0 >> 6]) | UInt16(characters[$0 & 0x3f]) << 8 }
    }

    private static func reverse(_ characters: [UInt8]) -> [UInt8] {
        var table = [UInt8](repeating: 0xff, count: 256)
        for (value, character) in characters.enumerated() { table[Int(character)] = UInt8(value) }
        return table
    }

    /// Encodes `bytes`. `lineLength` wraps the output (64 is PEM and `openssl enc -a`, 76 is MIME);
    /// lines are joined with `lineSeparator` and no separator follows the last line.
    ///
    /// - Parameters:
    ///   - bytes: The bytes to encode.
    ///   - alphabet: `.standard` (the default) or `.url`.
    ///   - padding: `true` (the default) to end with `=` up to a multiple of 4 characters.
    ///   - lineLength: Characters per line, a positive multiple of 4; nil (the default) for one line.
    ///     Any other value is a programming error and stops the program.
    ///   - lineSeparator: What ends every line but the last, `"\n"` by default.
    /// - Returns: The base64 text; empty for no bytes.
    public static func encode(
        _ bytes: some ContiguousBytes,
        alphabet: Alphabet = .standard,
        padding: Bool = true,
        lineLength: Int? = nil,
        lineSeparator: String = "\n"
    ) -> String {
        precondition(lineLength.map { $0 > 0 && $0 % 4 == 0 } ?? true, "line length must be a positive multiple of 4")
        return bytes.withUnsafeBytes { input in
            let count = encodedCount(byteCount: input.count, padding: padding)
            guard let lineLength, count > lineLength else {
                return String(unsafeUninitializedCapacity: count) { output in
                    encode(input, into: UnsafeMutableRawBufferPointer(output), alphabet: alphabet, padding: padding)
                }
            }
            let output = [UInt8](unsafeUninitializedCapacity: count) { output, initialized in
                initialized = encode(
                    input,
                    into: UnsafeMutableRawBufferPointer(output),
                    alphabet: alphabet,
                    padding: padding
                )
            }
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

    /// The base64 of a secret (a key to print), unwrapped, in memory that is wiped on release, never
    /// in a `String`.
    ///
    /// - Parameters:
    ///   - bytes: The secret bytes.
    ///   - alphabet: `.standard` (the default) or `.url`.
    ///   - padding: `true` (the default) to end with `=` up to a multiple of 4 characters.
    /// - Returns: The ASCII characters of the base64 text, on one line.
    public static func encodeSecret(
        _ bytes: some ContiguousBytes,
        alphabet: Alphabet = .standard,
        padding: Bool = true
    ) -> SecureBytes {
        bytes.withUnsafeBytes { input in
            SecureBytes(count: encodedCount(byteCount: input.count, padding: padding)) {
                (output: UnsafeMutableRawBufferPointer) in
                encode(input, into: output, alphabet: alphabet, padding: padding)
            }
        }
    }

    /// The length of the encoding of `byteCount` bytes, unwrapped.
    package static func encodedCount(byteCount: Int, padding: Bool) -> Int {
        padding ? (byteCount + 2) / 3 * 4 : (byteCount * 4 + 2) / 3
    }

    /// Encodes `input` into `output` (at least `encodedCount` bytes, unwrapped) and returns the
    /// number of bytes written: the building block for formats that assemble tokens in one buffer.
    @discardableResult
    package static func encode(
        _ input: UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer,
        alphabet: Alphabet,
        padding: Bool
    ) -> Int {
        precondition(
            output.count >= encodedCount(byteCount: input.count, padding: padding),
            "base64 output buffer too small"
        )
        guard input.count > 0 else { return 0 }
        let table = alphabet == .standard ? standardCharacters : urlCharacters
        let pairs = alphabet == .standard ? standardPairs : urlPairs
        return table.withUnsafeBufferPointer { table in
            pairs.withUnsafeBufferPointer { pairs in
                let source = input.bindMemory(to: UInt8.self)
                let target = output.baseAddress!
                var index = 0
                var written = 0
                while index + 3 <= source.count {
                    let chunk = UInt32(source[index]) << 16 | UInt32(source[index + 1]) << 8 | UInt32(source[index + 2])
                    let quad = UInt32(pairs[Int(chunk >> 12)]) | UInt32(pairs[Int(chunk & 0xfff)]) << 16
                    target.storeBytes(of: quad.littleEndian, toByteOffset: written, as: UInt32.self)
                    index += 3
                    written += 4
                }
                let output = output.bindMemory(to: UInt8.self)
                let rest = source.count - index
                if rest > 0 {
                    let chunk = UInt32(source[index]) << 16 | (rest == 2 ? UInt32(source[index + 1]) << 8 : 0)
                    output[written] = table[Int(chunk >> 18)]
                    output[written + 1] = table[Int(chunk >> 12 & 0x3f)]
                    written += 2
                    if rest == 2 {
                        output[written] = table[Int(chunk >> 6 & 0x3f)]
                        written += 1
                    }
                    if padding {
                        for _ in rest..<3 {
                            output[written] = UInt8(ascii: "=")
                            written += 1
                        }
                    }
                }
                return written
            }
        }
    }

    /// Decodes the one canonical encoding of some bytes, as token formats (JWE, Fernet) need: no
    /// white space, the unused bits of the last character zero, padding forbidden (`padded: false`),
    /// required (`true`) or either (`nil`). Any other text throws, so that no altered token decodes
    /// to the same bytes as the original.
    package static func decodeCanonical(
        _ text: String,
        alphabet: Alphabet,
        padded: Bool?
    ) throws(CryptoError) -> [UInt8] {
        var text = text
        return try text.withUTF8Bytes { (utf8) throws(CryptoError) in
            try decodeCanonical(utf8, alphabet: alphabet, padded: padded)
        }
    }

    /// `decodeCanonical` of UTF-8 bytes.
    package static func decodeCanonical(
        _ text: UnsafeRawBufferPointer,
        alphabet: Alphabet,
        padded: Bool?
    ) throws(CryptoError) -> [UInt8] {
        let name = alphabet == .standard ? "base64" : "base64url"
        let source = text.bindMemory(to: UInt8.self)
        var end = source.count
        while end > 0 && source[end - 1] == UInt8(ascii: "=") { end -= 1 }
        let padding = source.count - end
        let rest = end % 4
        guard rest != 1, padding <= 2 else { throw .invalidEncoding("\(name): invalid length") }
        if padding > 0 || (padded == true && rest != 0) {
            guard padded != false, rest != 0, rest + padding == 4 else {
                throw .invalidEncoding("\(name): incorrect padding")
            }
        }
        let values = alphabet == .standard ? standardValues : urlValues
        return try values.withUnsafeBufferPointer { (values) throws(CryptoError) -> [UInt8] in
            var invalid: UInt8 = 0  // OR of every looked-up value: 0xff anywhere means a bad character
            let output = [UInt8](unsafeUninitializedCapacity: end / 4 * 3 + max(rest - 1, 0)) { output, initialized in
                var index = 0
                var written = 0
                while index + 4 <= end {
                    let a = values[Int(source[index])]
                    let b = values[Int(source[index + 1])]
                    let c = values[Int(source[index + 2])]
                    let d = values[Int(source[index + 3])]
                    invalid |= a | b | c | d
                    let chunk = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                    output[written] = UInt8(truncatingIfNeeded: chunk >> 16)
                    output[written + 1] = UInt8(truncatingIfNeeded: chunk >> 8)
                    output[written + 2] = UInt8(truncatingIfNeeded: chunk)
                    index += 4
                    written += 3
                }
                if rest >= 2 {
                    let a = values[Int(source[index])]
                    let b = values[Int(source[index + 1])]
                    let c = rest == 3 ? values[Int(source[index + 2])] : 0
                    invalid |= a | b | c
                    let chunk = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6
                    output[written] = UInt8(truncatingIfNeeded: chunk >> 16)
                    written += 1
                    if rest == 3 {
                        output[written] = UInt8(truncatingIfNeeded: chunk >> 8)
                        written += 1
                    }
                    // The bits below the last whole byte must be zero.
                    let unused = rest == 2 ? chunk & 0xffff : chunk & 0xff
                    if unused != 0 { invalid = 0xff }
                }
                initialized = written
            }
            guard invalid & 0xc0 == 0 else {
                throw .invalidEncoding("\(name): invalid character or non-canonical encoding")
            }
            return output
        }
    }

    /// Decodes base64 in `alphabet`. Padding is optional, but where present it must be correct;
    /// white space and line breaks are ignored.
    ///
    /// - Parameters:
    ///   - text: The base64 text.
    ///   - alphabet: `.standard` (the default) or `.url`; characters of the other one are invalid.
    /// - Returns: The decoded bytes; none for empty text.
    /// - Throws: ``CryptoError/invalidEncoding(_:)`` for a character outside `alphabet`, misplaced or
    ///   incomplete padding, characters after padding, or a length no base64 text can have.
    public static func decode(_ text: String, alphabet: Alphabet = .standard) throws(CryptoError) -> [UInt8] {
        try decode(utf8: text.utf8, alphabet: alphabet)
    }

    /// Decodes base64 given as UTF-8 bytes (for example a secret held in `SecureBytes`), with the same rules.
    ///
    /// - Parameters:
    ///   - text: The base64 text's UTF-8 bytes.
    ///   - alphabet: `.standard` (the default) or `.url`; characters of the other one are invalid.
    /// - Returns: The decoded bytes; none for empty text.
    /// - Throws: ``CryptoError/invalidEncoding(_:)`` for a character outside `alphabet`, misplaced or
    ///   incomplete padding, characters after padding, or a length no base64 text can have.
    public static func decode(
        utf8 text: some Collection<UInt8>,
        alphabet: Alphabet = .standard
    ) throws(CryptoError) -> [UInt8] {
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
                if pending < 2 || pending + padding > 4 {
                    throw .invalidEncoding("\(name): misplaced padding at position \(offset + 1)")
                }
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
