import Foundation
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
