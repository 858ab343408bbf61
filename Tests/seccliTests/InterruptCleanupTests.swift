import Foundation
import TestSupport
import Testing

/// A run stopped by a signal leaves no temporary file: `seccli decrypt`/`encrypt --out` is fed half
/// its input through a pipe by a Python driver, which waits until the `<out>.seckit-XXXXXX` file
/// holds output, sends the signal and reports how the process ended and what is left on disk.
@Suite("seccli: signals remove the temporary --out file")
struct InterruptCleanupTests {
    typealias Format = DecryptFailureTests.Format
    static let format = Format.rawCBC
    static let plaintext = fixedText(4 << 20)

    /// argv: SIGNAL, "ignored" or "default", OUT, INPUT-FILE, the command. Prints one JSON object.
    static let driver = """
        import glob, json, os, signal, subprocess, sys, time
        name, disposition, out, source = sys.argv[1:5]
        number = getattr(signal, name)
        # Inherited across exec: ignored as nohup leaves SIGHUP, or the default whatever this test inherited.
        signal.signal(number, signal.SIG_IGN if disposition == "ignored" else signal.SIG_DFL)
        data = open(source, "rb").read()
        child = subprocess.Popen(sys.argv[5:], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        child.stdin.write(data[: len(data) // 2])
        child.stdin.flush()

        def temporaries():
            return glob.glob(glob.escape(out) + ".seckit-*")

        def sizes():
            result = []
            for path in temporaries():
                try:
                    result.append(os.path.getsize(path))
                except FileNotFoundError:
                    pass
            return result

        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not any(size > 0 for size in sizes()):
            time.sleep(0.01)
        seen = sizes()
        child.send_signal(number)
        if disposition == "ignored":
            time.sleep(0.2)
            child.stdin.write(data[len(data) // 2 :])
        child.stdin.close()
        status = child.wait(timeout=20)
        print(json.dumps({"status": status, "seen": seen, "left": temporaries(), "stderr": child.stderr.read().decode()}))
        """

    struct Report: Decodable {
        /// Python's returncode: the exit code, or minus the signal that ended the process.
        var status: Int
        /// Sizes of the temporary files seen before the signal was sent.
        var seen: [Int]
        var left: [String]
        var stderr: String
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var command: String
        var signal: String
        var number: Int32
        var testDescription: String { "\(command) \(signal)" }
    }

    static let cases: [Case] = ["decrypt", "encrypt"].flatMap { command in
        [("SIGINT", SIGINT), ("SIGTERM", SIGTERM), ("SIGHUP", SIGHUP), ("SIGPIPE", SIGPIPE)]
            .map { Case(command: command, signal: $0.0, number: $0.1) }
    }

    /// Runs `command` (decrypt or encrypt of the fixture) under the driver.
    static func run(_ command: String, signal: String, disposition: String, in dir: Scratch) throws -> Report {
        let seccli = try Tools.seccliExecutable()
        if !FileManager.default.fileExists(atPath: dir.path("input")) {
            try dir.write("input", command == "decrypt" ? try format.encrypt(plaintext) : plaintext)
        }
        let result = try ProcessRunner.run(
            "python3",
            ["-c", driver, signal, disposition, dir.path("out.txt"), dir.path("input"), seccli, command]
                + format.seccliOptions() + ["--out", dir.path("out.txt")],
            environment: format.environment,
            timeout: .seconds(60)
        )
        try #require(result.status == 0, "the driver failed: \(result.stderr)")
        return try JSONDecoder().decode(Report.self, from: Data(result.stdout))
    }

    @Test(
        "the process dies by the signal (128+N), the temporary file is gone, an existing --out is untouched",
        arguments: cases
    )
    func signalRemovesTemporaryFile(_ test: Case) throws {
        try withScratch { dir in
            try dir.write("out.txt", "precious\n")
            let report = try Self.run(test.command, signal: test.signal, disposition: "default", in: dir)
            try #require(report.seen.contains { $0 > 0 }, "no temporary file with output appeared: \(report.stderr)")
            #expect(report.status == -Int(test.number), "ended with \(report.status): \(report.stderr)")
            #expect(report.left.isEmpty, "left behind: \(report.left)")
            #expect(try dir.read("out.txt") == Array("precious\n".utf8))
            #expect(Set(try FileManager.default.contentsOfDirectory(atPath: dir.path)) == ["input", "out.txt"])
        }
    }

    @Test("an ignored SIGHUP (nohup) stays ignored: the run finishes and writes the whole output")
    func ignoredSignalStaysIgnored() throws {
        try withScratch { dir in
            let report = try Self.run("decrypt", signal: "SIGHUP", disposition: "ignored", in: dir)
            try #require(report.seen.contains { $0 > 0 }, "no temporary file with output appeared: \(report.stderr)")
            #expect(report.status == 0, "\(report.stderr)")
            #expect(report.left.isEmpty)
            expectSameBytes(try dir.read("out.txt"), Self.plaintext, "decrypted after SIGHUP")
        }
    }
}
