import SecKit

/// The JSON that `--json` prints: pretty-printed with sorted keys, so that the output is stable
/// from run to run, and without escaped slashes, which paths and pins contain.
enum JSONOutput {
    static func text(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
