import SecKit

extension SecCLI.Hash {
    /// `--check`: verifies a `sha256sum`-style list the way `sha256sum -c` does.
    func verify(listFile: String) throws {
        let algorithm = algorithmOption.algorithm
        let list = listFile == "-" ? FileInput.standardInput : FileInput.path(listFile)
        var bytes: [UInt8] = []
        try list.forEachChunk { bytes.append(contentsOf: $0) }
        let text = String(decoding: bytes, as: UTF8.self)

        var mismatched = 0
        var unreadable = 0
        var malformed = 0
        var checked = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) where !line.hasPrefix("#") {
            guard let entry = ChecksumLine(parsing: line),
                let expected = try? Hex.decode(entry.checksum),
                expected.count == algorithm.byteCount
            else {
                malformed += 1
                continue
            }
            checked += 1
            let shownName = ChecksumLine.checkDisplayName(entry.name)
            do {
                let file: FileInput = entry.name == "-" ? .standardInput : .path(entry.name)
                let digest = try DigestHasher.hash(algorithm, contentsOf: file)
                if digest.bytes == expected {
                    if !quiet { print("\(shownName): OK") }
                } else {
                    print("\(shownName): FAILED")
                    mismatched += 1
                }
            } catch {
                Diagnostics.error(error.description)
                print("\(shownName): FAILED open or read")
                unreadable += 1
            }
        }

        if checked == 0 {
            throw Failure(
                message: "\(list.name): no properly formatted \(algorithm) checksum lines found",
                exitCode: .checkFailed
            )
        }
        if malformed > 0 {
            Diagnostics.error("WARNING: \(counted(malformed, "line is", "lines are")) improperly formatted")
        }
        if unreadable > 0 {
            Diagnostics.error("WARNING: \(counted(unreadable, "listed file", "listed files")) could not be read")
        }
        if mismatched > 0 {
            Diagnostics.error(
                "WARNING: \(counted(mismatched, "computed checksum", "computed checksums")) did NOT match"
            )
        }
        if mismatched + unreadable > 0 { throw Failure(message: nil, exitCode: .checkFailed) }
    }

    private func counted(_ count: Int, _ singular: String, _ plural: String) -> String {
        "\(count) \(count == 1 ? singular : plural)"
    }
}
