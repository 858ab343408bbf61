import SecKit

/// The JSON that `--json` prints: pretty-printed with sorted keys, so that the output is stable
/// from run to run, and without escaped slashes, which paths and pins contain. Strings carry text
/// from outside (labels, certificate names): JSONEncoder escapes C0 controls, as RFC 8259 asks;
/// DEL, C1 controls and U+2028/U+2029, which RFC 8259 allows raw but terminals and JavaScript
/// take as commands or line breaks, are escaped here too (`\u0085`).
enum JSONOutput {
    static func text(_ value: some Encodable) throws -> String {
        escapingInvisibles(try makeEncoder().encode(value))
    }

    /// The encoded JSON as text, with DEL, C1 and U+2028/U+2029 as `\uXXXX` escapes: they can only
    /// occur inside strings, where the escape means the same character.
    fileprivate static func escapingInvisibles(_ data: Data) -> String {
        let text = String(decoding: data, as: UTF8.self)
        func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
            (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
        }
        guard text.unicodeScalars.contains(where: isInvisible) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if isInvisible(scalar) {
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// A JSON array printed one element at a time, byte for byte as `text` prints the whole array,
    /// so that a long listing appears while it is computed and is never held in memory.
    struct ArrayPrinter {
        private let encoder = makeEncoder()
        private var isEmpty = true

        /// Prints the opening bracket.
        init() {
            Swift.print("[")
        }

        /// Prints `element`, after a comma unless it is the first.
        mutating func print(_ element: some Encodable) throws {
            let text = JSONOutput.escapingInvisibles(try encoder.encode(element))
            // Pretty-printed, an element of an array is indented one level (two spaces) more than alone.
            let indented =
                "  " + text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n  ")
            Swift.print(isEmpty ? indented : ",\n" + indented, terminator: "")
            isEmpty = false
        }

        /// Prints the closing bracket.
        func finish() {
            Swift.print("\n]")
        }
    }
}
