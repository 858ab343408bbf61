/// One line of a checksum list in the GNU coreutils format (`sha256sum`): `<hex>  <name>`.
///
/// Names containing a backslash, newline or carriage return are escaped and the line starts with
/// `\`, exactly as coreutils does, so `sha256sum -c` accepts the lines SecKit writes and vice versa.
public struct ChecksumLine: Sendable, Equatable {
    /// The checksum as written (hex for `sha256sum` lists).
    public var checksum: String
    /// The file name, unescaped.
    public var name: String

    public init(checksum: String, name: String) {
        self.checksum = checksum
        self.name = name
    }

    /// The line as `sha256sum` prints it (without the trailing newline).
    public var formatted: String {
        let needsEscape = name.contains { $0 == "\\" || $0 == "\n" || $0 == "\r" }
        guard needsEscape else { return "\(checksum)  \(name)" }
        var escaped = ""
        for character in name {
            switch character {
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            default: escaped.append(character)
            }
        }
        return "\\\(checksum)  \(escaped)"
    }

    /// The name as `sha256sum -c` shows it in `name: OK` lines: as is, unless it contains a newline;
    /// then with `\` and newline escaped and a leading `\` (coreutils' rule for check output).
    public static func checkDisplayName(_ name: String) -> String {
        guard name.contains("\n") else { return name }
        return "\\" + name.replacing("\\", with: "\\\\").replacing("\n", with: "\\n")
    }
}
