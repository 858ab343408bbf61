import Foundation
import TestSupport
import Testing

/// `seccli hash -r` while another process swaps the tree's files between the walk's listing and
/// its opens: a FIFO, a symbolic link to /dev/zero and one to a file outside the tree take turns
/// with the real files. seccli must never block, never read forever, and never print a digest that
/// is not the listed file's; a file found swapped is reported in its place.
@Suite("seccli hash -r against a process that swaps the tree's files")
struct WalkRaceTests {
    /// Files in the tree: `f0000`, `f0001`, …; file `i` is swapped for what `i % 3` says.
    static let fileCount = 600

    /// What replaces file `i` in turn: a FIFO, a link to /dev/zero, a link to `outside.bin`.
    /// It moves every file out and back in (`rename`, as an attacker with write access to the
    /// directory would), in passes over the whole tree, until `stop` exists or 120 s have passed.
    static let swapper = #"""
        import os, sys, time
        root, count = sys.argv[1], int(sys.argv[2])
        def place(made, i):
            os.rename(made, os.path.join(root, "tree", "f%04d" % i))
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not os.path.exists(os.path.join(root, "stop")):
            for i in range(count):
                made = os.path.join(root, "swap", "bad")
                if i % 3 == 0:
                    os.mkfifo(made)
                elif i % 3 == 1:
                    os.symlink("/dev/zero", made)
                else:
                    os.symlink(os.path.join(root, "outside.bin"), made)
                place(made, i)
            for i in range(count):
                made = os.path.join(root, "swap", "good")
                os.link(os.path.join(root, "keep", "f%04d" % i), made)
                place(made, i)
        """#

    @Test("no hang, no read of /dev/zero or of the outside file; each kind of swap is reported in its place")
    func swappedWhileWalking() throws {
        try withScratch { dir in
            for folder in ["tree", "keep", "swap"] {
                try FileManager.default.createDirectory(atPath: dir.path(folder), withIntermediateDirectories: false)
            }
            let names = (0..<Self.fileCount).map { String(format: "f%04d", $0) }
            for name in names {
                try dir.write("keep/\(name)", randomBytes(Int.random(in: 1...4096)))
                try #require(link(dir.path("keep/\(name)"), dir.path("tree/\(name)")) == 0)
            }
            try dir.write("outside.bin", randomBytes(1000))
            // The listed files' digests, from sha256sum before anything is swapped.
            var expected: [String: String] = [:]
            for line in try Tools.reference("sha256sum", names.map { "tree/\($0)" }, in: dir).stdoutLines {
                let parts = line.split(separator: " ", maxSplits: 1)
                expected[String(parts[1].dropFirst())] = String(parts[0])
            }
            #expect(expected.count == Self.fileCount)

            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", "-c", Self.swapper, dir.path, String(Self.fileCount)]
            let swapper = try ServerProcess(running: process)
            defer {
                FileManager.default.createFile(atPath: dir.path("stop"), contents: nil)
                swapper.stop()
            }

            // Which kinds of swap (index % 3) seccli has reported so far.
            var reported: Set<Int> = []
            var runs = 0
            while reported.count < 3 && runs < 20 && swapper.isRunning {
                runs += 1
                let result = try Tools.seccli(["hash", "-r", "tree"], in: dir)
                // A run killed at the timeout (137) blocked on a FIFO or read /dev/zero without end.
                try #require(result.status == 0 || result.status == 1, "run \(runs): exit \(result.status)")
                for line in result.stdoutLines {
                    let parts = line.split(separator: " ", maxSplits: 1)
                    let name = String(parts.count == 2 ? parts[1].dropFirst() : "")
                    #expect(expected[name] == String(parts[0]), "a digest that is not the listed file's: \(line)")
                }
                for message in result.stderr.split(separator: "\n") {
                    let match = message.wholeMatch(
                        of:
                            /seccli: tree\/f(\d{4}): no longer the regular file the walk listed: now (a FIFO|a symbolic link)/
                    )
                    guard let match, let index = Int(match.1) else {
                        Issue.record("run \(runs): unexpected message: \(message)")
                        continue
                    }
                    #expect((index % 3 == 0) == (match.2 == "a FIFO"), "\(message)")
                    reported.insert(index % 3)
                }
                #expect(result.status == (result.stderr.isEmpty ? 0 : 1), "run \(runs): \(result.stderr)")
            }
            #expect(swapper.isRunning, "the swapper stopped early: exit \(swapper.process.terminationStatus)")
            #expect(reported == [0, 1, 2], "kinds of swap seen in \(runs) runs: \(reported.sorted())")
        }
    }
}
