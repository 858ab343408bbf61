import Foundation
import TestSupport
import Testing

/// Secrets that seccli generates, prints or reads are gone from its memory when it exits, and a
/// crash writes no core. Looked at from outside: each command runs under gdb, which saves its memory
/// (`gcore`) once while the secret is certainly there (at the `write` of the output, or as the key
/// file is closed: proof that the search finds what is present) and once at `exit_group`; the
/// second must hold no copy of the secret in any form (raw, hex, base64, the JWK text).
@Suite("seccli: secrets in memory and in core dumps")
struct SecretMemoryTests {
    /// The two memory images of one run.
    struct Images {
        var atFirstStop: [UInt8]
        var atExit: [UInt8]
    }

    /// Where gdb saves the first image: a moment the secret is certainly in seccli's memory.
    enum FirstStop {
        /// The first `write`; with `toStandardOutput`, the first to standard output (GLib writes to
        /// its own wake-up descriptors first).
        case write(toStandardOutput: Bool)
        /// The first `close` after seccli opened `path`: what it read from the file is in its buffers.
        case closeAfterOpening(String)
    }

    /// The registers that hold a system call's first two arguments where gdb's `catch syscall`
    /// stops, for the conditions of `FirstStop`; nil on other architectures, where the tests that
    /// need a condition do not run.
    static let argumentRegisters: (first: String, second: String)? = {
        #if arch(x86_64)
        ("$rdi", "$rsi")
        #elseif arch(arm64)
        ("$x0", "$x1")
        #else
        nil
        #endif
    }()

    /// For the tests whose first stop has a condition on a system call's arguments.
    static let knownArchitecture = ConditionTrait.enabled(
        if: argumentRegisters != nil,
        "gdb conditions on system call arguments are written for x86-64 and aarch64"
    )

