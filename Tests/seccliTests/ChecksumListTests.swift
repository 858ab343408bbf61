import Foundation
import TestSupport
import Testing

/// Checksum lists travel both ways between `seccli hash` and the coreutils `*sum -c`.
@Suite("seccli hash --check: interop with *sum -c")
struct ChecksumListTests {
    /// File names that need care in the list format: coreutils writes the last three in its escaped
    /// form (`\<hex>  new\nline`).
    static let awkwardNames = [
        "plain.txt", "with space.txt", "back\\slash.txt", "new\nline.txt", "carriage\rreturn.txt",
    ]

    /// Writes one small random file per name.
    private func writeFiles(_ names: [String], in dir: Scratch) throws {
        for name in names { try dir.write(name, randomBytes(Int.random(in: 0...300))) }
    }

    @Test(
        "*sum -c accepts the list written by seccli hash, which is byte-identical to *sum's",
        arguments: Algorithm.allCases
    )
    func referenceChecksOurList(_ algorithm: Algorithm) throws {
        try withScratch { dir in
            try writeFiles(Self.awkwardNames, in: dir)
            let ours = try Tools.seccli(["hash", "-a", algorithm.rawValue] + Self.awkwardNames, in: dir)
            #expect(ours.status == 0)
            #expect(ours.stdout == (try Tools.reference(algorithm.sumTool, Self.awkwardNames, in: dir)).stdout)

            try dir.write("list", ours.stdout)
            let check = try Tools.referenceAllowingFailure(algorithm.sumTool, ["--strict", "-c", "list"], in: dir)
            #expect(check.status == 0, "\(algorithm.sumTool) -c: \(check.stderr)")
            #expect(check.stderr.isEmpty)
            #expect(check.stdoutText.components(separatedBy: ": OK\n").count == Self.awkwardNames.count + 1)
        }
    }

    enum ListStyle: String, CaseIterable, Sendable {
        /// `<hex>  <name>`
        case text
        /// `<hex> *<name>`, as written by `sha256sum -b`
        case binaryMarker
        /// the text form, read by seccli from standard input (`--check -`)
        case textOnStandardInput
    }

