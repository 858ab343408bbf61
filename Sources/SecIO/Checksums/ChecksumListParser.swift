import SecCrypto

/// Reads the lines of a checksum list as GNU coreutils' `sha256sum -c` reads them (coreutils 9):
/// `<hex>  <name>` and `<hex> *<name>` (binary marker), the BSD form `SHA256 (<name>) = <hex>`
/// (`sha256sum --tag`), the reversed BSD form `<hex> <name>` (one space, `md5 -r`), each with a leading
/// `\` when the name is escaped (`\\`, `\n`, `\r`). Blank lines and lines starting with `#` are skipped;
/// a trailing carriage return (a CRLF list) is dropped; leading blanks and tabs are allowed; hex
/// digits may be upper case. Names are bytes: any bytes but NUL, valid UTF-8 or not.
///
/// As in coreutils, a list either uses the reversed BSD form or the standard one: whichever form the
/// first such line has, lines of the other form are malformed, so that a name cannot gain or lose a
/// leading space or `*` by the way it is read.
public struct ChecksumListParser: Sendable {
    /// A checksum line: the digest it expects and the file it names.
    public struct Entry: Equatable, Sendable {
        /// The digest the line expects, as bytes (decoded from its hex).
        public var digest: [UInt8]
        /// The file name, unescaped.
        public var name: [UInt8]

        /// An entry of these parts.
        ///
        /// - Parameters:
        ///   - digest: the digest the line expects, as bytes.
        ///   - name: the file name, unescaped.
        public init(digest: [UInt8], name: [UInt8]) {
            self.digest = digest
            self.name = name
        }
    }

    /// What a line of the list is.
    public enum Line: Equatable, Sendable {
        /// A checksum line for this algorithm.
        case entry(Entry)
        /// A blank line or a comment.
        case skipped
        /// Not a checksum line for this algorithm (`improperly formatted` for `sha256sum -c`).
        case malformed
    }

    /// The hash function whose digests the list holds: its digest length and its BSD tag.
    public let algorithm: HashAlgorithm
    /// Whether the list uses the reversed BSD form: nil until a line in the standard or reversed form.
    private var isReversedForm: Bool?

    /// A parser for a list of `algorithm`'s digests, before its first line.
    ///
    /// - Parameter algorithm: the hash function: a digest is `2 * algorithm.byteCount` hex digits, and
    ///   a BSD-form line must carry its tag (`SHA256` for `.sha256`).
    public init(algorithm: HashAlgorithm) {
        self.algorithm = algorithm
    }

    /// Reads one line, given without its line feed.
    ///
    /// The first line in the standard or reversed BSD form fixes the list's form; a later line of the
    /// other form is then malformed.
    ///
    /// - Parameter line: the line's bytes, without the line feed; a trailing carriage return is dropped.
    /// - Returns: ``Line/skipped`` for an empty line or one starting with `#`; ``Line/entry(_:)``
    ///   with the expected digest and the unescaped name for a checksum line of
    ///   ``ChecksumListParser/algorithm``; ``Line/malformed`` for anything else (another
    ///   algorithm's tag or digest length, a digest that is not hex, no name, an escaped name with
    ///   another byte after a `\`, a line of the other form than the list's).
    public mutating func parse(_ line: some Collection<UInt8>) -> Line {
        var line = Array(line)
        guard line.first != UInt8(ascii: "#") else { return .skipped }
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        guard !line.isEmpty else { return .skipped }
        guard let entry = entry(in: line) else { return .malformed }
        return .entry(entry)
    }

    private mutating func entry(in line: [UInt8]) -> Entry? {
        var start = line.firstIndex { !Self.isBlank($0) } ?? line.endIndex
        let isEscaped = start < line.endIndex && line[start] == UInt8(ascii: "\\")
        if isEscaped { start += 1 }
        let tag = Array(algorithm.rawValue.uppercased().utf8)
        if line[start...].starts(with: tag) {
            var position = start + tag.count
            if position < line.endIndex, line[position] == UInt8(ascii: " ") { position += 1 }
            guard position < line.endIndex, line[position] == UInt8(ascii: "(") else { return nil }
            return taggedEntry(line[(position + 1)...], isEscaped: isEscaped)
        }

        let hexLength = 2 * algorithm.byteCount
        // At least the digest, a blank and a one-byte name.
        guard line.count - start >= hexLength + 2 else { return nil }
        let hexEnd = start + hexLength
        guard Self.isBlank(line[hexEnd]), let digest = Self.digest(line[start..<hexEnd], length: hexLength) else {
            return nil
        }
        var nameStart = hexEnd + 1
        if line.count - nameStart == 1 || (line[nameStart] != UInt8(ascii: " ") && line[nameStart] != UInt8(ascii: "*"))
        {
            guard isReversedForm != false else { return nil }
            isReversedForm = true
        } else if isReversedForm != true {
            isReversedForm = false
            nameStart += 1
        }
        let name = line[nameStart...]
        guard let unescaped = isEscaped ? Self.unescape(name) : Array(name) else { return nil }
        return Entry(digest: digest, name: unescaped)
    }

    /// The BSD form after `SHA256 (`: `<name>) = <hex>`, the name ending at the last `)`.
    private func taggedEntry(_ rest: ArraySlice<UInt8>, isEscaped: Bool) -> Entry? {
        guard let close = rest.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let name = rest[..<close]
        guard let unescaped = isEscaped ? Self.unescape(name) : Array(name) else { return nil }
        var position = rest[(close + 1)...].firstIndex { !Self.isBlank($0) } ?? rest.endIndex
        guard position < rest.endIndex, rest[position] == UInt8(ascii: "=") else { return nil }
        position = rest[(position + 1)...].firstIndex { !Self.isBlank($0) } ?? rest.endIndex
        let hexLength = 2 * algorithm.byteCount
        guard let digest = Self.digest(rest[position...], length: hexLength) else { return nil }
        return Entry(digest: digest, name: unescaped)
    }

    /// The digest `hex` spells: exactly `length` hex digits, either case.
    private static func digest(_ hex: ArraySlice<UInt8>, length: Int) -> [UInt8]? {
        guard hex.count == length, hex.allSatisfy(isHexDigit) else { return nil }
        return try? Hex.decode(utf8: hex)
    }

    /// An escaped name with `\\`, `\n` and `\r` replaced; nil when another byte follows a `\`.
    private static func unescape(_ name: ArraySlice<UInt8>) -> [UInt8]? {
        var unescaped: [UInt8] = []
        var bytes = name.makeIterator()
        while let byte = bytes.next() {
            guard byte == UInt8(ascii: "\\") else {
                unescaped.append(byte)
                continue
            }
            switch bytes.next() {
            case UInt8(ascii: "\\"): unescaped.append(UInt8(ascii: "\\"))
            case UInt8(ascii: "n"): unescaped.append(UInt8(ascii: "\n"))
            case UInt8(ascii: "r"): unescaped.append(UInt8(ascii: "\r"))
            default: return nil
            }
        }
        return unescaped
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"):
            true
        default: false
        }
    }
}
