import Foundation
import TestSupport
import Testing

/// An `--out` that is a symbolic link is written through, as `openssl -out` writes it: the link
/// stays a link and the file it names gets the output, atomically (a failure leaves both as they
/// were). `/dev/stdout` and `/dev/fd/N` are written in place, never replaced by a file.
@Suite("seccli --out through links and descriptors")
struct OutputLinkTests {
    typealias Format = DecryptFailureTests.Format
    static let format = Format.rawCBC
    static let plaintext = Array(String(repeating: "a line of plaintext\n", count: 500).utf8)

    /// The ciphertext openssl makes of `plaintext`, which `seccli encrypt` must write too.
    static func ciphertext() throws -> [UInt8] { try format.encrypt(plaintext) }

    /// `arguments` (a command first) with the fixture's cipher options, or a `mistake` in them.
    static func withFormat(_ arguments: [String], _ mistake: DecryptFailureTests.Mistake? = nil) -> [String] {
        [arguments[0]] + format.seccliOptions(mistake) + arguments.dropFirst()
    }

    static func linkDestination(_ path: String) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: path)
    }

    static func mode(_ path: String) throws -> Int? {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue
    }

    static func entries(_ folder: String) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: folder))
    }

    @Test(
        "a link to a file (also a chain, and a relative link in another folder) stays a link; its target gets the output and keeps its mode"
    )
    func linkToFile() throws {
        try withScratch { dir in
            try FileManager.default.createDirectory(atPath: dir.path("a"), withIntermediateDirectories: false)
            try FileManager.default.createDirectory(atPath: dir.path("b"), withIntermediateDirectories: false)
            try dir.write("in.enc", try Self.ciphertext())
            try dir.write("in.txt", Self.plaintext)
            for (command, input, expected) in [
                ("decrypt", "in.enc", Self.plaintext), ("encrypt", "in.txt", try Self.ciphertext()),
            ] {
                try dir.write("b/target", "old content\n")
                try #require(chmod(dir.path("b/target"), 0o640) == 0)
                try? FileManager.default.removeItem(atPath: dir.path("a/link"))
                try? FileManager.default.removeItem(atPath: dir.path("chain"))
                try FileManager.default.createSymbolicLink(
                    atPath: dir.path("a/link"),
                    withDestinationPath: "../b/target"
                )
                try FileManager.default.createSymbolicLink(atPath: dir.path("chain"), withDestinationPath: "a/link")

                for out in ["a/link", "chain"] {
                    let result = try Tools.seccli(
                        Self.withFormat([command, "--in", input, "--out", out]),
                        environment: Self.format.environment,
                        in: dir
                    )
                    #expect(result.status == 0, "\(command) --out \(out): \(result.stderr)")
                    #expect(Self.linkDestination(dir.path("a/link")) == "../b/target", "the link was replaced")
                    #expect(Self.linkDestination(dir.path("chain")) == "a/link", "the chain was replaced")
                    #expect(try dir.read("b/target") == expected, "\(command) --out \(out)")
                    #expect(try Self.mode(dir.path("b/target")) == 0o640, "the target keeps its mode")
                    #expect(try Self.entries(dir.path("a")) == ["link"], "nothing left beside the link")
                    #expect(try Self.entries(dir.path("b")) == ["target"], "no temporary file left")
                }
            }
        }
    }

    @Test("a dangling link creates the file it names and stays a link")
    func danglingLink() throws {
        try withScratch { dir in
            try dir.write("in.enc", try Self.ciphertext())
            try FileManager.default.createSymbolicLink(atPath: dir.path("link"), withDestinationPath: "new.txt")
            let result = try Tools.seccli(
                Self.withFormat(["decrypt", "--in", "in.enc", "--out", "link"]),
                environment: Self.format.environment,
                in: dir
            )
            #expect(result.status == 0, "\(result.stderr)")
            #expect(Self.linkDestination(dir.path("link")) == "new.txt")
            #expect(try dir.read("new.txt") == Self.plaintext)
            #expect(try Self.entries(dir.path) == ["in.enc", "link", "new.txt"])
        }
    }

    @Test("a failed decryption through a link leaves the link and its target untouched", arguments: [true, false])
    func failureLeavesLinkAndTarget(targetExists: Bool) throws {
        try withScratch { dir in
            try dir.write("in.enc", try Self.ciphertext())
            if targetExists { try dir.write("target", "precious\n") }
            try FileManager.default.createSymbolicLink(atPath: dir.path("link"), withDestinationPath: "target")
            let result = try Tools.seccli(
                Self.withFormat(["decrypt", "--in", "in.enc", "--out", "link"], .wrongKey),
                environment: Self.format.environment,
                in: dir
            )
            expectOneLineError(result, status: 1)
            #expect(Self.linkDestination(dir.path("link")) == "target")
            let expected: Set = targetExists ? ["in.enc", "link", "target"] : ["in.enc", "link"]
            #expect(try Self.entries(dir.path) == expected, "nothing created, no temporary file")
            if targetExists { #expect(try dir.read("target") == Array("precious\n".utf8)) }
        }
    }

    @Test("/dev/stdout is written in place: the output appears on standard output, only once verified")
    func devStdout() throws {
        try withScratch { dir in
            let ciphertext = try Self.ciphertext()
            try dir.write("in.enc", ciphertext)
            try dir.write("in.txt", Self.plaintext)
            let decrypted = try Tools.seccli(
                Self.withFormat(["decrypt", "--in", "in.enc", "--out", "/dev/stdout"]),
                environment: Self.format.environment,
                in: dir
            )
            #expect(decrypted.status == 0, "\(decrypted.stderr)")
            #expect(decrypted.stdout == Self.plaintext)
            let encrypted = try Tools.seccli(
                Self.withFormat(["encrypt", "--in", "in.txt", "--out", "/dev/stdout"]),
                environment: Self.format.environment,
                in: dir
            )
            #expect(encrypted.stdout == ciphertext)
            let wrong = try Tools.seccli(
                Self.withFormat(["decrypt", "--in", "in.enc", "--out", "/dev/stdout"], .wrongKey),
                environment: Self.format.environment,
                in: dir
            )
            expectOneLineError(wrong, status: 1)
            let key = try Tools.seccli(["keygen", "--out", "/dev/stdout"])
            #expect(key.status == 0 && key.stdoutText.count == 65, "\(key.stderr)")
        }
    }

    @Test("/dev/fd/N on a file is written in place: the descriptor's file gets exactly the output, nothing is renamed")
    func devFd() throws {
        try withScratch { dir in
            try dir.write("in.enc", try Self.ciphertext())
            // A longer file opened read-write (not truncated by the shell) is cut to the output.
            try dir.write("out.txt", [UInt8](repeating: UInt8(ascii: "x"), count: Self.plaintext.count + 1000))
            let inode = try FileManager.default.attributesOfItem(atPath: dir.path("out.txt"))[.systemFileNumber]
            let result = try Tools.seccli(
                Self.withFormat(["decrypt", "--in", "in.enc", "--out", "/dev/fd/3"]),
                environment: Self.format.environment,
                in: dir,
                under: ["sh", "-c", "exec \"$@\" 3<>out.txt", "sh"]
            )
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try dir.read("out.txt") == Self.plaintext)
            let after = try FileManager.default.attributesOfItem(atPath: dir.path("out.txt"))[.systemFileNumber]
            #expect(after as? NSNumber == inode as? NSNumber, "the file was replaced, not written through")
            #expect(try Self.entries(dir.path) == ["in.enc", "out.txt"])
        }
    }

    @Test("keygen --out a link: the target is replaced with mode 0600 and the link stays")
    func keygenThroughLink() throws {
        try withScratch { dir in
            try dir.write("key.txt", "old key\n")
            try FileManager.default.createSymbolicLink(atPath: dir.path("link"), withDestinationPath: "key.txt")
            let result = try Tools.seccli(["keygen", "--out", "link"], in: dir)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(Self.linkDestination(dir.path("link")) == "key.txt")
            #expect(try dir.read("key.txt").count == 65)
            #expect(try Self.mode(dir.path("key.txt")) == 0o600)
        }
    }

    @Test("cred's store file behind a link: the link stays, the store it names is written")
    func storeFileThroughLink() throws {
        try withScratch { dir in
            try FileManager.default.createSymbolicLink(
                atPath: dir.path("store-link"),
                withDestinationPath: "real.store"
            )
            var env = Keychain.fileBackend(dir)
            env["SECCLI_STORE_FILE"] = dir.path("store-link")
            let item = ["--service", "svc", "--account", "alice"]
            try Tools.seccli(
                ["cred", "set"] + item,
                stdin: Array("s3cret".utf8),
                environment: env,
                expecting: .success
            )
            try Tools.seccli(["cred", "set"] + item, stdin: Array("again".utf8), environment: env, expecting: .success)
            #expect(Self.linkDestination(dir.path("store-link")) == "real.store")
            #expect(try Self.mode(dir.path("real.store")) == 0o600)
            let get = try Tools.seccli(["cred", "get"] + item, environment: env, expecting: .success)
            #expect(get.stdoutText == "again")
        }
    }

    @Test(
        "another user's link in a sticky world-writable folder is not followed (the kernel's protected_symlinks rule)",
        .enabled(if: geteuid() == 0, "changing a link's owner needs root")
    )
    func foreignLinkInSharedFolder() throws {
        try withScratch { dir in
            try dir.write("in.enc", try Self.ciphertext())
            try dir.write("victim", "precious\n")
            try FileManager.default.createDirectory(atPath: dir.path("shared"), withIntermediateDirectories: false)
            try #require(chmod(dir.path("shared"), 0o1777) == 0)
            try FileManager.default.createSymbolicLink(
                atPath: dir.path("shared/mine"),
                withDestinationPath: "../victim"
            )
            try FileManager.default.createSymbolicLink(
                atPath: dir.path("shared/theirs"),
                withDestinationPath: "../victim"
            )
            try #require(lchown(dir.path("shared/theirs"), 65534, 65534) == 0)

            let refused = try Tools.seccli(
                Self.withFormat(["decrypt", "--in", "in.enc", "--out", "shared/theirs"]),
                environment: Self.format.environment,
                in: dir
            )
            expectOneLineError(refused, status: 1)
            #expect(refused.stderr.contains("symbolic link in a shared folder"), "\(refused.stderr)")
            #expect(try dir.read("victim") == Array("precious\n".utf8))
            #expect(try Self.entries(dir.path("shared")) == ["mine", "theirs"])

            let followed = try Tools.seccli(
                Self.withFormat(["decrypt", "--in", "in.enc", "--out", "shared/mine"]),
                environment: Self.format.environment,
                in: dir
            )
            #expect(followed.status == 0, "\(followed.stderr)")
            #expect(try dir.read("victim") == Self.plaintext)
        }
    }
}
