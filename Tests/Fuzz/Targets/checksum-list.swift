import SecCrypto
import SecIO

// Lines of a `sha256sum -c` list: any line is an entry, skipped or malformed; an entry written back
// as sha256sum writes it reads back to the same entry.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let algorithm: HashAlgorithm = input.choose(among: 2) == 0 ? .sha256 : .sha512
    var parser = ChecksumListParser(algorithm: algorithm)
    for line in input.bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
        // An empty name parses (`SHA256 () = …`, as coreutils reads it) but no sha256sum writes one.
        guard case .entry(let entry) = parser.parse(line), !entry.name.isEmpty else { continue }
        let written = ChecksumLine(checksum: Hex.encode(entry.digest), name: entry.name).formatted
        var reader = ChecksumListParser(algorithm: algorithm)
        require(reader.parse(written) == .entry(entry), "an entry written as sha256sum writes it reads back")
    }
    return 0
}
