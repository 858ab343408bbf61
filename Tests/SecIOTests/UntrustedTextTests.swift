import SecIO
import Testing

/// The one escaper of untrusted text: nothing that ends a line, drives a terminal or reorders what
/// it shows passes through, and ordinary text (accents, CJK, emoji) is left alone.
@Suite struct UntrustedTextTests {
    @Test(arguments: [
        ("line\nforged", "line\\nforged"), ("\r\t\0", "\\r\\t\\0"), ("\u{1B}[2J", "\\u{1b}[2J"),
        ("\u{7F}\u{85}\u{9B}", "\\u{7f}\\u{85}\\u{9b}"), ("a\u{2028}b\u{2029}", "a\\u{2028}b\\u{2029}"),
        // Trojan Source: bidirectional overrides and isolates, and the marks.
        ("abc\u{202E}fed", "abc\\u{202e}fed"), ("\u{2066}x\u{2069}", "\\u{2066}x\\u{2069}"),
        ("\u{200F}\u{200E}", "\\u{200f}\\u{200e}"), ("zero\u{200B}width", "zero\\u{200b}width"),
        ("unassigned \u{E0080}", "unassigned \\u{e0080}"),
        ("Ünïcode Org, 東京, 🔐, \"quoted\" \\", "Ünïcode Org, 東京, 🔐, \"quoted\" \\"),
    ])
    func escapesWhatCouldForgeOrHideText(text: String, expected: String) {
        #expect(UntrustedText.escaped(text) == expected)
    }

    @Test func quotedTextReadsBackAndLongTextIsCut() {
        #expect(UntrustedText.quoted("a\"b\\c\n") == #""a\"b\\c\n""#)
        let long = String(repeating: "r", count: 100)
        #expect(UntrustedText.quoted(long, maximumLength: 64) == "\"" + String(repeating: "r", count: 64) + "…\"")
        #expect(UntrustedText.quoted(long) == "\"" + long + "\"")
        #expect(UntrustedText.quoted("\u{202E}", maximumLength: 64) == #""\u{202e}""#)
    }
}
