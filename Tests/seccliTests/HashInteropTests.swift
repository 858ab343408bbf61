import Foundation
import TestSupport
import Testing

/// `seccli hash` against `openssl dgst` and the coreutils `*sum` tools on the same bytes.
@Suite("seccli hash: interop with openssl and coreutils")
struct HashInteropTests {
    /// Sizes around the padding boundaries of the 64-byte (55/56, 63/64/65) and 128-byte
    /// (111/112, 127/128/129) blocks, around the 256 KiB read chunk, and a multi-chunk file.
    static let sizes = [
        0, 1, 55, 56, 63, 64, 65, 111, 112, 127, 128, 129,
        256 * 1024 - 1, 256 * 1024, 256 * 1024 + 1, 5 * 1024 * 1024 + 7,
    ]

    @Test(
        "one file equals md5sum/sha*sum byte for byte and openssl dgst -r",
        .tags(.slow),
        arguments: Algorithm.allCases,
        sizes
    )
    func oneFile(_ algorithm: Algorithm, size: Int) throws {
        try withScratch { dir in
            try dir.write("data.bin", randomBytes(size))
            let ours = try Tools.seccli(["hash", "-a", algorithm.rawValue, "data.bin"], in: dir)
            #expect(ours.status == 0)
            #expect(ours.stderr.isEmpty)

            let sum = try Tools.reference(algorithm.sumTool, ["data.bin"], in: dir)
            #expect(ours.stdoutText == sum.stdoutText)
            let hex = try Tools.opensslHex([algorithm.opensslOption, "data.bin"], in: dir)
            #expect(ours.stdoutText == "\(hex)  data.bin\n")
        }
    }

    @Test("sha512-256, which has no coreutils tool, equals openssl dgst -sha512-256 -r", arguments: [0, 111, 112, 129])
    func sha512Slash256(size: Int) throws {
        try withScratch { dir in
            try dir.write("data.bin", randomBytes(size))
            let ours = try Tools.seccli(["hash", "-a", "sha512-256", "data.bin"], in: dir)
            #expect(ours.status == 0)
            #expect(ours.stderr.isEmpty)
            let hex = try Tools.opensslHex(["-sha512-256", "data.bin"], in: dir)
            #expect(hex.count == 64)
            #expect(ours.stdoutText == "\(hex)  data.bin\n")
        }
    }

    @Test("several files and stdin in one run give the *sum tool's lines in order", arguments: Algorithm.allCases)
    func severalFiles(_ algorithm: Algorithm) throws {
        try withScratch { dir in
            var names: [String] = []
            for size in Self.sizes.dropLast() {
                names.append("size-\(size).bin")
                try dir.write(names.last!, randomBytes(size))
            }
            try dir.write("with space.bin", randomBytes(1000))
            let arguments = ["size-0.bin", "-"] + names.dropFirst() + ["with space.bin"]
            let stdin = randomBytes(70_000)

            let ours = try Tools.seccli(["hash", "--algorithm", algorithm.rawValue] + arguments, stdin: stdin, in: dir)
            let sum = try Tools.reference(algorithm.sumTool, arguments, stdin: stdin, in: dir)
            #expect(ours.status == 0)
            #expect(ours.stderr.isEmpty)
            #expect(ours.stdoutLines.count == arguments.count)
            #expect(ours.stdoutText == sum.stdoutText)
        }
    }

    enum StandardInputForm: String, CaseIterable, Sendable {
        case noFileArgument, dash
        var arguments: [String] { self == .dash ? ["-"] : [] }
    }

    @Test(
        "standard input (no FILE or '-') is named '-' as by the *sum tools",
        arguments: Algorithm.allCases,
        StandardInputForm.allCases
    )
    func standardInput(_ algorithm: Algorithm, form: StandardInputForm) throws {
        // Larger than one 256 KiB chunk, so the pipe delivers it in several reads.
        let stdin = randomBytes(600_000)
        let ours = try Tools.seccli(["hash", "-a", algorithm.rawValue] + form.arguments, stdin: stdin)
        #expect(ours.status == 0)
        #expect(ours.stderr.isEmpty)

        let sum = try Tools.reference(algorithm.sumTool, form.arguments, stdin: stdin)
        #expect(ours.stdoutText == sum.stdoutText)
        let hex = try Tools.opensslHex([algorithm.opensslOption], stdin: stdin)
        #expect(ours.stdoutText == "\(hex)  -\n")
    }

    @Test("--base64 equals openssl dgst -binary | base64", arguments: Algorithm.allCases)
    func base64Output(_ algorithm: Algorithm) throws {
        try withScratch { dir in
            try dir.write("empty", [])
            try dir.write("data.bin", randomBytes(3000))
            let stdin = randomBytes(129)
            let ours = try Tools.seccli(
                ["hash", "-a", algorithm.rawValue, "--base64", "empty", "data.bin", "-"],
                stdin: stdin,
                in: dir
            )
            #expect(ours.status == 0)
            #expect(ours.stderr.isEmpty)

            let expected = [
                "\(try Tools.opensslBase64([algorithm.opensslOption, "empty"], in: dir))  empty",
                "\(try Tools.opensslBase64([algorithm.opensslOption, "data.bin"], in: dir))  data.bin",
                "\(try Tools.opensslBase64([algorithm.opensslOption], stdin: stdin))  -",
            ]
            #expect(ours.stdoutLines == expected)
        }
    }

    @Test("--json is an array of {name, algorithm, hex, base64} matching openssl", arguments: Algorithm.allCases)
    func jsonOutput(_ algorithm: Algorithm) throws {
        try withScratch { dir in
            let fileName = "a \"quoted\" name"
            try dir.write(fileName, randomBytes(100))
            let stdin = randomBytes(64)
            let ours = try Tools.seccli(
                ["hash", "-a", algorithm.rawValue, "--json", fileName, "-"],
                stdin: stdin,
                in: dir
            )
            #expect(ours.status == 0)
            #expect(ours.stderr.isEmpty)

            let entries = try #require(
                try JSONSerialization.jsonObject(with: Data(ours.stdout)) as? [[String: Any]],
                "not a JSON array of objects: \(ours.stdoutText)"
            )
            try #require(entries.count == 2)
            let expected: [(name: String, hex: String, base64: String)] = [
                (
                    fileName, try Tools.opensslHex([algorithm.opensslOption, fileName], in: dir),
                    try Tools.opensslBase64([algorithm.opensslOption, fileName], in: dir)
                ),
                (
                    "-", try Tools.opensslHex([algorithm.opensslOption], stdin: stdin),
                    try Tools.opensslBase64([algorithm.opensslOption], stdin: stdin)
                ),
            ]
            for (entry, expected) in zip(entries, expected) {
                #expect(Set(entry.keys) == ["name", "algorithm", "hex", "base64"])
                #expect(entry["name"] as? String == expected.name)
                #expect(entry["algorithm"] as? String == algorithm.rawValue)
                #expect(entry["hex"] as? String == expected.hex)
                #expect(entry["base64"] as? String == expected.base64)
            }
        }
    }

    @Test("algorithm names are accepted as users write them", arguments: ["SHA-256", "sha_256", "Sha256"])
    func algorithmSpellings(_ spelling: String) throws {
        let stdin = Array("abc".utf8)
        let ours = try Tools.seccli(["hash", "-a", spelling], stdin: stdin)
        let sum = try Tools.reference("sha256sum", [], stdin: stdin)
        #expect(ours.status == 0)
        #expect(ours.stdoutText == sum.stdoutText)
    }
}
