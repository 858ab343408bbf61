/// Text from outside (certificate names, keyring labels and attributes, token headers, file names)
/// made safe for line-oriented output: it can neither end the line, start a forged one, nor send the
/// terminal an escape sequence. One mechanism for every such place.
enum UntrustedText {
    /// `text` with control characters (C0, DEL, C1 including U+0085), the Unicode line and
    /// paragraph separators and the bidirectional formatting characters escaped as `\n`, `\r`, `\t`, `\0` or `\u{1b}`; with `quoting`, `\` and
    /// `"` too, so that the result between double quotes is a valid Swift string literal (and reads
    /// back unambiguously).
    static func escaped(_ text: String, quoting: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: { needsEscape($0, quoting: quoting) }) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar, quoting: quoting) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\0": result += "\\0"
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            default: result += "\\u{\(String(scalar.value, radix: 16))}"
            }
        }
        return result
    }

    /// `text` as a double-quoted literal: `"…"`, escaped with `quoting`.
    static func quoted(_ text: String) -> String {
        "\"" + escaped(text, quoting: true) + "\""
    }

    private static func needsEscape(_ scalar: Unicode.Scalar, quoting: Bool) -> Bool {
        switch scalar.value {
        // Bidirectional overrides and isolates too: they reorder what a terminal shows (a pin line
        // that reads as another), as in "Trojan Source".
        case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        case 0x5C, 0x22: quoting
        default: false
        }
    }
}
