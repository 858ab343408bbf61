import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `seccli hash`, `hash --check`, `hash -r` and `hmac` over many files, which seccli reads several at
/// a time: the output must still be the coreutils tools' (or openssl's), in argument order, with one
/// worker (`taskset -c 0`) and with one per processor alike.
@Suite("seccli hash over many files: interop with *sum, find and openssl, one worker or many")
struct ParallelHashTests {
    /// `count` files of random sizes up to about 300 KiB (a few over one 256 KiB read chunk), named
    /// `file-N.bin`, in a shuffled order.
    private func writeFiles(_ count: Int, maximumSize: Int = 300_000, in dir: Scratch) throws -> [String] {
        var names: [String] = []
        for index in 0..<count {
            names.append("file-\(index).bin")
            try dir.write(names[index], randomBytes(Int.random(in: 0...maximumSize)))
        }
        return names.shuffled()
    }

    /// Arguments that cannot be hashed, each as `sha256sum` reports it: a missing path, a directory,
    /// a dangling symbolic link (chmod 000 would not stop a test run as root).
    private func writeUnreadable(in dir: Scratch) throws -> [String] {
        try FileManager.default.createDirectory(atPath: dir.path("a-directory"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: dir.path("dangling"), withDestinationPath: "nowhere")
        return ["missing.bin", "a-directory", "dangling"]
    }

    /// `elements` with each of `extra` inserted at a random place.
    private func scattering(_ extra: [String], into elements: [String]) -> [String] {
        var result = elements
        for element in extra { result.insert(element, at: Int.random(in: 0...result.count)) }
        return result
    }

    @Test(
        "40 files, unreadable ones and standard input twice: *sum's stdout byte for byte, its messages, exit 1",
        arguments: [Algorithm.sha256, .sha512]
    )
    func manyFiles(_ algorithm: Algorithm) throws {
        try withScratch { dir in
            let arguments = scattering(try writeUnreadable(in: dir) + ["-", "-"], into: try writeFiles(40, in: dir))
            let stdin = randomBytes(100_000)
            let reference = try Tools.referenceAllowingFailure(algorithm.sumTool, arguments, stdin: stdin, in: dir)
            #expect(reference.status == 1)
            #expect(reference.stderr.split(separator: "\n").count == 3)

            for workers in Workers.allCases {
                let ours = try Tools.seccli(
                    ["hash", "-a", algorithm.rawValue] + arguments,
                    stdin: stdin,
                    in: dir,
                    under: workers.launcher
                )
                #expect(ours.status == reference.status, "\(workers)")
                expectSameBytes(ours.stdout, reference.stdout, "stdout with \(workers)")
                #expect(ours.stderr == asSeccliMessages(reference.stderr, from: algorithm.sumTool), "\(workers)")
            }
        }
    }

    @Test("each failure is reported where its line would be: stdout and stderr together are in argument order")
    func failuresInPlace() throws {
        try withScratch { dir in
            let unreadable = try writeUnreadable(in: dir)
            let arguments = scattering(unreadable, into: try writeFiles(30, in: dir))
            let reference = try Tools.referenceAllowingFailure("sha256sum", arguments, in: dir)
            // The reference's lines and messages, put back in argument order (sha256sum itself buffers
            // stdout in a pipe, so its messages come first when both go to one pipe).
            var lines = reference.stdoutLines[...]
            var messages = asSeccliMessages(reference.stderr, from: "sha256sum").split(separator: "\n")[...]
            var expected = ""
            for argument in arguments {
                expected += String(unreadable.contains(argument) ? messages.popFirst()! : lines.popFirst()![...]) + "\n"
            }
            #expect(lines.isEmpty && messages.isEmpty)

            for workers in Workers.allCases {
                let ours = try Tools.seccli(
                    ["hash"] + arguments,
                    mergingStandardError: true,
                    in: dir,
                    under: workers.launcher
                )
                #expect(ours.status == 1, "\(workers)")
                #expect(ours.stdoutText == expected, "\(workers)")
            }
        }
    }

    @Test("more files than are read ahead (256): *sum's output", .tags(.slow))
    func moreFilesThanTheWindow() throws {
        try withScratch { dir in
            let arguments = try writeFiles(700, maximumSize: 200, in: dir)
            let reference = try Tools.reference("sha256sum", arguments, in: dir)
            for workers in Workers.allCases {
                let ours = try Tools.seccli(["hash"] + arguments, in: dir, under: workers.launcher)
                #expect(ours.status == 0 && ours.stderr.isEmpty, "\(workers): \(ours.stderr)")
                expectSameBytes(ours.stdout, reference.stdout, "stdout with \(workers)")
            }
        }
    }

    @Test("--base64 and --json of many files: the digests *sum computes, in argument order")
    func base64AndJSON() throws {
        try withScratch { dir in
            let files = try writeFiles(40, in: dir)
            let arguments = scattering(["missing.bin"], into: files)
            let reference = try Tools.referenceAllowingFailure("sha256sum", arguments, in: dir)
            let digests = try reference.stdoutLines.map { line in
                let hex = String(line.prefix(64))
                let bytes = try #require(decodeHex(hex), "not a digest: \(line)")
                return (name: String(line.dropFirst(66)), hex: hex, base64: Data(bytes).base64EncodedString())
            }
            #expect(digests.map(\.name) == arguments.filter { $0 != "missing.bin" })

            for workers in Workers.allCases {
                let base64 = try Tools.seccli(["hash", "--base64"] + arguments, in: dir, under: workers.launcher)
                #expect(base64.status == 1, "\(workers)")
                #expect(base64.stderr == "seccli: missing.bin: No such file or directory\n", "\(workers)")
                #expect(base64.stdoutLines == digests.map { "\($0.base64)  \($0.name)" }, "\(workers)")

                let json = try Tools.seccli(["hash", "--json"] + arguments, in: dir, under: workers.launcher)
                #expect(json.status == 1, "\(workers)")
                let entries = try #require(
                    try JSONSerialization.jsonObject(with: Data(json.stdout)) as? [[String: String]],
                    "not a JSON array of objects: \(json.stdoutText)"
                )
                #expect(entries.map { $0["name"] } == digests.map(\.name), "\(workers)")
                #expect(entries.map { $0["hex"] } == digests.map(\.hex), "\(workers)")
                #expect(entries.map { $0["base64"] } == digests.map(\.base64), "\(workers)")
                #expect(entries.allSatisfy { $0["algorithm"] == "sha256" })
            }
        }
    }

