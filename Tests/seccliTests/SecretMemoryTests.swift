import Foundation
import TestSupport
import Testing

/// Secrets that seccli generates, prints or reads are gone from its memory when it exits, and a
/// crash writes no core. Looked at from outside: each command runs under gdb, which saves its memory
/// (`gcore`) once while the secret is certainly there (at the `write` of the output: proof that the
/// search finds what is present) and once at `exit_group`; the second must hold no copy of the
/// secret in any form (raw, hex, base64, the JWK text).
@Suite("seccli: secrets in memory and in core dumps")
struct SecretMemoryTests {
    /// The two memory images of one run.
    struct Images {
        var atWrite: [UInt8]
        var atExit: [UInt8]
    }

    /// Runs `seccli arguments` (standard input from `stdinFile`, standard output to `stdoutFile`,
    /// both in `dir`) under gdb and returns its memory at the first `write` and at exit.
    static func images(
        _ arguments: [String],
        stdinFile: String? = nil,
        stdoutFile: String? = nil,
        in dir: Scratch
    ) throws -> Images {
        // `run` with arguments replaces those of `--args`: they are given again, quoted for the shell.
        var run =
            "run "
            + arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        if let stdinFile { run += " < \(dir.path(stdinFile))" }
        if let stdoutFile { run += " > \(dir.path(stdoutFile))" }
        let commands = [
            // gdb starts seccli through a shell, which sets up the redirections.
            "set pagination off", "catch syscall write",
            // Only writes to standard output when that is where the secret goes: GLib writes to
            // its own wake-up descriptors first (x86-64: the first argument is in rdi).
            stdoutFile == nil ? "echo" : "condition 1 $rdi == 1", run,
            "gcore \(dir.path("write.core"))", "delete", "catch syscall exit_group", "continue",
            "gcore \(dir.path("exit.core"))", "kill",
        ]
        let result = try Tools.seccli(
            arguments,
            in: dir,
            under: ["gdb", "-nx", "-batch"] + commands.flatMap { ["-ex", $0] } + ["--args"]
        )
        try #require(result.status == 0, "gdb: \(result.stderr.suffix(2000))")
        let atWrite = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir.path("write.core"))))
        let atExit = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir.path("exit.core"))))
        return Images(atWrite: atWrite, atExit: atExit)
    }

    /// How often `needle` occurs in `haystack`.
    static func count(_ needle: [UInt8], in haystack: [UInt8]) -> Int {
        precondition(needle.count >= 8, "a needle this short could occur by chance")
        var found = 0
        haystack.withUnsafeBytes { hay in
            needle.withUnsafeBytes { needle in
                // memchr for the first byte, then memcmp: memmem is a GNU extension Swift does not import.
                var offset = 0
                while offset + needle.count <= hay.count,
                    let hit = memchr(hay.baseAddress! + offset, Int32(needle[0]), hay.count - needle.count + 1 - offset)
                {
                    let position = hay.baseAddress!.distance(to: UnsafeRawPointer(hit))
                    if memcmp(hit, needle.baseAddress!, needle.count) == 0 { found += 1 }
                    offset = position + 1
                }
            }
        }
        return found
    }

    /// The forms a key may take in memory.
    static func forms(of key: [UInt8]) -> [String: [UInt8]] {
        let base64 = Data(key).base64EncodedString()
        let unpadded = base64.replacingOccurrences(of: "=", with: "")
        let url = unpadded.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        return [
            "raw": key, "hex": Array(hexString(key).utf8), "HEX": Array(hexString(key).uppercased().utf8),
            "base64": Array(unpadded.utf8), "base64url": Array(url.utf8),
        ]
    }

    /// Every form is in the image at the write (at least one of `mustBePresent`), and none at exit.
    static func expectGone(
        _ forms: [String: [UInt8]],
        _ images: Images,
        presentAtWrite mustBePresent: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for name in mustBePresent {
            #expect(
                count(forms[name]!, in: images.atWrite) >= 1,
                "the \(name) form was not found while it was being written: the search would not find it",
                sourceLocation: sourceLocation
            )
        }
        for (name, form) in forms.sorted(by: { $0.key < $1.key }) {
            #expect(count(form, in: images.atExit) == 0, "\(name) copies left at exit", sourceLocation: sourceLocation)
        }
    }

    @Test("keygen --format hex: no copy of the key at exit", .timeLimit(.minutes(2)))
    func keygenHex() throws {
        try withScratch { dir in
            let images = try Self.images(["keygen", "--format", "hex", "--out", dir.path("key.hex")], in: dir)
            let key = try hexBytes(String(decoding: try dir.read("key.hex"), as: UTF8.self))
            Self.expectGone(Self.forms(of: key), images, presentAtWrite: ["hex"])
        }
    }

    @Test("keygen --format fernet: no copy of the key at exit", .timeLimit(.minutes(2)))
    func keygenFernet() throws {
        try withScratch { dir in
            let images = try Self.images(["keygen", "--format", "fernet", "--out", dir.path("key.txt")], in: dir)
            let text = String(decoding: try dir.read("key.txt"), as: UTF8.self).trimmingCharacters(in: .newlines)
            let key = try #require(
                Data(
                    base64Encoded: text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(
                        of: "_",
                        with: "/"
                    )
                )
            )
            Self.expectGone(Self.forms(of: [UInt8](key)), images, presentAtWrite: ["base64url"])
        }
    }

    @Test("keygen --format jwe-oct: no copy of the key or of the JWK text at exit", .timeLimit(.minutes(2)))
    func keygenJWK() throws {
        try withScratch { dir in
            let images = try Self.images(
                ["keygen", "--format", "jwe-oct", "--kid", "memory-test", "--out", dir.path("key.jwk")],
                in: dir
            )
            let text = try dir.read("key.jwk").dropLast()  // the newline
            let jwk = try #require(try JSONSerialization.jsonObject(with: Data(text)) as? [String: String])
            let k = try #require(jwk["k"])
            var forms = Self.forms(of: [UInt8](try #require(Data(base64Encoded: base64Padded(fromURL: k)))))
            forms["jwk"] = Array(text)
            Self.expectGone(forms, images, presentAtWrite: ["base64url", "jwk"])
        }
    }

    @Test("kdf: neither the password nor the derived key at exit", .timeLimit(.minutes(2)))
    func kdf() throws {
        try withScratch { dir in
            let password = "memory-test-password-" + randomPrintable(16)
            try dir.write("password", Array(password.utf8))
            let images = try Self.images(
                ["kdf", "--password", "stdin", "--salt", "00112233445566778899aabbccddeeff", "--iter", "1000"],
                stdinFile: "password",
                stdoutFile: "key.hex",
                in: dir
            )
            let key = try hexBytes(String(decoding: try dir.read("key.hex"), as: UTF8.self))
            var forms = Self.forms(of: key)
            forms["password"] = Array(password.utf8)
            Self.expectGone(forms, images, presentAtWrite: ["hex", "password"])
        }
    }

    @Test("encrypt --format jwe with a JWK file: no copy of the key at exit", .timeLimit(.minutes(2)))
    func jweWithJWKFile() throws {
        try withScratch { dir in
            let generated = try Tools.seccli(["keygen", "--format", "jwe-oct", "--out", dir.path("key.jwk")])
            try #require(generated.status == 0, "\(generated.stderr)")
            try dir.write("payload", Array("a payload for the memory test".utf8))
            let images = try Self.images(
                [
                    "encrypt", "--format", "jwe", "--key", "file:key.jwk", "--in", dir.path("payload"), "--out",
                    dir.path("token"),
                ],
                in: dir
            )
            let text = try dir.read("key.jwk").dropLast()
            let jwk = try #require(try JSONSerialization.jsonObject(with: Data(text)) as? [String: String])
            let k = try #require(jwk["k"])
            var forms = Self.forms(of: [UInt8](try #require(Data(base64Encoded: base64Padded(fromURL: k)))))
            forms["jwk"] = Array(text)
            // The key is released (and wiped) before the token is written, so there is nothing to
            // find at the write either; the other tests show that the search finds what is there.
            Self.expectGone(forms, images, presentAtWrite: [])
        }
    }

    /// The secret that `cred get` reads from the private Secret Service: the session is encrypted,
    /// so it never lies in clear in GLib's D-Bus buffers, and the decrypted copy is wiped after the
    /// write. (With a `plain` session, the receive buffer kept it to the end.)
    @Test("cred get: no copy of the secret at exit", .timeLimit(.minutes(2)))
    func credGet() throws {
        try withScratch { dir in
            let item = ["--service", Keychain.uniqueName("memory"), "--account", "alice"]
            let secret = "memory-test-secret-" + randomPrintable(24)
            try Tools.seccli(["cred", "set"] + item, stdin: Array(secret.utf8), expecting: .success)
            defer { _ = try? Tools.seccli(["cred", "delete"] + item) }
            let images = try Self.images(["cred", "get"] + item, stdoutFile: "secret", in: dir)
            #expect(try dir.read("secret") == Array(secret.utf8))
            Self.expectGone(["secret": Array(secret.utf8)], images, presentAtWrite: ["secret"])
        }
    }

    /// A seccli killed by SIGSEGV while it waits for a password writes no core file, where a
    /// process without the protection, killed the same way in the same folder, does (so the test
    /// would see a core); its core size limit reads 0.
    @Test("a crashed seccli writes no core", .timeLimit(.minutes(1)))
    func noCoreDump() throws {
        let seccli = try Tools.seccliExecutable()
        try withScratch { dir in
            // The control: `sleep` under the same limit writes a core when killed.
            let control = try ProcessRunner.run(
                "sh",
                ["-c", "ulimit -c unlimited; sleep 30 & pid=$!; sleep 0.3; kill -SEGV $pid; wait $pid; ls"],
                currentDirectory: dir.path
            )
            try #require(
                control.stdoutLines.contains(where: { $0.hasPrefix("core") }),
                "no core from the control process here (kernel.core_pattern: \((try? String(contentsOfFile: "/proc/sys/kernel/core_pattern")) ?? "?")): the test could not see one"
            )
            for line in control.stdoutLines where line.hasPrefix("core") { unlink(dir.path(line)) }

            let script = """
                ulimit -c unlimited
                sleep 30 | "$0" kdf --password stdin --salt 00 --iter 1 &
                seccli_pid=$!
                # Until seccli has lowered its limit (its first step), for up to 5 s on a busy machine.
                for _ in $(seq 50); do
                    grep -Eq 'Max core file size +0 +0 ' /proc/$seccli_pid/limits && break
                    sleep 0.1
                done
                grep 'Max core file size' /proc/$seccli_pid/limits
                kill -SEGV $seccli_pid
                pkill -P $$ sleep
                wait
                ls
                """
            let result = try ProcessRunner.run("sh", ["-c", script, seccli], currentDirectory: dir.path)
            let limit = try #require(result.stdoutLines.first { $0.hasPrefix("Max core file size") })
            #expect(
                limit.split(separator: " ", omittingEmptySubsequences: true).dropFirst(4).prefix(2) == ["0", "0"],
                "\(limit)"
            )
            #expect(!result.stdoutLines.contains(where: { $0.hasPrefix("core") }), "\(result.stdoutLines)")
        }
    }
}

/// Standard base64 with padding, from base64url without it.
private func base64Padded(fromURL text: String) -> String {
    let standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    return standard + String(repeating: "=", count: (4 - standard.count % 4) % 4)
}

/// The bytes of a hex line as seccli prints it.
private func hexBytes(_ text: String) throws -> [UInt8] {
    let digits = Array(text.trimmingCharacters(in: .whitespacesAndNewlines).utf8)
    try #require(digits.count % 2 == 0 && !digits.isEmpty, "not hex: \(text)")
    return try stride(from: 0, to: digits.count, by: 2).map { index in
        try #require(UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16), "not hex: \(text)")
    }
}