    @Test("seccli hash --check accepts a list written by *sum", arguments: Algorithm.allCases, ListStyle.allCases)
    func weCheckReferenceList(_ algorithm: Algorithm, style: ListStyle) throws {
        try withScratch { dir in
            try writeFiles(Self.awkwardNames, in: dir)
            let list = try Tools.reference(
                algorithm.sumTool,
                (style == .binaryMarker ? ["-b"] : []) + Self.awkwardNames,
                in: dir
            )
            if style == .binaryMarker { #expect(list.stdoutText.contains(" *plain.txt\n")) }
            try dir.write("list", list.stdout)

            let ours =
                style == .textOnStandardInput
                ? try Tools.seccli(["hash", "-a", algorithm.rawValue, "--check", "-"], stdin: list.stdout, in: dir)
                : try Tools.seccli(["hash", "-a", algorithm.rawValue, "--check", "list"], in: dir)
            #expect(ours.status == 0)
            #expect(ours.stderr.isEmpty)
            #expect(ours.stdoutLines.count == Self.awkwardNames.count)
            #expect(ours.stdoutLines.allSatisfy { $0.hasSuffix(": OK") }, "\(ours.stdoutLines)")
            #expect(ours.stdoutLines.contains("plain.txt: OK"))
            #expect(ours.stdoutLines.contains("with space.txt: OK"))
        }
    }

    @Test("--check prints each name as sha256sum -c does", arguments: awkwardNames)
    func checkOutputNames(_ name: String) throws {
        try withScratch { dir in
            try writeFiles([name], in: dir)
            try dir.write("list", try Tools.reference("sha256sum", [name], in: dir).stdout)
            let ours = try Tools.seccli(["hash", "--check", "list"], in: dir)
            let reference = try Tools.reference("sha256sum", ["-c", "list"], in: dir)
            #expect(ours.status == 0)
            // coreutils prints the name unchanged unless it has a newline, and then in the escaped
            // form with a leading backslash: `\new\nline.txt: OK`.
            #expect(ours.stdoutText == reference.stdoutText)
        }
    }

    enum Damage: String, CaseIterable, Sendable {
        case none, modified, missing, modifiedAndMissing
        var modifies: Bool { self == .modified || self == .modifiedAndMissing }
        var removes: Bool { self == .missing || self == .modifiedAndMissing }
    }

    @Test(
        "--check reports FAILED and unreadable files with sha256sum -c's output and exit code",
        arguments: Damage.allCases,
        [false, true]
    )
    func damagedFiles(_ damage: Damage, quiet: Bool) throws {
        try withScratch { dir in
            let names = ["a.txt", "b.txt", "c.txt"]
            try writeFiles(names, in: dir)
            try dir.write("list", try Tools.reference("sha256sum", names, in: dir).stdout)
            if damage.modifies { try dir.write("b.txt", Array(try dir.read("b.txt")) + [0x0a]) }
            if damage.removes { try FileManager.default.removeItem(atPath: dir.path("c.txt")) }

            let ours = try Tools.seccli(["hash"] + (quiet ? ["--quiet"] : []) + ["--check", "list"], in: dir)
            let reference = try Tools.referenceAllowingFailure(
                "sha256sum",
                (quiet ? ["--quiet"] : []) + ["-c", "list"],
                in: dir
            )
            #expect(ours.status == reference.status)
            #expect(ours.stdoutText == reference.stdoutText)
            #expect(ours.stderr == asSeccliMessages(reference.stderr, from: "sha256sum"))

            // The same, spelled out.
            #expect(ours.status == (damage == .none ? 0 : 1))
            #expect(ours.stdoutText.contains("a.txt: OK") == !quiet)
            #expect(ours.stdoutText.contains("b.txt: FAILED\n") == damage.modifies)
            #expect(ours.stdoutText.contains("c.txt: FAILED open or read\n") == damage.removes)
            var expectedErrors = ""
            if damage.removes {
                expectedErrors += "seccli: c.txt: No such file or directory\n"
                expectedErrors += "seccli: WARNING: 1 listed file could not be read\n"
            }
            if damage.modifies { expectedErrors += "seccli: WARNING: 1 computed checksum did NOT match\n" }
            #expect(ours.stderr == expectedErrors)
        }
    }

    @Test("an improperly formatted line is warned about and skipped, as by sha256sum -c")
    func improperlyFormattedLine() throws {
        try withScratch { dir in
            try writeFiles(["a.txt"], in: dir)
            let good = try Tools.reference("sha256sum", ["a.txt"], in: dir).stdoutText
            try dir.write("list", "# a comment\n" + good + "not a checksum line\n")
            let ours = try Tools.seccli(["hash", "--check", "list"], in: dir)
            let reference = try Tools.reference("sha256sum", ["-c", "list"], in: dir)
            #expect(ours.status == reference.status)
            #expect(ours.stdoutText == reference.stdoutText)
            #expect(ours.stderr == asSeccliMessages(reference.stderr, from: "sha256sum"))
            #expect(ours.stderr == "seccli: WARNING: 1 line is improperly formatted\n")
        }
    }

    @Test("a list for another algorithm has no properly formatted lines: exit 1, one line on stderr")
    func noProperlyFormattedLines() throws {
        try withScratch { dir in
            try writeFiles(["a.txt"], in: dir)
            try dir.write("list", try Tools.reference("md5sum", ["a.txt"], in: dir).stdout)
            let ours = try Tools.seccli(["hash", "-a", "sha256", "--check", "list"], in: dir)
            let reference = try Tools.referenceAllowingFailure("sha256sum", ["-c", "list"], in: dir)
            #expect(
                reference.status == 1
                    && reference.stderr == "sha256sum: list: no properly formatted checksum lines found\n"
            )
            #expect(ours.status == 1)
            #expect(ours.stdout.isEmpty)
            #expect(ours.stderr.hasSuffix("seccli: list: no properly formatted sha256 checksum lines found\n"))
            expectOneLine(ours.stderr)
        }
    }
}

