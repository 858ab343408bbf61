import SecKit

/// What `hash` and `hmac` print: a `sha256sum`-style line per input, or a JSON array.
enum DigestListing {
    private struct Entry: Encodable {
        /// The name as text; bytes that are not UTF-8 are U+FFFD here, and the name is exact in `nameBase64`.
        var name: String
        /// The name's bytes in base64, only when they are not valid UTF-8.
        var nameBase64: String?
        var algorithm: String
        var hex: String
        var base64: String

        init(name: [UInt8], algorithm: String, digest: [UInt8]) {
            self.name = String(decoding: name, as: UTF8.self)
            nameBase64 = String(validating: name, as: UTF8.self) == nil ? Base64.encode(name) : nil
            self.algorithm = algorithm
            hex = Hex.encode(digest)
            base64 = Base64.encode(digest)
        }
    }

    /// Computes `compute` for each input, several files at once (`OrderedParallelMap`), and prints
    /// one line (or JSON object) per input in the order of `inputs`, each as soon as it and the
    /// inputs before it are done. An input that fails, or a failure in their place (a directory of a
    /// walk that cannot be read), is reported on standard error where its line would be, and the rest
    /// are still processed; the run then ends with exit code 1.
    static func emit(
        _ inputs: some Sequence<Result<FileInput, FileError>>,
        label: String,
        format: DigestOutputOptions,
        compute: @escaping @Sendable (FileInput) throws(FileError) -> [UInt8]
    ) throws {
        var json = format.json ? JSONOutput.ArrayPrinter() : nil
        var failures = 0
        try OrderedParallelMap.forEach(
            in: inputs,
            onCallingThread: { input in
                // Standard input is read in its place; a failure in the list has nothing to compute.
                guard case .success(let file) = input else { return true }
                return file.isDescriptor
            },
            transform: { input in
                input.flatMap { file in Result { () throws(FileError) in (file.nameBytes, try compute(file)) } }
            },
            deliver: { _, result in
                switch result {
                case .failure(let error):
                    Diagnostics.error(error.description)
                    failures += 1
                case .success(let (name, bytes)):
                    if json != nil {
                        try json?.print(Entry(name: name, algorithm: label, digest: bytes))
                    } else {
                        let checksum = format.base64 ? Base64.encode(bytes) : Hex.encode(bytes)
                        StandardOutput.write(ChecksumLine(checksum: checksum, name: name).formatted + [0x0a])
                    }
                }
            }
        )
        json?.finish()
        if failures > 0 { throw Failure(message: nil, exitCode: .checkFailed) }
    }
}
