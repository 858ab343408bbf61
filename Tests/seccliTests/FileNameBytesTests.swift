import Foundation
import TestSupport
import Testing

/// File names are bytes on Linux: names that are not UTF-8 are hashed, checked, walked and printed
/// byte for byte as coreutils does (issue #14).
@Suite("seccli hash and hmac: file names that are not UTF-8")
struct FileNameBytesTests {
    /// `printf` formats of awkward names: Latin-1 é; a backslash before a byte that is no UTF-8;
    /// a newline and such a byte (both escaped in coreutils' lines).
    static let nameFormats = [#"caf\351.txt"#, #"b\\\377.bin"#, #"n\n\376.txt"#]

    /// A shell script that writes a small file under each name and then runs `"$@"` followed by the names.
    /// Only a shell can hand the child such argv entries: Swift strings are Unicode.
    static let script = """
        set -e
        for format in \(nameFormats.map { "'\($0)'" }.joined(separator: " ")); do
            printf "$format" > "$(printf "$format")"
            printf "$format" >> "$(printf "$format")"
        done
        "$@" "$(printf '\(nameFormats[0])')" "$(printf '\(nameFormats[1])')" "$(printf '\(nameFormats[2])')"
        """

    /// Runs `command` (seccli or a reference tool, then its options) on the names, in `dir`.
    private func runOnNames(_ command: [String], in dir: Scratch) throws -> ProcessResult {
        try ProcessRunner.run("/bin/sh", ["-c", Self.script, "sh"] + command, currentDirectory: dir.path)
    }

    private func seccli() throws -> String { try Tools.seccliExecutable() }

    @Test("hash prints sha256sum's lines byte for byte", arguments: Algorithm.allCases)
    func hashArguments(_ algorithm: Algorithm) throws {
        try withScratch { dir in
            let reference = try runOnNames([algorithm.sumTool], in: dir)
            try #require(reference.status == 0, "\(reference.stderr)")
            let ours = try runOnNames([try seccli(), "hash", "-a", algorithm.rawValue], in: dir)
            #expect(ours.status == 0, "\(ours.stderr)")
            #expect(ours.stdout == reference.stdout)
        }
    }

    @Test("hash --check reads sha256sum's list of such names and prints them as sha256sum -c does")
    func checkList() throws {
        try withScratch { dir in
            try dir.write("list", try runOnNames(["sha256sum"], in: dir).requiringSuccess(of: "sha256sum").stdout)
            let reference = try Tools.reference("sha256sum", ["-c", "list"], in: dir)
            let ours = try Tools.seccli(["hash", "--check", "list"], in: dir)
            #expect(ours.status == 0, "\(ours.stderr)")
            #expect(ours.stdout == reference.stdout)

            // A changed file is FAILED under its exact name.
            _ = try runOnNames(["sh", "-c", #"printf x >> "$1""#, "sh"], in: dir)
            let failing = try Tools.referenceAllowingFailure("sha256sum", ["-c", "list"], in: dir)
            let oursFailing = try Tools.seccli(["hash", "--check", "list"], in: dir)
            #expect(oursFailing.status == 1 && failing.status == 1)
            #expect(oursFailing.stdout == failing.stdout)
        }
    }

    @Test("a list named by bytes that are not UTF-8 is read", arguments: ["--check", "--check="])
    func listWithSuchName(_ option: String) throws {
        try withScratch { dir in
            let write = #"sha256sum "$@" > "$(printf 'list\351')""#
            _ = try runOnNames(["sh", "-c", write, "sh"], in: dir).requiringSuccess(of: "writing the list")
            let check = option == "--check" ? #"--check "$list""# : #""--check=$list""#
            let ours = try ProcessRunner.run(
                "/bin/sh",
                ["-c", #"set -e; list=$(printf 'list\351'); "$0" hash "# + check, try seccli()],
                currentDirectory: dir.path
            )
            #expect(ours.status == 0, "\(ours.stderr)")
            #expect(ours.stdoutLines.count == 3 && ours.stdoutLines.allSatisfy { $0.hasSuffix(": OK") })
        }
    }

    @Test("hash -r walks names that are not UTF-8 like find | LC_ALL=C sort | xargs sha256sum")
    func recursiveWalk() throws {
        try withScratch { dir in
            // No newline in these names: find's output is one name per line.
            let script = """
                set -e
                mkdir "$(printf 'tree/d\\351')" -p
                printf 1 > "$(printf 'tree/d\\351/f\\377')"
                printf 2 > "$(printf 'tree/b\\\\\\376')"
                printf 3 > tree/a
                "$@"
                """
            let reference = try ProcessRunner.run(
                "/bin/sh",
                ["-c", script, "sh", "sh", "-c", "find tree -type f | LC_ALL=C sort | xargs -d '\\n' sha256sum"],
                currentDirectory: dir.path
            ).requiringSuccess(of: "find | sort | sha256sum")
            try FileManager.default.removeItem(atPath: dir.path("tree"))
            let ours = try ProcessRunner.run(
                "/bin/sh",
                ["-c", script, "sh", try seccli(), "hash", "-r", "tree"],
                currentDirectory: dir.path
            )
            #expect(ours.status == 0, "\(ours.stderr)")
            #expect(ours.stdout == reference.stdout)
            #expect(reference.stdoutLines.count == 3)
        }
    }

    @Test("hmac names the files byte for byte, with openssl's MACs")
    func hmacArguments() throws {
        try withScratch { dir in
            let ours = try ProcessRunner.run(
                "/bin/sh",
                ["-c", Self.script, "sh", try seccli(), "hmac", "--key", "env:K"],
                environment: ["K": "key"],
                currentDirectory: dir.path
            )
            #expect(ours.status == 0, "\(ours.stderr)")
            // openssl reads each file on standard input: its MAC, then the name's bytes as sha256sum writes them.
            let each = #"for name in "$@"; do openssl dgst -sha256 -hmac key -r < "$name" | cut -d' ' -f1; done"#
            let macs = try runOnNames(["sh", "-c", each, "sh"], in: dir).requiringSuccess(of: "openssl").stdoutLines
            let names = try runOnNames(["sha256sum"], in: dir).requiringSuccess(of: "sha256sum").stdout
            var expected: [UInt8] = []
            for (mac, line) in zip(macs, names.split(separator: 0x0a)) {
                let escaped = line.first == UInt8(ascii: "\\")
                expected +=
                    (escaped ? [UInt8(ascii: "\\")] : []) + Array(mac.utf8) + line.dropFirst(escaped ? 65 : 64) + [0x0a]
            }
            #expect(macs.count == 3)
            #expect(ours.stdout == expected)
        }
    }

    @Test("--json gives such a name as text with U+FFFD and exactly in nameBase64; UTF-8 names have no nameBase64")
    func jsonNames() throws {
        try withScratch { dir in
            try dir.write("plain.txt", "x")
            let ours = try runOnNames([try seccli(), "hash", "--json", "plain.txt"], in: dir)
            #expect(ours.status == 0, "\(ours.stderr)")
            let entries = try #require(try JSONSerialization.jsonObject(with: Data(ours.stdout)) as? [[String: String]])
            #expect(entries.count == 4)
            #expect(entries[0]["name"] == "plain.txt" && entries[0]["nameBase64"] == nil)
            let expectedNames = try Self.nameFormats.map { format in
                try ProcessRunner.run("/usr/bin/printf", [format]).requiringSuccess(of: "printf").stdout
            }
            for (entry, name) in zip(entries.dropFirst(), expectedNames) {
                #expect(entry["nameBase64"].flatMap { Data(base64Encoded: $0) } == Data(name))
                #expect(entry["name"] == String(decoding: name, as: UTF8.self))
                #expect(entry["name"]?.contains("\u{FFFD}") == true)
            }
        }
    }
}