/// Lists in every form `sha256sum -c` reads, streamed line by line in bounded memory (issue #14).
@Suite("seccli hash --check: list forms and list size")
struct ChecksumListFormTests {
    /// A list made from `sha256sum`'s output for `ChecksumListTests.awkwardNames`, in one form.
    enum ListForm: String, CaseIterable, Sendable {
        case crlf, tagged, taggedCRLF, blankLinesAndComments, noFinalNewline, leadingBlanks, upperCaseHex
        case reversed, reversedThenStandard, standardThenReversed, badEscape, overlongLine, otherAlgorithmTag
        /// Read from standard input, with a line naming `-` (which coreutils counts as malformed there).
        case standardInputNamingStandardInput

        /// The list, from sha256sum's plain and `--tag` lines (each without its line feed).
        func list(plain: [[UInt8]], tagged: [[UInt8]]) -> [UInt8] {
            let lf: [UInt8] = [0x0a]
            let crlf: [UInt8] = [0x0d, 0x0a]
            func joined(_ lines: [[UInt8]], _ end: [UInt8] = lf) -> [UInt8] { lines.flatMap { $0 + end } }
            /// `<hex>  <name>` as `<hex> <name>`, the reversed BSD form.
            func reversedLine(_ line: [UInt8]) -> [UInt8] {
                let hexEnd = line.firstIndex(of: UInt8(ascii: " "))!
                return Array(line[..<hexEnd]) + line[(hexEnd + 1)...]
            }
            let half = plain.count / 2
            switch self {
            case .crlf: return joined(plain, crlf)
            case .tagged: return joined(tagged)
            case .taggedCRLF: return joined(tagged, crlf)
            case .blankLinesAndComments:
                let extra: [[UInt8]] = [[], Array("# a comment".utf8), [0x0d], Array("   ".utf8), [0x09]]
                return joined(zip(plain, extra + extra).flatMap { [$0, $1] })
            case .noFinalNewline: return Array(joined(plain).dropLast())
            case .leadingBlanks: return joined(plain.map { Array(" \t".utf8) + $0 })
            case .upperCaseHex:
                return joined(
                    plain.map { line in
                        // The digest only: after the escape's `\`, if any, up to the first space.
                        line.prefix { $0 != UInt8(ascii: " ") }.map { (0x61...0x66).contains($0) ? $0 - 0x20 : $0 }
                            + line.drop { $0 != UInt8(ascii: " ") }
                    }
                )
            case .reversed: return joined(plain.map(reversedLine))
            case .reversedThenStandard: return joined(plain[..<half].map(reversedLine) + plain[half...])
            case .standardThenReversed: return joined(plain[..<half] + plain[half...].map(reversedLine))
            case .badEscape:
                let bad = Array("\\".utf8) + plain[0].prefix(66) + Array("plain\\q.txt".utf8)
                return joined([bad] + plain)
            case .overlongLine:
                return joined(plain[..<half] + [Array(repeating: UInt8(ascii: "x"), count: 100_000)] + plain[half...])
            case .otherAlgorithmTag:
                return joined([Array("MD5 (plain.txt) = d41d8cd98f00b204e9800998ecf8427e".utf8)] + plain)
            case .standardInputNamingStandardInput:
                return joined(plain + [Array(plain[0].prefix(66)) + Array("-".utf8)])
            }
        }
    }

