import Foundation
import SecCrypto
import TestSupport
import Testing

extension TestVectors {
    /// Parses a CAVP-style file (`.rsp`, `.fax`, pyca's RFC `.txt`).
    ///
    /// Lines are `Key = value`; records are separated by blank lines or, when `firstKey` is given,
    /// also start at each line with that key (HMAC.fax has no blank lines). `#` lines are comments, even
    /// inside a record. `[Name = value]` (or bare `[NAME]`) lines set parameters for the records that
    /// follow; consecutive bracket lines accumulate, and the first one after a record starts a new set.
    /// A line without `=` (GCMVS's bare `FAIL`) is a field with an empty value.
    /// CRLF and LF both work. A key repeated inside one record, or a file without records, throws.
    static func cavpRecords(_ path: String, firstKey: String? = nil) throws -> [CAVPRecord] {
        // Bytes rather than `String` lines: the six GCM files alone have about 380,000 lines.
        let bytes = [UInt8](try data(path))
        var records: [CAVPRecord] = []
        var header: [String: String] = [:]
        var headerComplete = false
        var fields: [String: String] = [:]
        var recordLine = 0

        func finishRecord() {
            if !fields.isEmpty {
                records.append(CAVPRecord(file: path, line: recordLine, header: header, fields: fields))
            }
            fields = [:]
        }

        var lineNumber = 0
        var lineStart = 0
        while lineStart <= bytes.count {
            let lineEnd = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            let line = trimmed(bytes[lineStart..<lineEnd])  // also drops the CR of CRLF
            lineNumber += 1
            lineStart = lineEnd + 1
            if line.isEmpty {
                finishRecord()
            } else if line.first == UInt8(ascii: "#") {
                continue
            } else if line.first == UInt8(ascii: "["), line.last == UInt8(ascii: "]") {
                finishRecord()
                if headerComplete { header = [:] }
                headerComplete = false
                let (key, value) = keyAndValue(line.dropFirst().dropLast())
                header[key] = value
            } else {
                headerComplete = true
                let (key, value) = keyAndValue(line)
                if key == firstKey { finishRecord() }
                guard fields[key] == nil else {
                    throw VectorFileError(description: "\(path):\(lineNumber): \(key) repeated inside one record")
                }
                if fields.isEmpty { recordLine = lineNumber }
                fields[key] = value
            }
        }
        finishRecord()
        guard !records.isEmpty else { throw VectorFileError(description: "\(path): no records") }
        return records
    }

    /// `Key = value` (or a bare `KEY`, whose value is empty), both sides trimmed.
    private static func keyAndValue(_ text: ArraySlice<UInt8>) -> (String, String) {
        guard let equals = text.firstIndex(of: UInt8(ascii: "=")) else { return (string(trimmed(text)), "") }
        return (string(trimmed(text[..<equals])), string(trimmed(text[(equals + 1)...])))
    }

    /// `bytes` without leading and trailing spaces, tabs and carriage returns.
    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let isBlank = { (byte: UInt8) in
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
        }
        guard let first = bytes.firstIndex(where: { !isBlank($0) }), let last = bytes.lastIndex(where: { !isBlank($0) })
        else {
            return bytes[bytes.endIndex...]
        }
        return bytes[first...last]
    }

    private static func string(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// Decodes a Wycheproof JSON file with `Group` describing its `testGroups` entries.
    /// Throws unless the file holds at least one case and exactly `numberOfTests` of them.
    static func wycheproof<Group: WycheproofTestGroup>(
        _ path: String,
        groups: Group.Type
    ) throws -> WycheproofFile<Group> {
        let file = try JSONDecoder().decode(WycheproofFile<Group>.self, from: data(path))
        let caseCount = file.testGroups.reduce(0) { $0 + $1.tests.count }
        guard caseCount > 0, caseCount == file.numberOfTests else {
            throw VectorFileError(description: "\(path): decoded \(caseCount) cases, header says \(file.numberOfTests)")
        }
        return file
    }
}

