import Foundation

/// A page of the repository's documentation (`docs/*.md`, `README.md`), for the tests that hold what a
/// page says about the code (defaults, limits, tables of constants) to the code itself: each builds
/// the sentence or row from the value in the code and expects it on the page, so that a changed value
/// fails a test until the page follows, and a page edited on its own fails it too.
public struct DocsPage: Sendable {
    /// The page, from the package root ("docs/SecTLS.md").
    public let path: String
    /// Its lines.
    public let lines: [String]

    /// Reads `path`, from the package root ("docs/SecTLS.md", "README.md").
    public init(_ path: String) throws {
        guard let root = TestVectors.directory?.deletingLastPathComponent() else {
            throw DocsPageError(description: "no Package.swift above \(#filePath)")
        }
        let url = root.appendingPathComponent(path)
        do {
            let text = try String(contentsOf: url, encoding: .utf8)
            self.path = path
            self.lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        } catch {
            throw DocsPageError(description: "cannot read \(url.path): \(error)")
        }
    }

    /// The rows of the table whose header line is `header`, exactly (`| code | name | meaning |`),
    /// after its separator line: every line up to the first that does not start with `|`.
    public func tableRows(under header: String) throws -> [String] {
        guard let index = lines.firstIndex(of: header) else {
            throw DocsPageError(description: "\(path) has no table headed \(header)")
        }
        guard index + 1 < lines.count, Self.isSeparator(lines[index + 1]) else {
            throw DocsPageError(description: "\(path): the table headed \(header) has no separator line")
        }
        return Array(lines[(index + 2)...].prefix { $0.hasPrefix("|") })
    }

    /// The cells of the one table row whose first cell is `firstCell` (backticks and all), trimmed.
    /// The first cell is the first element.
    public func row(_ firstCell: String) throws -> [String] {
        let rows = lines.filter { $0.hasPrefix("|") }.map(Self.cells).filter { $0.first == firstCell }
        guard rows.count == 1 else {
            throw DocsPageError(description: "\(path) has \(rows.count) table rows whose first cell is \(firstCell)")
        }
        return rows[0]
    }

    /// The one paragraph, list item, table row, heading or code line that holds `anchor`, with its
    /// lines joined and every run of white space made one space, so that a phrase the page wraps
    /// over two lines is found as it is written in the test.
    public func passage(containing anchor: String) throws -> String {
        let found = passages.filter { $0.contains(anchor) }
        guard found.count == 1 else {
            throw DocsPageError(description: "\(path) has \(found.count) passages holding \(anchor)")
        }
        return found[0]
    }

    /// The page cut into passages: a blank line ends one; a list item, a table row, a heading and each
    /// line of a fenced code block start one of their own.
    private var passages: [String] {
        var passages: [[Substring]] = []
        var current: [Substring] = []
        var inCode = false
        func end() {
            if !current.isEmpty { passages.append(current) }
            current = []
        }
        for line in lines {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("```") {
                end()
                inCode.toggle()
            } else if inCode || trimmed.hasPrefix("|") || trimmed.hasPrefix("#") {
                end()
                current = [trimmed]
                end()
            } else if trimmed.isEmpty {
                end()
            } else {
                if trimmed.hasPrefix("- ") || trimmed.hasPrefix("* ") || Self.startsNumberedItem(trimmed) { end() }
                current.append(trimmed)
            }
        }
        end()
        return passages.map { Self.collapsingWhiteSpace($0.joined(separator: " ")) }
    }

    private static func cells(_ row: String) -> [String] {
        var parts = row.split(separator: "|", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        // `|` opens and closes the row; `\|` inside a cell is no separator.
        parts = Array(parts.dropFirst().dropLast())
        var cells: [String] = []
        for part in parts {
            if let last = cells.last, last.hasSuffix("\\") {
                cells[cells.count - 1] = String(last.dropLast()) + "|" + part
            } else {
                cells.append(part)
            }
        }
        return cells
    }

    private static func isSeparator(_ line: String) -> Bool {
        line.hasPrefix("|") && line.allSatisfy { "|-: ".contains($0) } && line.contains("-")
    }

    private static func startsNumberedItem(_ line: Substring) -> Bool {
        let digits = line.prefix { $0.isASCII && $0.isNumber }
        return !digits.isEmpty && line.dropFirst(digits.count).hasPrefix(". ")
    }

    private static func collapsingWhiteSpace(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}

/// How the pages write values: the tests build the expected text with these, from the code's values.
extension DocsPage {
    /// `600,000`: thousands separated by commas, as the pages write counts in prose.
    public static func count(_ value: some BinaryInteger) -> String {
        let digits = String(value.magnitude)
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return (value < 0 ? "-" : "") + text
    }

    /// `16 KiB`, `1 MiB`: a byte count that is a whole number of MiB or KiB, else `N bytes`.
    public static func byteSize(_ count: Int) -> String {
        if count >= 1 << 20 && count % (1 << 20) == 0 { return "\(count >> 20) MiB" }
        if count >= 1 << 10 && count % (1 << 10) == 0 { return "\(count >> 10) KiB" }
        return "\(count) bytes"
    }

    /// `10 s`, `0.5 s`.
    public static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        guard attoseconds != 0 else { return "\(seconds) s" }
        return "\(Double(seconds) + Double(attoseconds) / 1e18) s"
    }
}

/// A page that cannot be read, or does not hold the table, row or passage a test looks for. Thrown,
/// so the test fails and says which.
public struct DocsPageError: Error, CustomStringConvertible {
    public let description: String
}
