import SecCrypto

/// One line of a checksum list in the GNU coreutils format (`sha256sum`): `<hex>  <name>`.
///
/// Names are bytes, as file names are on Linux, and are written as they are. Names containing a
/// backslash, newline or carriage return are escaped and the line starts with `\`, exactly as
/// coreutils does, so `sha256sum -c` accepts the lines SecKit writes (`ChecksumListParser` reads them).
public struct ChecksumLine: Sendable, Equatable {
    /// The checksum as written (hex for `sha256sum` lists).
    public var checksum: String
    /// The file name, unescaped.
    public var name: [UInt8]

    /// A line of these parts.
    ///
    /// - Parameters:
    ///   - checksum: the checksum as it is to be written (hex for `sha256sum` lists).
    ///   - name: the file name, unescaped; ``ChecksumLine/formatted`` escapes it where coreutils would.
    public init(checksum: String, name: [UInt8]) {
        self.checksum = checksum
        self.name = name
    }

    /// The line as `sha256sum` prints it (without the trailing newline).
    public var formatted: [UInt8] {
        let needsEscape = name.contains { Self.escapes[$0] != nil }
        let checksum = Array(checksum.utf8)
        guard needsEscape else { return checksum + Array("  ".utf8) + name }
        return [UInt8(ascii: "\\")] + checksum + Array("  ".utf8) + Self.escaped(name)
    }

    /// The name as `sha256sum -c` shows it in `name: OK` lines: as is, unless it contains a newline;
    /// then escaped with a leading `\` (coreutils 9.1's rule for check output).
    ///
    /// - Parameter name: the file name, unescaped.
    /// - Returns: `name` unchanged when it has no line feed; otherwise `\` followed by `name` with
    ///   each `\`, line feed and carriage return escaped (`\\`, `\n`, `\r`).
    public static func checkDisplayName(_ name: [UInt8]) -> [UInt8] {
        guard name.contains(UInt8(ascii: "\n")) else { return name }
        return [UInt8(ascii: "\\")] + escaped(name)
    }

    /// What coreutils writes for each byte it escapes.
    private static let escapes: [UInt8: [UInt8]] = [
        UInt8(ascii: "\\"): Array("\\\\".utf8), UInt8(ascii: "\n"): Array("\\n".utf8),
        UInt8(ascii: "\r"): Array("\\r".utf8),
    ]

    private static func escaped(_ name: [UInt8]) -> [UInt8] {
        name.flatMap { escapes[$0] ?? [$0] }
    }
}
