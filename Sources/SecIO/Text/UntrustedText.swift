/// Text from outside (certificate names, keyring labels and attributes, token headers, file names,
/// a server's realm or error text) made safe for line-oriented output and logs: it can neither end
/// the line, start a forged one, nor send the terminal an escape sequence, nor reorder what the
/// terminal shows. The one escaper of seccli, SecHTTPAuth and the examples.
///
/// ```swift
/// UntrustedText.escaped("a\u{1B}[2Jb")                  // a\u{1b}[2Jb
/// UntrustedText.quoted("x\"y", maximumLength: 64)       // "x\"y"
/// ```
public enum UntrustedText {
    /// `text` with every character that could end a line or change what a terminal shows escaped:
    /// control characters (C0, DEL, C1 including U+0085) as `\n`, `\r`, `\t`, `\0` or `\u{…}`, and
    /// as `\u{…}` the line and paragraph separators, the format characters (bidirectional
    /// overrides and isolates, as in "Trojan Source", zero-width characters) and unassigned code
    /// points; with `quoting`, `\` and `"` too, so that the result between double quotes is a
    /// valid Swift string literal (and reads back unambiguously).
    ///
    /// - Parameters:
    ///   - text: the untrusted text.
    ///   - quoting: also escape `\` and `"`.
    /// - Returns: the text, unchanged when nothing needed escaping.
    public static func escaped(_ text: String, quoting: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: { needsEscape($0, quoting: quoting) }) else { return text }
        var result = ""
        for scalar in text.unicodeScalars { append(scalar, to: &result, quoting: quoting) }
        return result
    }

    /// `text` as a double-quoted literal, escaped with `quoting`, and cut after `maximumLength`
    /// characters (marked `…`) when a limit is given: for server-chosen text that may be long.
    ///
    /// - Parameters:
    ///   - text: the untrusted text.
    ///   - maximumLength: the most characters (Unicode scalars) kept; nil keeps all.
    /// - Returns: `"…"`.
    public static func quoted(_ text: String, maximumLength: Int? = nil) -> String {
        var result = "\""
        for (index, scalar) in text.unicodeScalars.enumerated() {
            if let maximumLength, index == maximumLength {
                result += "…"
                break
            }
            append(scalar, to: &result, quoting: true)
        }
        return result + "\""
    }

    private static func append(_ scalar: Unicode.Scalar, to result: inout String, quoting: Bool) {
        guard needsEscape(scalar, quoting: quoting) else {
            result.unicodeScalars.append(scalar)
            return
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

    private static func needsEscape(_ scalar: Unicode.Scalar, quoting: Bool) -> Bool {
        if quoting && (scalar == "\\" || scalar == "\"") { return true }
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned: return true
        default: return false
        }
    }
}
