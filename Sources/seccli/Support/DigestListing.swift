import SecKit

/// What `hash` and `hmac` print: a `sha256sum`-style line per input, or a JSON array.
enum DigestListing {
    private struct Entry: Encodable {
        var name: String
        var algorithm: String
        var hex: String
        var base64: String
    }

    /// Computes `compute` for each input and prints one line (or JSON object) per input. An input
    /// that fails is reported on standard error and the rest are still processed; the run then
    /// ends with exit code 1.
    static func emit(
        _ inputs: [FileInput],
        label: String,
        format: DigestOutputOptions,
        compute: (FileInput) throws -> [UInt8]
    ) throws {
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
            if format.json {
                entries.append(
                    Entry(name: input.name, algorithm: label, hex: Hex.encode(bytes), base64: Base64.encode(bytes))
                )
            } else {
                let checksum = format.base64 ? Base64.encode(bytes) : Hex.encode(bytes)
                print(ChecksumLine(checksum: checksum, name: input.name).formatted)
            }
        }
        if format.json { print(try JSONOutput.text(entries)) }
        if failures > 0 { throw Failure(message: nil, exitCode: .checkFailed) }
    }
}