/// A vector file for one hash algorithm and the number of cases `TestVectors/README.md` documents for it.
struct HashVectorFile: Sendable, CustomTestStringConvertible {
    let algorithm: HashAlgorithm
    let path: String
    let cases: Int

    init(_ algorithm: HashAlgorithm, _ path: String, cases: Int) {
        self.algorithm = algorithm
        self.path = path
        self.cases = cases
    }

    var testDescription: String { path }
}

/// A vector file and the number of cases `TestVectors/README.md` documents for it.
struct VectorFile: Sendable, CustomTestStringConvertible {
    let path: String
    let cases: Int

    init(_ path: String, cases: Int) {
        self.path = path
        self.cases = cases
    }

    var testDescription: String { path }
}

/// One record of a CAVP-style file: its `Key = value` fields and the bracket parameters in force.
struct CAVPRecord {
    let file: String
    /// The line the record starts on (1-based), for failure messages.
    let line: Int
    let header: [String: String]
    let fields: [String: String]

    var location: String { "\(file):\(line)" }

    func string(_ key: String) throws -> String {
        guard let value = fields[key] else { throw VectorFileError(description: "\(location): no \(key)") }
        return value
    }

    func int(_ key: String) throws -> Int {
        guard let value = Int(try string(key)) else {
            throw VectorFileError(description: "\(location): \(key) is not a number")
        }
        return value
    }

    func hex(_ key: String) throws -> [UInt8] {
        try Hex.decode(string(key))
    }

    /// The hex value in canonical lower case, for comparisons that print readably when they fail.
    func hexString(_ key: String) throws -> String {
        try Hex.encode(hex(key))
    }

    func headerInt(_ key: String) throws -> Int {
        guard let value = header[key].flatMap({ Int($0) }) else {
            throw VectorFileError(description: "\(location): no numeric [\(key)] header")
        }
        return value
    }

    /// ASCII text in which `\0` stands for a NUL byte (pyca's RFC 6070 file: `pass\0word`).
    func asciiWithEscapedNUL(_ key: String) throws -> [UInt8] {
        Array(try string(key).replacingOccurrences(of: "\\0", with: "\0").utf8)
    }

    /// A `"quoted ASCII string"` or, unquoted, hex (ring's test files).
    func quotedStringOrHex(_ key: String) throws -> [UInt8] {
        let value = try string(key)
        guard value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") else { return try Hex.decode(value) }
        return Array(value.utf8.dropFirst().dropLast())
    }

    /// The direction of a cipher record: the `[ENCRYPT]` or `[DECRYPT]` header in force.
    func direction() throws -> CipherStream.Direction {
        switch (header["ENCRYPT"], header["DECRYPT"]) {
        case (.some, nil): return .encrypt
        case (nil, .some): return .decrypt
        default: throw VectorFileError(description: "\(location): not under exactly one of [ENCRYPT] and [DECRYPT]")
        }
    }
}

extension CipherStream.Direction {
    /// The CAVP cipher fields holding this direction's input and its expected output.
    var cavpFields: (input: String, output: String) {
        self == .encrypt ? ("PLAINTEXT", "CIPHERTEXT") : ("CIPHERTEXT", "PLAINTEXT")
    }
}

/// The `testGroups[]` entry of one Wycheproof schema.
protocol WycheproofTestGroup: Decodable {
    associatedtype TestCase: Decodable
    var tests: [TestCase] { get }
}

/// A Wycheproof case's `result`. None of the files used has `acceptable` cases, so decoding one fails.
enum WycheproofResult: String, Decodable {
    case valid, invalid
}

/// The top level of a Wycheproof file, generic over its group type.
struct WycheproofFile<Group: WycheproofTestGroup>: Decodable {
    let algorithm: String
    let numberOfTests: Int
    let testGroups: [Group]
}
