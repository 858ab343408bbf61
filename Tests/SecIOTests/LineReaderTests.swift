import SecCrypto
import SecIO
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `LineReader` splits a file as splitting its bytes at line feeds does, however the lines fall
/// across read chunks, and cuts lines longer than its bound.
struct LineReaderTests {
    /// The lines of `bytes` as `LineReader` should return them: split at line feeds, the last line
    /// kept when the input does not end with one.
    private func expectedLines(_ bytes: [UInt8], maximumLength: Int) -> [LineReader.Line] {
        var lines = bytes.split(separator: 0x0a, omittingEmptySubsequences: false).map(Array.init)
        if lines.last?.isEmpty == true { lines.removeLast() }
        return lines.map {
            $0.count > maximumLength ? .overlong(prefix: Array($0.prefix(maximumLength))) : .complete($0)
        }
    }

    private func readLines(_ path: String, maximumLength: Int) throws -> [LineReader.Line] {
        let reader = try LineReader(.path(path), maximumLength: maximumLength)
        var lines: [LineReader.Line] = []
        while let line = try reader.next() { lines.append(line) }
        return lines
    }

    @Test(
        "lines across chunks, empty lines, a last line without a line feed, lines at and over the bound",
        arguments: [1, 7, 100, 300_000]
    )
    func linesAsSplitAtLineFeeds(maximumLength: Int) throws {
        var bytes: [UInt8] = []
        for length in [0, 1, 0, maximumLength - 1, maximumLength, maximumLength + 1, 3 * maximumLength, 5, 0] {
            bytes += Array(randomPrintable(length).utf8) + [0x0a]
        }
        // Longer than a read chunk, so lines also cross chunk boundaries.
        bytes += randomBytes(FileInput.chunkSize + 1000)
        try withTemporaryFile(containing: bytes) { path in
            let lines = try readLines(path, maximumLength: maximumLength)
            #expect(lines == expectedLines(bytes, maximumLength: maximumLength))
        }
    }

    @Test("a missing file throws FileError naming it")
    func missingFile() throws {
        let path = missingFilePath()
        #expect(throws: FileError(path: path, code: ENOENT)) {
            try LineReader(.path(path), maximumLength: 10)
        }
    }
}