    /// Runs `seccli arguments` (standard input from `stdinFile`, standard output to `stdoutFile`,
    /// both in `dir`) under gdb and returns its memory at `firstStop` and at exit.
    static func images(
        _ arguments: [String],
        stdinFile: String? = nil,
        stdoutFile: String? = nil,
        firstStop: FirstStop = .write(toStandardOutput: false),
        in dir: Scratch
    ) throws -> Images {
        // `run` with arguments replaces those of `--args`: they are given again, quoted for the shell.
        var run =
            "run "
            + arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        if let stdinFile { run += " < \(dir.path(stdinFile))" }
        if let stdoutFile { run += " > \(dir.path(stdoutFile))" }
        var stop: [String]
        switch firstStop {
        case .write(let toStandardOutput):
            stop = ["catch syscall write"]
            if toStandardOutput { stop.append("condition 1 \(try #require(argumentRegisters).first) == 1") }
            stop.append(run)
        case .closeAfterOpening(let path):
            // openat(dirfd, path, …): the path is the second argument.
            stop = [
                "catch syscall openat",
                "condition 1 $_streq((char *) \(try #require(argumentRegisters).second), \"\(path)\")", run, "delete",
                "catch syscall close", "continue",
            ]
        }
        // gdb starts seccli through a shell, which sets up the redirections.
        let commands =
            ["set pagination off"] + stop + [
                "gcore \(dir.path("first.core"))", "delete", "catch syscall exit_group", "continue",
                "gcore \(dir.path("exit.core"))", "kill",
            ]
        let result = try Tools.seccli(
            arguments,
            in: dir,
            under: ["gdb", "-nx", "-batch"] + commands.flatMap { ["-ex", $0] } + ["--args"]
        )
        try #require(result.status == 0, "gdb: \(result.stderr.suffix(2000))")
        let atFirstStop = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir.path("first.core"))))
        let atExit = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir.path("exit.core"))))
        return Images(atFirstStop: atFirstStop, atExit: atExit)
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

    /// The `mustBePresent` forms are in the image at the first stop (the positive control: the search
    /// finds the secret where it is), and no form is in the image at exit.
    static func expectGone(
        _ forms: [String: [UInt8]],
        _ images: Images,
        presentAtFirstStop mustBePresent: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        precondition(!mustBePresent.isEmpty, "a case without a positive control cannot fail for the right reason")
        for name in mustBePresent {
            #expect(
                count(forms[name]!, in: images.atFirstStop) >= 1,
                "the \(name) form was not found at the first stop, where it is in memory: the search would not find it",
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
            Self.expectGone(Self.forms(of: key), images, presentAtFirstStop: ["hex"])
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
            Self.expectGone(Self.forms(of: [UInt8](key)), images, presentAtFirstStop: ["base64url"])
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
            Self.expectGone(forms, images, presentAtFirstStop: ["base64url", "jwk"])
        }
    }

    @Test("kdf: neither the password nor the derived key at exit", knownArchitecture, .timeLimit(.minutes(2)))
    func kdf() throws {
        try withScratch { dir in
            let password = "memory-test-password-" + randomPrintable(16)
            try dir.write("password", Array(password.utf8))
            let images = try Self.images(
                ["kdf", "--password", "stdin", "--salt", "00112233445566778899aabbccddeeff", "--iter", "1000"],
                stdinFile: "password",
                stdoutFile: "key.hex",
                firstStop: .write(toStandardOutput: true),
                in: dir
            )
            let key = try hexBytes(String(decoding: try dir.read("key.hex"), as: UTF8.self))
            var forms = Self.forms(of: key)
            forms["password"] = Array(password.utf8)
            Self.expectGone(forms, images, presentAtFirstStop: ["hex", "password"])
        }
    }

    @Test(
        "encrypt --format jwe with a JWK file: the JWK text is found as it is read, no copy of the key at exit",
        knownArchitecture,
        .timeLimit(.minutes(2))
    )
    func jweWithJWKFile() throws {
        try withScratch { dir in
            let keyFile = dir.path("key.jwk")
            try Tools.seccli(["keygen", "--format", "jwe-oct", "--out", keyFile], expecting: .success)
            try dir.write("payload", Array("a payload for the memory test".utf8))
            // The key is released (and wiped) before the token is written, so the first image is
            // taken as the key file is closed: the JWK text read from it is there, and found.
            let images = try Self.images(
                [
                    "encrypt", "--format", "jwe", "--key", "file:\(keyFile)", "--in", dir.path("payload"), "--out",
                    dir.path("token"),
                ],
                firstStop: .closeAfterOpening(keyFile),
                in: dir
            )
            let text = try dir.read("key.jwk").dropLast()
            let jwk = try #require(try JSONSerialization.jsonObject(with: Data(text)) as? [String: String])
            let k = try #require(jwk["k"])
            var forms = Self.forms(of: [UInt8](try #require(Data(base64Encoded: base64Padded(fromURL: k)))))
            forms["jwk"] = Array(text)
            Self.expectGone(forms, images, presentAtFirstStop: ["jwk"])
        }
    }

    /// The secret that `cred get` reads from the private Secret Service: the session is encrypted,
    /// so it never lies in clear in GLib's D-Bus buffers, and the decrypted copy is wiped after the
    /// write. (With a `plain` session, the receive buffer kept it to the end.)
    @Test("cred get: no copy of the secret at exit", knownArchitecture, .timeLimit(.minutes(2)))
    func credGet() throws {
        try withScratch { dir in
            let item = ["--service", Keychain.uniqueName("memory"), "--account", "alice"]
            let secret = "memory-test-secret-" + randomPrintable(24)
            try Tools.seccli(["cred", "set"] + item, stdin: Array(secret.utf8), expecting: .success)
            defer { _ = try? Tools.seccli(["cred", "delete"] + item) }
            let images = try Self.images(
                ["cred", "get"] + item,
                stdoutFile: "secret",
                firstStop: .write(toStandardOutput: true),
                in: dir
            )
            #expect(try dir.read("secret") == Array(secret.utf8))
            Self.expectGone(["secret": Array(secret.utf8)], images, presentAtFirstStop: ["secret"])
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
