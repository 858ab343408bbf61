/// Hexadecimal encoding and tolerant decoding.
public enum Hex {
    private static let lower = Array("0123456789abcdef".utf8)
    private static let upper = Array("0123456789ABCDEF".utf8)

    /// Encodes `bytes` as hex: lower-case by default; `separator` goes between bytes
    /// (`":"` gives the `openssl x509 -fingerprint` form).
    ///
    /// - Parameters:
    ///   - bytes: The bytes to encode.
    ///   - uppercase: `true` for `A`–`F`, `false` (the default) for `a`–`f`.
    ///   - separator: Text put between bytes, none by default.
    /// - Returns: Two digits per byte, joined by `separator`; empty for no bytes.
    public static func encode(_ bytes: some ContiguousBytes, uppercase: Bool = false, separator: String = "") -> String
    {
        let digits = uppercase ? upper : lower
        let separatorBytes = Array(separator.utf8)
        return bytes.withUnsafeBytes { input in
            guard !separatorBytes.isEmpty else {
                return String(unsafeUninitializedCapacity: input.count * 2) { output in
                    encode(input, into: UnsafeMutableRawBufferPointer(output), uppercase: uppercase)
                }
            }
            var output: [UInt8] = []
            output.reserveCapacity(input.count * (2 + separatorBytes.count))
            for (index, byte) in input.enumerated() {
                if index > 0 { output.append(contentsOf: separatorBytes) }
                output.append(digits[Int(byte >> 4)])
                output.append(digits[Int(byte & 0x0f)])
            }
            return String(decoding: output, as: UTF8.self)
        }
    }

    /// The hex of a secret (a key to print), in memory that is wiped on release, never in a `String`.
    ///
    /// - Parameters:
    ///   - bytes: The secret bytes.
    ///   - uppercase: `true` for `A`–`F`, `false` (the default) for `a`–`f`.
    /// - Returns: The ASCII digits, two per byte, without separators.
    public static func encodeSecret(_ bytes: some ContiguousBytes, uppercase: Bool = false) -> SecureBytes {
        bytes.withUnsafeBytes { input in
            SecureBytes(count: input.count * 2) { (output: UnsafeMutableRawBufferPointer) in
                _ = encode(input, into: output, uppercase: uppercase)
            }
        }
    }

    /// Writes the hex of `input` into `output` (twice its size); returns the bytes written.
    private static func encode(
        _ input: UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer,
        uppercase: Bool
    ) -> Int {
        let digits = uppercase ? upper : lower
        for (index, byte) in input.enumerated() {
            output[2 * index] = digits[Int(byte >> 4)]
            output[2 * index + 1] = digits[Int(byte & 0x0f)]
        }
        return input.count * 2
    }

    /// Decodes hex in either case. Accepted and ignored: a leading `0x`, white space, and `:`
    /// between bytes (`AB:CD:EF`). Errors name the position but never echo the text, which may be a key.
    ///
    /// - Parameter text: The hex text.
    /// - Returns: The decoded bytes; none for empty text.
    /// - Throws: ``CryptoError/invalidEncoding(_:)`` for a character that is not a hex digit or an
    ///   accepted separator, a separator between the two digits of a byte, or an odd number of digits.
    public static func decode(_ text: String) throws(CryptoError) -> [UInt8] {
        try decode(utf8: text.utf8)
    }

    /// Decodes hex given as UTF-8 bytes (for example a secret held in `SecureBytes`), with the same rules.
    ///
    /// - Parameter text: The hex text's UTF-8 bytes.
    /// - Returns: The decoded bytes; none for empty text.
    /// - Throws: ``CryptoError/invalidEncoding(_:)`` for a character that is not a hex digit or an
    ///   accepted separator, a separator between the two digits of a byte, or an odd number of digits.
    public static func decode(utf8 text: some Collection<UInt8>) throws(CryptoError) -> [UInt8] {
        let prefixed = text.starts(with: "0x".utf8) || text.starts(with: "0X".utf8)
        let skipped = prefixed ? 2 : 0
        var output: [UInt8] = []
        output.reserveCapacity(text.count / 2)
        var high: UInt8?
        for (offset, character) in text.dropFirst(skipped).enumerated() {
            let position = skipped + offset + 1  // 1-based, in the text as given
            switch character {
            case UInt8(ascii: ":"), UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                if high != nil { throw .invalidEncoding("hex: separator inside a byte at position \(position)") }
            default:
                guard let value = nibble(character) else {
                    throw .invalidEncoding("hex: invalid character at position \(position)")
                }
                if let h = high {
                    output.append(h << 4 | value)
                    high = nil
                } else {
                    high = value
                }
            }
        }
        if high != nil { throw .invalidEncoding("hex: odd number of digits") }
        return output
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