    @Test("--check of a long list with mismatching and missing files: sha256sum -c's output and exit code")
    func checkManyEntries() throws {
        try withScratch { dir in
            let names = try writeFiles(40, in: dir)
            try dir.write("list", try Tools.reference("sha256sum", names, in: dir).stdout)
            for name in names.shuffled().prefix(5) { try dir.write(name, Array(try dir.read(name)) + [0x0a]) }
            for name in names.shuffled().prefix(4) { try? FileManager.default.removeItem(atPath: dir.path(name)) }

            let reference = try Tools.referenceAllowingFailure("sha256sum", ["-c", "list"], in: dir)
            #expect(reference.status == 1)
            for workers in Workers.allCases {
                let ours = try Tools.seccli(["hash", "--check", "list"], in: dir, under: workers.launcher)
                #expect(ours.status == reference.status, "\(workers)")
                #expect(ours.stdoutText == reference.stdoutText, "\(workers)")
                #expect(ours.stderr == asSeccliMessages(reference.stderr, from: "sha256sum"), "\(workers)")
            }
        }
    }

    @Test("hmac over many files equals openssl dgst -hmac, in argument order")
    func hmacManyFiles() throws {
        try withScratch { dir in
            let arguments = try writeFiles(30, in: dir)
            let key = randomPrintable(32)
            let reference = try Tools.reference(
                "openssl",
                ["dgst", "-sha256", "-hmac", key, "-r"] + arguments,
                in: dir
            )
            // openssl -r writes `<hex> *<name>`; seccli writes sha256sum's `<hex>  <name>`.
            let expected = reference.stdoutLines.map { $0.replacingOccurrences(of: " *", with: "  ") }
            for workers in Workers.allCases {
                let ours = try Tools.seccli(
                    ["hmac", "--key", "env:SECCLI_TEST_KEY"] + arguments,
                    environment: ["SECCLI_TEST_KEY": key],
                    in: dir,
                    under: workers.launcher
                )
                #expect(ours.status == 0 && ours.stderr.isEmpty, "\(workers): \(ours.stderr)")
                #expect(ours.stdoutLines == expected, "\(workers)")
            }
        }
    }

