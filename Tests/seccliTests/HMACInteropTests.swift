import Foundation
import TestSupport
import Testing

/// `seccli hmac` against `openssl dgst -hmac` / `-mac HMAC -macopt hexkey:`.
@Suite("seccli hmac: interop with openssl")
struct HMACInteropTests {
    enum KeyFormat: String, CaseIterable, Sendable {
        case raw, hex, base64
    }

    /// A key in the form seccli reads (`--key-format`), and the `openssl dgst` options for the same key.
    private struct Key {
        var text: String
        var opensslOptions: [String]

        init(length: Int, format: KeyFormat) {
            switch format {
            case .raw:
                text = randomPrintable(length)
                opensslOptions = ["-hmac", text]
            case .hex, .base64:
                let bytes = randomBytes(length)
                text = format == .hex ? hexString(bytes) : Data(bytes).base64EncodedString()
                opensslOptions = ["-mac", "HMAC", "-macopt", "hexkey:\(hexString(bytes))"]
            }
        }
    }

    @Test(
        "equals openssl for keys shorter than, equal to and longer than the block (up to 200 bytes)",
        .tags(.slow),
        arguments: Algorithm.allCases,
        KeyFormat.allCases
    )
    func matchesOpenSSL(_ algorithm: Algorithm, format: KeyFormat) throws {
        try withScratch { dir in
            try dir.write("data.bin", randomBytes(5000))
            for length in [1, 20, algorithm.blockSize - 1, algorithm.blockSize, algorithm.blockSize + 1, 200] {
                let key = Key(length: length, format: format)
                let expected = try Tools.opensslHex(
                    [algorithm.opensslOption] + key.opensslOptions + ["data.bin"],
                    in: dir
                )
                let ours = try Tools.seccli(
                    [
                        "hmac", "-a", algorithm.rawValue, "--key", "env:SECCLI_TEST_KEY", "--key-format",
                        format.rawValue, "data.bin",
                    ],
                    environment: ["SECCLI_TEST_KEY": key.text],
                    in: dir
                )
                #expect(ours.status == 0, "key length \(length): \(ours.stderr)")
                #expect(ours.stderr.isEmpty)
                #expect(ours.stdoutText == "\(expected)  data.bin\n", "key length \(length)")
            }
        }
    }

    @Test("several inputs, stdin among them, and --base64 / --json output", arguments: [Algorithm.sha256, .sha512])
    func severalInputsAndOutputForms(_ algorithm: Algorithm) throws {
        try withScratch { dir in
            try dir.write("one", randomBytes(0))
            try dir.write("two", randomBytes(300_000))
            let stdin = randomBytes(1234)
            let key = randomPrintable(32)
            let hmac = [algorithm.opensslOption, "-hmac", key]
            let arguments = ["hmac", "-a", algorithm.rawValue, "--key", "env:K", "one", "-", "two"]

            let hex = try Tools.seccli(arguments, stdin: stdin, environment: ["K": key], in: dir)
            #expect(hex.status == 0)
            #expect(
                hex.stdoutLines == [
                    "\(try Tools.opensslHex(hmac + ["one"], in: dir))  one",
                    "\(try Tools.opensslHex(hmac, stdin: stdin))  -",
                    "\(try Tools.opensslHex(hmac + ["two"], in: dir))  two",
                ]
            )

            let base64 = try Tools.seccli(arguments + ["--base64"], stdin: stdin, environment: ["K": key], in: dir)
            #expect(base64.status == 0)
            #expect(
                base64.stdoutLines == [
                    "\(try Tools.opensslBase64(hmac + ["one"], in: dir))  one",
                    "\(try Tools.opensslBase64(hmac, stdin: stdin))  -",
                    "\(try Tools.opensslBase64(hmac + ["two"], in: dir))  two",
                ]
            )

