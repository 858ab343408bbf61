import ArgumentParser
import SecKit

/// `--base64` and `--json`, and the per-file output loop shared by `hash` and `hmac`.
struct DigestOutputOptions: ParsableArguments {
    @Flag(help: "Print digests in base64 instead of hex.")
    var base64 = false

    @Flag(help: "Print a JSON array of {name, algorithm, hex, base64} objects.")
    var json = false

    private struct Entry: Encodable {
        var name: String
        var algorithm: String
        var hex: String
        var base64: String
    }

    /// Computes `compute` for each input and prints one line (or JSON object) per input. An input
    /// that fails is reported on standard error and the rest are still processed; the run then
    /// ends with exit code 1.
    func emit(label: String, inputs: [FileInput], compute: (FileInput) throws -> [UInt8]) throws {
        var entries: [Entry] = []
        var failures = 0
        for input in inputs {
            let bytes: [UInt8]
            do {
                bytes = try compute(input)
            } catch let error as CryptoError {
                Diagnostics.error(error.description)
                failures += 1
                continue
            }
            if json {
                entries.append(Entry(name: input.name, algorithm: label, hex: Hex.encode(bytes), base64: Base64.encode(bytes)))
            } else {
                let checksum = base64 ? Base64.encode(bytes) : Hex.encode(bytes)
                print(ChecksumLine(checksum: checksum, name: input.name).formatted)
            }
        }
        if json { try printJSON(entries) }
        if failures > 0 { throw Failure(message: nil, exitCode: .checkFailed) }
    }

    private func printJSON(_ entries: [Entry]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(entries), as: UTF8.self))
    }
}
