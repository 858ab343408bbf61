import SecKit

extension SecCLI.HashCommand {
    /// `--check`: verifies a `sha256sum`-style list the way `sha256sum -c` does.
    func verify(listFile: String) throws {
        let algorithm = algorithmOption.algorithm
        let list = InputFiles.input(for: RawArguments.bytes(ofOptionValue: listFile, spelledAfter: ["--check="]))
        let entries = try ChecksumListEntries(list, algorithm: algorithm)

        var checked = 0
        var mismatched = 0
        var unreadable = 0
        OrderedParallelMap.forEach(
            in: entries,
            onCallingThread: { $0.input.isDescriptor },
            transform: { entry in
                Result { () throws(FileError) in try DigestHasher.hash(algorithm, contentsOf: entry.input).bytes }
            },
            deliver: { entry, digest in
                checked += 1
                // The name's bytes as sha256sum -c prints them, whatever their encoding.
                let shownName = ChecksumLine.checkDisplayName(entry.input.nameBytes)
                func report(_ result: String) { StandardOutput.write(shownName + Array(": \(result)\n".utf8)) }
                switch digest {
                case .success(let bytes) where bytes == entry.expected:
                    if !quiet { report("OK") }
                case .success:
                    report("FAILED")
                    mismatched += 1
                case .failure(let error):
                    Diagnostics.error(error.description)
                    report("FAILED open or read")
                    unreadable += 1
                }
            }
        )
        if let failure = entries.failure { throw failure }

        if checked == 0 {
            throw Failure(
                message: "\(list.name): no properly formatted \(algorithm) checksum lines found",
                exitCode: .checkFailed
            )
        }
        if entries.malformed > 0 {
            Diagnostics.error("WARNING: \(counted(entries.malformed, "line is", "lines are")) improperly formatted")
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