    @Test("seccli hash --check reads each list form as sha256sum -c does", arguments: ListForm.allCases)
    func listForm(_ form: ListForm) throws {
        try withScratch { dir in
            let names = ChecksumListTests.awkwardNames
            for name in names { try dir.write(name, randomBytes(Int.random(in: 0...300))) }
            func lines(_ result: ProcessResult) -> [[UInt8]] {
                result.stdout.split(separator: 0x0a, omittingEmptySubsequences: false).dropLast().map(Array.init)
            }
            let plain = lines(try Tools.reference("sha256sum", names, in: dir))
            let tagged = lines(try Tools.reference("sha256sum", ["--tag"] + names, in: dir))
            let list = form.list(plain: plain, tagged: tagged)
            try dir.write("list", list)

            let fromStandardInput = form == .standardInputNamingStandardInput
            let arguments = fromStandardInput ? ["-c", "-"] : ["-c", "list"]
            let stdin = fromStandardInput ? list : nil
            let reference = try Tools.referenceAllowingFailure("sha256sum", arguments, stdin: stdin, in: dir)
            let ours = try Tools.seccli(["hash"] + arguments, stdin: stdin, in: dir)
            #expect(ours.status == reference.status, "\(ours.stderr)")
            #expect(ours.stdout == reference.stdout, "\(ours.stdoutText)")
            // coreutils quotes names in its messages about unreadable files, seccli does not: the summaries agree.
            func warnings(_ stderr: String) -> [Substring] {
                stderr.split(separator: "\n").filter { $0.contains("WARNING") }
            }
            #expect(warnings(ours.stderr) == warnings(asSeccliMessages(reference.stderr, from: "sha256sum")))
            // Every form names every file; the mixed forms and the malformed lines are what sha256sum makes of them.
            #expect(reference.stdoutText.contains("plain.txt: OK"))
        }
    }

    @Test("a list with a NUL byte (/dev/zero: one endless line) ends at once: exit 1, one line, bounded memory")
    func endlessLineOfNULBytes() throws {
        let (result, peak) = try Self.runMeasured(["hash", "--check", "/dev/zero"])
        expectOneLineError(result, status: 1)
        #expect(result.stderr == "seccli: /dev/zero: line 1 contains a NUL byte: not a checksum list\n")
        #expect(peak < 64 * 1024 * 1024, "peak RSS \(peak) bytes")
    }

    @Test("a 20 MB list is checked in bounded memory, with sha256sum -c's output", .tags(.slow))
    func largeList() throws {
        try withScratch { dir in
            // Long names make a large list of few lines: 20 MB in about 70,000 lines.
            let names = (0..<3).map { "\($0)-" + String(repeating: "n", count: 200) }
            for name in names { try dir.write(name, randomBytes(100)) }
            let lines = try Tools.reference("sha256sum", names, in: dir).stdout
            let repeats = 20_000_000 / lines.count + 1
            let list = Array([[UInt8]](repeating: lines, count: repeats).joined())
            try dir.write("list", list)
            try dir.write("one", lines)

            let (small, baseline) = try Self.runMeasured(["hash", "--check", "one"], in: dir)
            let (ours, peak) = try Self.runMeasured(["hash", "--check", "list"], in: dir)
            #expect(small.status == 0 && ours.status == 0, "\(ours.stderr)")
            let reference = try Tools.reference("sha256sum", ["-c", "list"], in: dir)
            #expect(ours.stdout == reference.stdout)
            // Holding the list would take at least its 20 MB on top of what a one-line list takes.
            #expect(peak - baseline < 16 * 1024 * 1024, "peak RSS \(peak) bytes, \(baseline) for a one-line list")
        }
    }

    /// Runs seccli under GNU time: its result and its peak resident set size in bytes.
    private static func runMeasured(_ arguments: [String], in dir: Scratch? = nil) throws -> (ProcessResult, Int) {
        try withScratch { measurements in
            let result = try Tools.seccli(
                arguments,
                in: dir,
                under: ["/usr/bin/time", "-f", "%M", "-o", measurements.path("rss")]
            )
            let text = String(decoding: try measurements.read("rss"), as: UTF8.self)
            // GNU time puts "Command exited with non-zero status N" before the number.
            let kilobytes = try #require(text.split(separator: "\n").last.flatMap { Int($0) }, "\(text)")
            return (result, kilobytes * 1024)
        }
    }
}