    // MARK: - Recursive

    /// A tree whose sorted order differs from a walk that sorts names alone (`a-b`, `a.c` and `a0`
    /// around the directory `a`), with spaces, nesting, an empty directory, symbolic links to a file
    /// and to a directory, and a FIFO. Returns the root's name.
    private func writeTree(in dir: Scratch) throws -> String {
        let files = [
            "a/x", "a/b/y", "a/b/c/deep", "a-b/q", "a.c", "a0", "Z", "sp ace/f g", "z/1", "z/10", "z/2", "z/one/two",
        ]
        let manager = FileManager.default
        for directory in ["a/b/c", "a-b", "sp ace", "z/one", "empty"] {
            try manager.createDirectory(atPath: dir.path("tree/\(directory)"), withIntermediateDirectories: true)
        }
        for file in files { try dir.write("tree/\(file)", randomBytes(Int.random(in: 0...70_000))) }
        try manager.createSymbolicLink(atPath: dir.path("tree/z/to-a"), withDestinationPath: "../a")
        try manager.createSymbolicLink(atPath: dir.path("tree/z/to-a0"), withDestinationPath: "../a0")
        #expect(mkfifo(dir.path("tree/fifo"), 0o600) == 0)
        return "tree"
    }

    /// `find <findOptions> ROOTS -type f | sort | xargs sha256sum`, run by the shell (LC_ALL=C).
    private func findAndHash(_ roots: [String], findOptions: [String] = [], in dir: Scratch) throws -> ProcessResult {
        let script = #"find "$@" -type f | sort | tr '\n' '\0' | xargs -0 sha256sum"#
        return try Tools.reference("sh", ["-c", script, "sh"] + findOptions + roots, in: dir)
    }

    @Test("-r equals find DIR -type f | sort | xargs sha256sum: nested, sorted by whole path, links not followed")
    func recursive() throws {
        try withScratch { dir in
            let root = try writeTree(in: dir)
            try dir.write("single.txt", randomBytes(100))
            let reference = try findAndHash([root], in: dir)
            #expect(reference.stdoutLines.count == 12)
            for workers in Workers.allCases {
                let ours = try Tools.seccli(["hash", "-r", root], in: dir, under: workers.launcher)
                #expect(ours.status == 0 && ours.stderr.isEmpty, "\(workers): \(ours.stderr)")
                expectSameBytes(ours.stdout, reference.stdout, "stdout with \(workers)")
            }

            // Several arguments one after the other; `DIR/` spelled as find spells it; a file as is.
            let roots = ["\(root)/z/", "single.txt", "\(root)/a"]
            let ours = try Tools.seccli(["hash", "--recursive"] + roots, in: dir)
            var expected: [UInt8] = []
            for argument in roots { expected += try findAndHash([argument], in: dir).stdout }
            #expect(ours.status == 0 && ours.stderr.isEmpty, "\(ours.stderr)")
            expectSameBytes(ours.stdout, expected, "several roots")

            // Without -r, a directory stays an error for that argument, as for sha256sum.
            let plain = try Tools.seccli(["hash", root, "single.txt"], in: dir)
            let sum = try Tools.referenceAllowingFailure("sha256sum", [root, "single.txt"], in: dir)
            #expect(plain.status == 1 && sum.status == 1)
            #expect(plain.stdout == sum.stdout)
            #expect(plain.stderr == asSeccliMessages(sum.stderr, from: "sha256sum"))
        }
    }

