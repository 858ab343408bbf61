import Foundation
import TestSupport
import Testing

/// Nothing is written before the input is verified: devices written in place, no partial `--out`.
extension DecryptFailureTests {
    @Test(
        "--out naming a device is written in place, never replaced: /dev/null stays a character device",
        arguments: Format.allCases
    )
    func outputToDevice(_ format: Format) throws {
        try withScratch { dir in
            try dir.write("in.enc", try format.encrypt(fixedText(1000)))
            for command in [
                ["decrypt"] + format.seccliOptions() + ["--in", "in.enc"],
                ["encrypt"] + format.seccliOptions() + ["--in", "in.enc"],
            ] {
                let result = try Tools.seccli(
                    command + ["--out", "/dev/null"],
                    environment: format.environment,
                    in: dir
                )
                #expect(result.status == 0, "\(command.first!): \(result.stderr)")
                let attributes = try FileManager.default.attributesOfItem(atPath: "/dev/null")
                #expect(attributes[.type] as? FileAttributeType == .typeCharacterSpecial, "/dev/null was replaced")
            }
            let full = try Tools.seccli(
                ["decrypt"] + format.seccliOptions() + ["--in", "in.enc", "--out", "/dev/full"],
                environment: format.environment,
                in: dir
            )
            #expect(full.status == 1)
            #expect(full.stderr == "seccli: /dev/full: No space left on device\n")
        }
    }

    @Test(
        "--out is replaced only on success, keeping its mode; no temporary file is left; stdout gets nothing from a bad 3 MiB file",
        arguments: Format.allCases
    )
    func outputOnlyOnSuccess(_ format: Format) throws {
        try withScratch { dir in
            let plaintext = fixedText(largeSize)
            let good = try format.encrypt(plaintext)
            var bad = good
            bad[bad.count - 1] ^= 0x01
            if format.isCBC {
                let reference = try Tools.opensslAllowingFailure(
                    format.opensslDecryptArguments(),
                    stdin: bad,
                    environment: format.environment
                )
                try #require(reference.status != 0, "openssl decrypts the altered fixture: pick another")
            }
            try dir.write("good.enc", good)
            try dir.write("bad.enc", bad)
            let precious = Array("keep me\n".utf8)
            try dir.write("existing.txt", precious)
            try #require(chmod(dir.path("existing.txt"), 0o600) == 0)
            func decrypt(_ input: String, to output: String?) throws -> ProcessResult {
                try Tools.seccli(
                    ["decrypt"] + format.seccliOptions() + ["--in", input] + (output.map { ["--out", $0] } ?? []),
                    environment: format.environment,
                    in: dir
                )
            }

            // Failures: the existing file untouched, no new file, no temporary file, nothing on stdout.
            Self.expectCheckFailed(try decrypt("bad.enc", to: "existing.txt"), format)
            #expect(try dir.read("existing.txt") == precious)
            Self.expectCheckFailed(try decrypt("bad.enc", to: "new.txt"), format)
            Self.expectCheckFailed(try decrypt("bad.enc", to: nil), format)
            #expect(try directoryEntries(dir) == ["good.enc", "bad.enc", "existing.txt"])

            // Success: replaced in place (same mode), or created.
            let replaced = try decrypt("good.enc", to: "existing.txt")
            #expect(replaced.status == 0, "\(replaced.stderr)")
            #expect(replaced.stdout.isEmpty && replaced.stderr.isEmpty)
            expectSameBytes(try dir.read("existing.txt"), plaintext, "replaced existing.txt")
            let mode =
                try FileManager.default.attributesOfItem(atPath: dir.path("existing.txt"))[.posixPermissions] as? Int
            #expect(mode == 0o600, "a replaced file keeps its mode")
            let created = try decrypt("good.enc", to: "new.txt")
            #expect(created.status == 0, "\(created.stderr)")
            expectSameBytes(try dir.read("new.txt"), plaintext, "created new.txt")
            #expect(try directoryEntries(dir) == ["good.enc", "bad.enc", "existing.txt", "new.txt"])
        }
    }

    @Test("encrypt of an unreadable input: exit 1, one line, nothing on stdout", arguments: [10_000, 600_000])
    func encryptUnreadableInput(iterations: Int) throws {
        let result = try Tools.seccli(
            [
                "encrypt", "--password", "env:P", "--iter", "\(iterations)", "--in",
                "/nonexistent-seccli-test/plain.txt",
            ],
            environment: ["P": "pw"]
        )
        #expect(result.status == 1)
        #expect(
            result.stderr.hasSuffix("seccli: /nonexistent-seccli-test/plain.txt: No such file or directory\n"),
            "\(result.stderr)"
        )
        #expect(result.stdout.isEmpty, "\(result.stdout.count) bytes on stdout")
        expectOneLine(result.stderr)
    }
}
