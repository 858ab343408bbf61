import Foundation
import TestSupport
import Testing

/// `seccli encrypt` / `seccli decrypt` against `openssl enc` (password and raw-key formats) and
/// Python's `cryptography` (AES-GCM), in both directions.
@Suite("seccli encrypt/decrypt: interop with openssl and Python")
struct EncryptInteropTests {
    // MARK: - Password format (openssl enc -pbkdf2)

    @Test(
        "password format ⇄ openssl enc -pbkdf2 (defaults), 0 bytes to 3 MiB; -a lines as openssl's",
        .tags(.slow),
        arguments: Cipher.passwordCiphers,
        Armour.allCases
    )
    func passwordFormat(_ cipher: Cipher, armour: Armour) throws {
        try withScratch { dir in
            let environment = ["P": randomPrintable(24)]
            // seccli's defaults must be openssl's: -iter 10000 -md sha256.
            let openssl =
                ["enc", cipher.opensslOption, "-pbkdf2", "-iter", "10000", "-md", "sha256", "-pass", "env:P"]
                + armour.options
            for size in blockEdgeSizes + [largeSize] {
                let plaintext = randomBytes(size)
                try dir.write("plain.bin", plaintext)

                // seccli → openssl (files in, file out).
                let encrypted = try Tools.seccli(
                    [
                        "encrypt", "--password", "env:P", "--cipher", cipher.rawValue, "--in", "plain.bin", "--out",
                        "seccli.enc",
                    ] + armour.options,
                    environment: environment,
                    in: dir
                )
                #expect(encrypted.status == 0, "\(size) bytes: \(encrypted.stderr)")
                #expect(encrypted.stdout.isEmpty)
                let opened = try Tools.openssl(
                    openssl + ["-d", "-in", "seccli.enc"],
                    environment: environment,
                    in: dir
                )
                expectSameBytes(opened.stdout, plaintext, "\(size) bytes: openssl does not recover seccli's input")

                // openssl → seccli (standard input to standard output).
                let theirs = try Tools.openssl(openssl + ["-in", "plain.bin"], environment: environment, in: dir).stdout
                let decrypted = try Tools.seccli(
                    ["decrypt", "--password", "env:P", "--cipher", cipher.rawValue] + armour.options,
                    stdin: theirs,
                    environment: environment
                )
                #expect(decrypted.status == 0, "\(size) bytes: \(decrypted.stderr)")
                #expect(decrypted.stderr.isEmpty)
                expectSameBytes(decrypted.stdout, plaintext, "\(size) bytes: seccli does not recover openssl's input")

                // The file has openssl's shape: Salted__, salt, whole blocks; -a in the same lines.
                let ours = try dir.read("seccli.enc")
                #expect(ours.count == theirs.count, "\(size) bytes: \(ours.count) bytes, openssl wrote \(theirs.count)")
                switch armour {
                case .binary:
                    #expect(ours.starts(with: Array("Salted__".utf8)))
                case .lines:
                    let lengths = lineLengths(ours)
                    let sameLines = lengths == lineLengths(theirs)
                    #expect(sameLines, "\(size) bytes: -a line lengths differ from openssl's")
                    #expect(
                        lengths.dropLast(2).allSatisfy { $0 == 64 } && lengths.last == 0,
                        "64-character lines ending in a newline"
                    )
                case .singleLine:
                    #expect(
                        !ours.contains(UInt8(ascii: "\n")),
                        "\(size) bytes: -A output has a line break (openssl writes none)"
                    )
                }
            }
        }
    }

    struct KDFSetting: Sendable, CustomTestStringConvertible {
        var cipher: Cipher
        var iterations: Int
        var md: PRF
        var testDescription: String { "\(cipher.rawValue) --iter \(iterations) --md \(md.rawValue)" }
    }

    /// Every password cipher with --iter 1 and 10000 and --md sha1/sha256/sha512; 600000 once.
    static let kdfSettings: [KDFSetting] =
        Cipher.passwordCiphers.flatMap { cipher in
            [1, 10_000].flatMap { iterations in
                [PRF.sha1, .sha256, .sha512].map { KDFSetting(cipher: cipher, iterations: iterations, md: $0) }
            }
        } + [KDFSetting(cipher: .aes256CBC, iterations: 600_000, md: .sha256)]

    @Test(
        "--iter and --md ⇄ openssl -iter -md; one warning line below the recommended count, none at it",
        .tags(.slow),
        arguments: kdfSettings
    )
    func iterationsAndDigest(_ setting: KDFSetting) throws {
        try withScratch { dir in
            let environment = ["P": randomPrintable(16)]
            let plaintext = randomBytes(100)
            try dir.write("plain.bin", plaintext)
            let kdf = ["--iter", "\(setting.iterations)", "--md", setting.md.rawValue]
            let openssl = [
                "enc", setting.cipher.opensslOption, "-pbkdf2", "-iter", "\(setting.iterations)", "-md",
                setting.md.rawValue, "-pass", "env:P",
            ]

            let encrypted = try Tools.seccli(
                ["encrypt", "--password", "env:P", "--cipher", setting.cipher.rawValue, "--in", "plain.bin"] + kdf,
                environment: environment,
                in: dir
            )
            #expect(encrypted.status == 0, "\(encrypted.stderr)")
            if setting.iterations < setting.md.recommendedMinimum {
                expectOneWarning(encrypted.stderr)
                #expect(encrypted.stderr.contains("\(setting.iterations)"))
            } else {
                #expect(encrypted.stderr.isEmpty)
            }
            let opened = try Tools.openssl(openssl + ["-d"], stdin: encrypted.stdout, environment: environment)
            expectSameBytes(opened.stdout, plaintext, "openssl does not recover seccli's input")

            let theirs = try Tools.openssl(openssl + ["-in", "plain.bin"], environment: environment, in: dir)
            let decrypted = try Tools.seccli(
                ["decrypt", "--password", "env:P", "--cipher", setting.cipher.rawValue] + kdf,
                stdin: theirs.stdout,
                environment: environment
            )
            #expect(decrypted.status == 0, "\(decrypted.stderr)")
            #expect(decrypted.stderr.isEmpty, "decrypt does not warn about the count: the file fixes it")
            expectSameBytes(decrypted.stdout, plaintext, "seccli does not recover openssl's input")
        }
    }

    // MARK: - Raw key and IV (openssl enc -K -iv)

    @Test(
        "--key/--iv output equals openssl enc -K -iv byte for byte, and seccli decrypts openssl's",
        .tags(.slow),
        arguments: Cipher.cbc,
        Armour.allCases
    )
    func rawKeyMatchesOpenSSL(_ cipher: Cipher, armour: Armour) throws {
        try withScratch { dir in
            let key = hexString(randomBytes(cipher.keyByteCount))
            let iv = hexString(randomBytes(cipher.ivByteCount))
            let environment = ["K": key]
            let seccli = ["--cipher", cipher.rawValue, "--key", "env:K", "--iv", iv] + armour.options
            let openssl = ["enc", cipher.opensslOption, "-K", key, "-iv", iv] + armour.options
            // Armour is slow in a debug build: past the 256 KiB chunk is enough for it.
            for size in blockEdgeSizes + [armour == .binary ? largeSize : 256 * 1024 + 5] {
                let plaintext = randomBytes(size)
                try dir.write("plain.bin", plaintext)

                let ours = try Tools.seccli(
                    ["encrypt"] + seccli + ["--in", "plain.bin"],
                    environment: environment,
                    in: dir
                )
                #expect(ours.status == 0, "\(size) bytes: \(ours.stderr)")
                #expect(ours.stderr.isEmpty)
                let theirs = try Tools.openssl(openssl + ["-in", "plain.bin"], in: dir)
                expectSameBytes(ours.stdout, theirs.stdout, "\(size) bytes: output differs from openssl's")

                let decrypted = try Tools.seccli(["decrypt"] + seccli, stdin: theirs.stdout, environment: environment)
                #expect(decrypted.status == 0, "\(size) bytes: \(decrypted.stderr)")
                expectSameBytes(decrypted.stdout, plaintext, "\(size) bytes: seccli does not recover openssl's input")
            }
        }
    }

    enum KeySource: String, CaseIterable, Sendable {
        case environment, file, descriptor3, standardInput
    }

    enum KeyFormat: String, CaseIterable, Sendable {
        case hex, raw, base64
    }

    @Test(
        "--key from env:, file:, fd:3 and stdin, as hex (the default), raw and base64",
        arguments: KeySource.allCases,
        KeyFormat.allCases
    )
    func keySources(_ source: KeySource, format: KeyFormat) throws {
        try withScratch { dir in
            let cipher = Cipher.aes256CBC
            // A raw key must survive env: and a first-line read: printable, no newline.
            let keyBytes =
                format == .raw ? Array(randomPrintable(cipher.keyByteCount).utf8) : randomBytes(cipher.keyByteCount)
            let keyText: String
            switch format {
            case .hex: keyText = hexString(keyBytes)
            case .raw: keyText = String(decoding: keyBytes, as: UTF8.self)
            case .base64: keyText = Data(keyBytes).base64EncodedString()
            }
            let iv = hexString(randomBytes(cipher.ivByteCount))
            let plaintext = randomBytes(1000)
            try dir.write("plain.bin", plaintext)
            let firstLine = Array(keyText.utf8) + Array("\nnot part of the key\n".utf8)

            var arguments = ["encrypt", "--cipher", cipher.rawValue, "--iv", iv, "--in", "plain.bin", "--key"]
            var environment: [String: String] = [:]
            var stdin: [UInt8]?
            var extraInput: ProcessRunner.ExtraInput?
            switch source {
            case .environment:
                arguments.append("env:K")
                environment["K"] = keyText
            case .file:
                arguments.append("file:\(try dir.write("key.txt", firstLine))")
            case .descriptor3:
                arguments.append("fd:3")
                extraInput = .init(descriptor: 3, bytes: firstLine)
            case .standardInput:
                arguments.append("stdin")
                stdin = firstLine
            }
            if format != .hex { arguments += ["--key-format", format.rawValue] }  // hex is the default

            let ours = try Tools.seccli(
                arguments,
                stdin: stdin,
                environment: environment,
                extraInput: extraInput,
                in: dir
            )
            #expect(ours.status == 0, "\(ours.stderr)")
            #expect(ours.stderr.isEmpty)
            let expected = try Tools.openssl(
                ["enc", cipher.opensslOption, "-K", hexString(keyBytes), "-iv", iv, "-in", "plain.bin"],
                in: dir
            )
            expectSameBytes(ours.stdout, expected.stdout, "differs from openssl enc -K")
        }
    }

    // MARK: - AES-GCM (Python cryptography)

    /// `python3 -c gcmScript encrypt|decrypt KEYHEX NONCEHEX FILE...` writes FILE.out for each FILE.
    static let gcmScript = """
        import sys
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM
        mode, key, nonce, *paths = sys.argv[1:]
        aead, nonce = AESGCM(bytes.fromhex(key)), bytes.fromhex(nonce)
        for path in paths:
            with open(path, "rb") as f:
                data = f.read()
            result = aead.encrypt(nonce, data, None) if mode == "encrypt" else aead.decrypt(nonce, data, None)
            with open(path + ".out", "wb") as f:
                f.write(result)
        """

    @Test(
        "GCM: ciphertext ‖ tag equals Python AESGCM.encrypt, AESGCM.decrypt opens it, seccli opens Python's",
        .tags(.slow),
        arguments: Cipher.gcm,
        [12, 16]
    )
    func gcmMatchesPython(_ cipher: Cipher, nonceLength: Int) throws {
        try Tools.requirePythonCryptography()
        try withScratch { dir in
            let key = hexString(randomBytes(cipher.keyByteCount))
            let nonce = hexString(randomBytes(nonceLength))
            let environment = ["K": key]
            let seccli = ["--cipher", cipher.rawValue, "--key", "env:K", "--iv", nonce]
            let sizes = blockEdgeSizes + [largeSize]
            var plaintexts: [[UInt8]] = []
            var seccliFiles: [String] = []
            for (index, size) in sizes.enumerated() {
                let plaintext = randomBytes(size)
                plaintexts.append(plaintext)
                try dir.write("plain\(index)", plaintext)
                let encrypted = try Tools.seccli(
                    ["encrypt"] + seccli + ["--in", "plain\(index)", "--out", "seccli\(index)"],
                    environment: environment,
                    in: dir
                )
                #expect(encrypted.status == 0, "\(size) bytes: \(encrypted.stderr)")
                #expect(encrypted.stderr.isEmpty && encrypted.stdout.isEmpty)
                seccliFiles.append("seccli\(index)")
            }
            // Python opens seccli's files, and encrypts the same plaintexts.
            _ = try Tools.python(Self.gcmScript, ["decrypt", key, nonce] + seccliFiles, in: dir)
            _ = try Tools.python(Self.gcmScript, ["encrypt", key, nonce] + sizes.indices.map { "plain\($0)" }, in: dir)

            for (index, size) in sizes.enumerated() {
                let ours = try dir.read("seccli\(index)")
                #expect(ours.count == size + 16, "ciphertext ‖ 16-byte tag")
                expectSameBytes(
                    try dir.read("seccli\(index).out"),
                    plaintexts[index],
                    "\(size) bytes: Python does not recover seccli's input"
                )
                let python = try dir.read("plain\(index).out")
                expectSameBytes(ours, python, "\(size) bytes: differs from AESGCM.encrypt")

                let decrypted = try Tools.seccli(["decrypt"] + seccli, stdin: python, environment: environment)
                #expect(decrypted.status == 0, "\(size) bytes: \(decrypted.stderr)")
                #expect(decrypted.stderr.isEmpty)
                expectSameBytes(
                    decrypted.stdout,
                    plaintexts[index],
                    "\(size) bytes: seccli does not recover Python's input"
                )
            }
        }
    }
}