            let json = try Tools.seccli(arguments + ["--json"], stdin: stdin, environment: ["K": key], in: dir)
            #expect(json.status == 0)
            let entries = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout)) as? [[String: String]])
            #expect(entries.map { $0["name"] } == ["one", "-", "two"])
            #expect(entries.allSatisfy { $0["algorithm"] == "hmac-\(algorithm.rawValue)" })
            #expect(entries.map { $0["hex"]! + "  " + $0["name"]! } == hex.stdoutLines)
            #expect(entries.map { $0["base64"]! + "  " + $0["name"]! } == base64.stdoutLines)
        }
    }

    /// Every place a key can come from. For file:, fd: and stdin the key is the first line.
    enum KeySource: String, CaseIterable, Sendable {
        case environment
        case fileFirstLine
        case fileWithoutNewline
        case fileHexWithNewline
        case descriptor3
        case descriptor9
        case standardInput
    }

    @Test("the key is read from env:, file:, fd: and stdin", arguments: KeySource.allCases)
    func keySources(_ source: KeySource) throws {
        try withScratch { dir in
            try dir.write("data.bin", randomBytes(777))
            let key = randomPrintable(40)
            let keyBytes = randomBytes(40)
            let firstLine = Array(key.utf8) + Array("\nsecond line, not part of the key\n".utf8)

            var arguments = ["hmac", "--key"]
            var stdin: [UInt8]?
            var environment: [String: String] = [:]
            var extraInput: ProcessRunner.ExtraInput?
            var keyOptions = ["-hmac", key]
            switch source {
            case .environment:
                arguments.append("env:SECCLI_TEST_KEY")
                environment["SECCLI_TEST_KEY"] = key
            case .fileFirstLine:
                arguments.append("file:\(try dir.write("key.txt", firstLine))")
            case .fileWithoutNewline:
                arguments.append("file:\(try dir.write("key.txt", key))")
            case .fileHexWithNewline:
                arguments += ["file:\(try dir.write("key.hex", hexString(keyBytes) + "\n"))", "--key-format", "hex"]
                keyOptions = ["-mac", "HMAC", "-macopt", "hexkey:\(hexString(keyBytes))"]
            case .descriptor3, .descriptor9:
                let descriptor: Int32 = source == .descriptor3 ? 3 : 9
                arguments.append("fd:\(descriptor)")
                extraInput = .init(descriptor: descriptor, bytes: firstLine)
            case .standardInput:
                arguments.append("stdin")
                stdin = firstLine
            }

            let expected = try Tools.opensslHex(["-sha256"] + keyOptions + ["data.bin"], in: dir)
            let ours = try Tools.seccli(
                arguments + ["data.bin"],
                stdin: stdin,
                environment: environment,
                extraInput: extraInput,
                in: dir
            )
            #expect(ours.status == 0, "\(ours.stderr)")
            #expect(ours.stderr.isEmpty)
            #expect(ours.stdoutText == "\(expected)  data.bin\n")
        }
    }

    enum MACForm: String, CaseIterable, Sendable {
        case hex, upperCaseHex, base64
    }

    @Test(
        "--verify: exit 0 on a match, 1 and 'seccli: MAC mismatch' otherwise",
        arguments: MACForm.allCases,
        [Algorithm.md5, .sha256, .sha512]
    )
    func verify(_ form: MACForm, algorithm: Algorithm) throws {
        try withScratch { dir in
            try dir.write("data.bin", randomBytes(4096))
            let key = randomPrintable(24)
            let options = [algorithm.opensslOption, "-hmac", key, "data.bin"]
            let macBytes = try Tools.reference(
                "openssl",
                ["dgst"] + options.dropLast() + ["-binary", "data.bin"],
                in: dir
            ).stdout
            try #require(hexString(macBytes) == (try Tools.opensslHex(options, in: dir)))

            func encoded(_ bytes: [UInt8]) throws -> String {
                switch form {
                case .hex: return hexString(bytes)
                case .upperCaseHex: return hexString(bytes).uppercased()
                case .base64:
                    return try Tools.reference("base64", ["-w0"], stdin: bytes).stdoutText
                }
            }
            func verify(
                _ mac: String,
                key: String = key,
                stdin: [UInt8]? = nil,
                input: String = "data.bin"
            ) throws -> ProcessResult {
                try Tools.seccli(
                    ["hmac", "-a", algorithm.rawValue, "--key", "env:K", "--verify", mac, input],
                    stdin: stdin,
                    environment: ["K": key],
                    in: dir
                )
            }

            let match = try verify(try encoded(macBytes))
            #expect(match.status == 0, "\(match.stderr)")
            #expect(match.stdout.isEmpty)
            #expect(match.stderr.isEmpty)

            let fromStdin = try verify(try encoded(macBytes), stdin: try dir.read("data.bin"), input: "-")
            #expect(fromStdin.status == 0, "\(fromStdin.stderr)")

            var flipped = macBytes
            flipped[flipped.count - 1] ^= 0x01
            for mismatch in [try verify(try encoded(flipped)), try verify(try encoded(macBytes), key: key + "x")] {
                expectOneLineError(mismatch, status: 1)
                #expect(mismatch.stderr == "seccli: MAC mismatch\n")
            }
        }
    }
}
