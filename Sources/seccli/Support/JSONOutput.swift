import SecKit

/// The JSON that `--json` prints: pretty-printed with sorted keys, so that the output is stable
/// from run to run, and without escaped slashes, which paths and pins contain.
enum JSONOutput {
    static func text(_ value: some Encodable) throws -> String {
        String(decoding: try makeEncoder().encode(value), as: UTF8.self)
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
            let text = String(decoding: try encoder.encode(element), as: UTF8.self)
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
