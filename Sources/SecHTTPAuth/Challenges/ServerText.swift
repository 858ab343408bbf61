/// Server-chosen text (a realm) as descriptions and errors show it: quoted, at most 64 characters,
/// `"` and `\` escaped, and every control, format or line-separating character (newlines, ESC,
/// bidirectional overrides) written as `\u{…}`, so that a server can neither forge nor hide text
/// in a log line or a terminal.
func quotedServerText(_ text: String) -> String {
    var quoted = "\""
    for (index, scalar) in text.unicodeScalars.enumerated() {
        if index == 64 {
            quoted += "…"
            break
        }
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .surrogate, .unassigned:
            quoted += "\\u{\(String(scalar.value, radix: 16))}"
        default:
            if scalar == "\"" || scalar == "\\" { quoted += "\\" }
            quoted.unicodeScalars.append(scalar)
        }
    }
    return quoted + "\""
}
