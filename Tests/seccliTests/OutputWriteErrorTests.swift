import Foundation
import TestSupport
import Testing

/// Every command that prints fails with exit 1 and one line when its standard output cannot be
/// written, as `sha256sum > /dev/full` does: `print`'s buffered lines, `write(2)` of keys and
/// secrets, streamed encryption output, help and version alike.
@Suite("seccli: write errors on standard output")
struct OutputWriteErrorTests {
    static let commands: [[String]] = [
        ["hash", "IN"],
        ["hash", "--json", "IN"],
        ["hash", "IN", "IN", "IN"],
        ["hash", "--check", "LIST"],
        ["hmac", "--key", "env:KEY", "IN"],
        ["keygen"],
        ["keygen", "--format", "jwe-oct"],
        ["kdf", "--password", "env:KEY", "--salt", "00", "--iter", "1000"],
        ["kdf", "--calibrate", "10ms"],
        ["encrypt", "--password", "env:KEY", "--in", "IN", "-a"],
        ["--version"],
        ["hash", "--help"],
    ]

    @Test(arguments: commands)
    func failsWithExitOne(_ arguments: [String]) throws {
        try withScratch { dir in
            try dir.write("in", Array("a message".utf8))
            let digest = try Tools.reference("sha256sum", [dir.path("in")]).stdoutText
            try dir.write("list", Array(digest.utf8))
            let resolved = arguments.map { $0 == "IN" ? dir.path("in") : $0 == "LIST" ? dir.path("list") : $0 }
            let result = try Tools.seccli(
                resolved,
                environment: ["KEY": "a key for the write-error test"],
                under: ["sh", "-c", "exec \"$@\" > /dev/full", "sh"]
            )
            #expect(result.status == 1, "\(arguments): exit \(result.status), stderr: \(result.stderr)")
            expectOneLine(result.stderr)
            #expect(result.stderr.contains("standard output"), "\(result.stderr)")
        }
    }
}