    @Test("-r --follow-symlinks equals find -L; a dangling link and a loop are reported in their place")
    func recursiveFollowingLinks() throws {
        try withScratch { dir in
            let root = try writeTree(in: dir)
            let reference = try findAndHash([root], findOptions: ["-L"], in: dir)
            #expect(reference.stdoutLines.count == 12 + 4)
            for workers in Workers.allCases {
                let ours = try Tools.seccli(
                    ["hash", "-r", "--follow-symlinks", root],
                    in: dir,
                    under: workers.launcher
                )
                #expect(ours.status == 0 && ours.stderr.isEmpty, "\(workers): \(ours.stderr)")
                expectSameBytes(ours.stdout, reference.stdout, "stdout with \(workers)")
            }

            try FileManager.default.createSymbolicLink(atPath: dir.path("tree/a/b/dangling"), withDestinationPath: "no")
            try FileManager.default.createSymbolicLink(atPath: dir.path("tree/a/b/up"), withDestinationPath: "..")
            let ours = try Tools.seccli(
                ["hash", "-r", "--follow-symlinks", "\(root)/a"],
                mergingStandardError: true,
                in: dir,
                under: Workers.perProcessor.launcher
            )
            #expect(ours.status == 1)
            let lines = ours.stdoutLines
            // tree/a/b/c/deep, then b/dangling, then b/up (tree/a again), then b/y and x.
            #expect(lines.count == 5, "\(lines)")
            #expect(lines[0].hasSuffix("  tree/a/b/c/deep"))
            #expect(lines[1] == "seccli: tree/a/b/dangling: No such file or directory")
            #expect(lines[2].hasPrefix("seccli: tree/a/b/up: file system loop"))
            #expect(lines[3].hasSuffix("  tree/a/b/y") && lines[4].hasSuffix("  tree/a/x"))
        }
    }

    @Test("-r: a directory that cannot be listed is reported in its place, like find, and the rest hashed")
    func unreadableDirectory() throws {
        try withScratch { dir in
            let root = try writeTree(in: dir)
            try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: dir.path("tree/a/b"))
            defer {
                try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.path("tree/a/b"))
            }
            let script = #"find "$1" -type f | sort | tr '\n' '\0' | xargs -0 sha256sum"#
            let find = Self.unprivileged + ["sh", "-c", script, "sh", root]
            let reference = try ProcessRunner.run(find[0], Array(find.dropFirst()), currentDirectory: dir.path)
            #expect(reference.stderr.contains("'tree/a/b': Permission denied"), "find: \(reference.stderr)")
            let ours = try Tools.seccli(["hash", "-r", root], in: dir, under: Self.unprivileged)
            #expect(ours.status == 1)
            #expect(ours.stdout == reference.stdout)
            #expect(ours.stderr == "seccli: tree/a/b: Permission denied\n")
        }
    }

    @Test(
        "--follow-symlinks without -r, and -r with --check, are usage errors",
        arguments: [["--follow-symlinks", "a.txt"], ["-r", "--check", "list"]]
    )
    func recursiveUsageErrors(_ arguments: [String]) throws {
        try withScratch { dir in
            try dir.write("a.txt", randomBytes(10))
            try dir.write("list", try Tools.reference("sha256sum", ["a.txt"], in: dir).stdout)
            expectOneLineError(try Tools.seccli(["hash"] + arguments, in: dir), status: 64)
        }
    }

    /// A command runs as the user nobody under this when the tests run as root, whom mode 000 does not stop.
    private static let unprivileged =
        getuid() == 0 ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"] : []

    /// The bytes of an even number of hex digits; nil for anything else.
    private func decodeHex(_ hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            let pair = String(decoding: digits[index..<index + 2], as: UTF8.self)
            guard let byte = UInt8(pair, radix: 16) else { return nil }
            bytes.append(byte)
        }
        return bytes
    }
}

/// How many workers seccli may use: one (`taskset -c 0`, which leaves one processor in the affinity
/// mask) or one per processor of the machine (the tests' own mask).
enum Workers: String, CaseIterable, Sendable, CustomStringConvertible {
    case one, perProcessor

    var description: String { self == .one ? "taskset -c 0" : "one worker per processor" }

    /// The command seccli runs under for this worker count (`Tools.seccli(…, under:)`).
    var launcher: [String] { self == .one ? ["taskset", "-c", "0"] : [] }
}
