import Foundation
import TestSupport
import Testing

/// `seccli keygen` as a process: the shape and size of each format, `--out` mode 0600, fresh keys
/// on every run, and bad options. (EnvelopeCLITests checks that the keys work with the peers.)
@Suite("seccli keygen")
struct KeygenCLITests {
    /// Runs `seccli keygen` and returns its one line of output (without the line break).
    static func keygen(
        _ arguments: [String],
        in dir: Scratch? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String {
        let result = try Tools.seccli(["keygen"] + arguments, in: dir, sourceLocation: sourceLocation)
        try #require(
            result.status == 0,
            "seccli keygen \(arguments) failed (\(result.status)): \(result.stderr)",
            sourceLocation: sourceLocation
        )
        #expect(result.stderr.isEmpty, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(
            result.stdout.last == UInt8(ascii: "\n") && result.stdoutLines.count == 1,
            "not one line: \(result.stdoutText.debugDescription)",
            sourceLocation: sourceLocation
        )
        return result.stdoutLines.first ?? ""
    }

    static func isLowerHex(_ text: String) -> Bool { text.allSatisfy { "0123456789abcdef".contains($0) } }

    @Test("hex by default: 64 lower-case hex digits (256 bits)")
    func hexDefault() throws {
        let key = try Self.keygen([])
        #expect(key.count == 64 && Self.isLowerHex(key), "\(key)")
        #expect(try Self.keygen(["--format", "hex"]).count == 64)
    }

    @Test("--bits N: N/4 hex digits", arguments: [128, 192, 264, 512, 4096])
    func hexBits(_ bits: Int) throws {
        let key = try Self.keygen(["--bits", "\(bits)"])
        #expect(key.count == bits / 4 && Self.isLowerHex(key), "\(key)")
    }

    @Test("fernet: 44 characters of base64url (padded) that decode to 32 bytes")
    func fernet() throws {
        let key = try Self.keygen(["--format", "fernet"])
        #expect(key.count == 44, "\(key)")
        #expect(key.hasSuffix("=") && !key.dropLast().contains("="), "\(key)")
        #expect(!key.contains("+") && !key.contains("/"), "base64url, not base64: \(key)")
        #expect(base64URLDecode(key)?.count == 32, "\(key)")
    }

    @Test(
        "jwe-oct: a one-line JWK, kty oct, k (unpadded base64url) of --bits, and --kid",
        arguments: [
            (256, nil), (128, "k-128"), (192, "2024-06 rotation"), (512, "big"),
        ] as [(Int, String?)]
    )
    func jweOct(_ bits: Int, kid: String?) throws {
        let text = try Self.keygen(["--format", "jwe-oct", "--bits", "\(bits)"] + (kid.map { ["--kid", $0] } ?? []))
        let jwk = try #require(
            try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
            "not a JSON object: \(text)"
        )
        #expect(Set(jwk.keys) == Set(["kty", "k"] + (kid == nil ? [] : ["kid"])), "members: \(text)")
        #expect(jwk["kty"] as? String == "oct", "\(text)")
        let k = try #require(jwk["k"] as? String, "\(text)")
        #expect(!k.contains("="), "JOSE base64url has no padding: \(k)")
        #expect(base64URLDecode(k)?.count == bits / 8, "\(text)")
        #expect(jwk["kid"] as? String == kid, "\(text)")
    }

    enum Format: String, CaseIterable, Sendable {
        case hex, fernet
        case jweOct = "jwe-oct"
    }

    @Test(
        "--out: a new file of mode 0600 with the key, nothing on stdout; an existing 0644 file becomes 0600",
        arguments: Format.allCases
    )
    func outputFile(_ format: Format) throws {
        try withScratch { dir in
            let existing = try dir.write("existing.key", "old\n")
            try #require(chmod(existing, 0o644) == 0)
            for name in ["new.key", "existing.key"] {
                let result = try Tools.seccli(["keygen", "--format", format.rawValue, "--out", name], in: dir)
                #expect(result.status == 0, "\(result.stderr)")
                #expect(
                    result.stdout.isEmpty && result.stderr.isEmpty,
                    "stdout \(result.stdoutText), stderr \(result.stderr)"
                )
                let mode = try FileManager.default.attributesOfItem(atPath: dir.path(name))[.posixPermissions] as? Int
                #expect(mode == 0o600, "\(name): mode \(String(mode ?? -1, radix: 8))")
                let content = String(decoding: try dir.read(name), as: UTF8.self)
                #expect(
                    content.hasSuffix("\n") && content.filter { $0 == "\n" }.count == 1,
                    "\(name): \(content.debugDescription)"
                )
                #expect(content.count > 40, "\(name): \(content.debugDescription)")
            }
            #expect(try directoryEntries(dir) == ["new.key", "existing.key"], "temporary file left")
        }
    }

    @Test("two runs give different keys", arguments: Format.allCases)
    func fresh(_ format: Format) throws {
        let first = try Self.keygen(["--format", format.rawValue])
        let second = try Self.keygen(["--format", format.rawValue])
        #expect(first != second)
    }

    @Test(
        "bad options: exit 64, one line naming the option, nothing written (--out untouched)",
        arguments: [
            (["--format", "fernet", "--bits", "128"], "256"),
            (["--bits", "100"], "--bits"),
            (["--bits", "120"], "--bits"),
            (["--bits", "4104"], "--bits"),
            (["--format", "hex", "--kid", "k1"], "--kid"),
            (["--format", "pem"], "pem"),
        ]
    )
    func badOptions(_ arguments: [String], mentions: String) throws {
        try withScratch { dir in
            try expectRefused(["keygen"] + arguments, in: dir, status: 64, mentions: [mentions])
        }
    }
}
