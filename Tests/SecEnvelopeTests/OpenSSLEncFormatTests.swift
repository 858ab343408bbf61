import Foundation
import SecCrypto
import SecEnvelope
import TestSupport
import Testing

/// Runs the system `openssl` with `arguments` plus `-in` a temporary file holding `input`, and returns
/// its standard output. `password` is passed as the environment variable `P` (`-pass env:P`).
private func openssl(_ arguments: [String], input: [UInt8], password: String? = nil) throws -> [UInt8] {
    try withTemporaryFile(containing: input) { path in
        try ProcessRunner.run("openssl", arguments + ["-in", path], environment: password.map { ["P": $0] } ?? [:])
            .requiringSuccess(of: "openssl \(arguments.joined(separator: " "))").stdout
    }
}

/// `count` bytes, the same on every run.
private func pattern(_ count: Int) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
}

/// Everything `bytes` turns into when written to a sink in uneven pieces, as `make` builds it in front of a `DataSink`.
private func through(_ make: (ByteSink) throws(CryptoError) -> ByteSink, _ bytes: [UInt8]) throws -> [UInt8] {
    let output = DataSink()
    let sink = try make(output)
    for piece in bytes.unevenPieces { try sink.write(data: piece) }
    try sink.finish()
    return [UInt8](output.data)
}

/// `openssl enc -pbkdf2` files and `-a` armour, checked against the real `openssl` (3.x).
@Suite struct OpenSSLEncFormatTests {
    typealias Parameters = OpenSSLEncFormat.Parameters

    private static let password = "correct horse battery staple"
    private static let salt: [UInt8] = [0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef]
    private static let sizes = [0, 1, 7, 8, 15, 16, 17, 1000]

    private static func secret(_ password: String = password) -> SecureBytes { SecureBytes(Array(password.utf8)) }

    private static func opensslEnc(_ parameters: Parameters) -> [String] {
        [
            "enc", "-\(parameters.cipher.rawValue)", "-pbkdf2", "-iter", "\(parameters.iterations)", "-md",
            parameters.digest.rawValue,
            "-pass", "env:P",
        ]
    }

    /// Our file for `plaintext` with the fixed salt.
    private static func encrypt(
        _ plaintext: [UInt8],
        _ parameters: Parameters,
        password: String = password
    ) throws -> [UInt8] {
        try through(
            { (next) throws(CryptoError) in
                try OpenSSLEncFormat.encryptingSink(
                    password: secret(password),
                    parameters: parameters,
                    salt: salt,
                    next: next
                )
            },
            plaintext
        )
    }

    private static func decrypt(
        _ file: [UInt8],
        _ parameters: Parameters,
        password: String = password
    ) throws -> [UInt8] {
        try through(
            { (next) throws(CryptoError) in
                try OpenSSLEncFormat.decryptingSink(password: secret(password), parameters: parameters, next: next)
            },
            file
        )
    }

    /// Every cipher with openssl's defaults (`-iter 10000 -md sha256`), then every other digest and a few counts.
    static let parameterSets: [Parameters] = [
        Parameters(cipher: .aes128CBC), Parameters(cipher: .aes192CBC), Parameters(cipher: .aes256CBC),
        Parameters(cipher: .tripleDESCBC),
        Parameters(cipher: .aes128CBC, iterations: 1, digest: .sha1),
        Parameters(cipher: .aes192CBC, iterations: 1000, digest: .sha512),
        Parameters(cipher: .aes256CBC, iterations: 2, digest: .sha384),
        Parameters(cipher: .tripleDESCBC, iterations: 100, digest: .sha224),
    ]

    /// With `-S`, OpenSSL 3 writes no `Salted__` header (see openssl-enc(1), NOTES), so its output is
    /// exactly the ciphertext that follows our 16-byte header.
    @Test(arguments: parameterSets)
    func fixedSaltMatchesOpenSSL(_ parameters: Parameters) throws {
        for size in Self.sizes {
            let plaintext = pattern(size)
            let theirs = try openssl(
                Self.opensslEnc(parameters) + ["-S", Hex.encode(Self.salt)],
                input: plaintext,
                password: Self.password
            )
            let ours = try Self.encrypt(plaintext, parameters)
            #expect(Hex.encode(ours) == Hex.encode(OpenSSLEncFormat.magic + Self.salt + theirs), "\(size) bytes")
        }
    }

    /// Files openssl writes (random salt, header included), raw and `-a`, decrypt; openssl decrypts ours.
    @Test(arguments: parameterSets)
    func interoperatesWithOpenSSL(_ parameters: Parameters) throws {
        for size in [0, 17, 1000] {
            let plaintext = pattern(size)
            let theirs = try openssl(Self.opensslEnc(parameters), input: plaintext, password: Self.password)
            #expect(try Self.decrypt(theirs, parameters) == plaintext, "\(size) bytes")

            let theirsArmoured = try openssl(
                Self.opensslEnc(parameters) + ["-a"],
                input: plaintext,
                password: Self.password
            )
            let dearmoured = try through({ Base64DecodingSink(next: $0) }, theirsArmoured)
            #expect(try Self.decrypt(dearmoured, parameters) == plaintext, "-a, \(size) bytes")

            let ours = try Self.encrypt(plaintext, parameters)
            #expect(
                try openssl(Self.opensslEnc(parameters) + ["-d"], input: ours, password: Self.password) == plaintext,
                "\(size) bytes"
            )
            let oursArmoured = try through({ Base64EncodingSink(next: $0) }, ours)
            #expect(
                try openssl(Self.opensslEnc(parameters) + ["-d", "-a"], input: oursArmoured, password: Self.password)
                    == plaintext,
                "-a, \(size) bytes"
            )
        }
    }

    /// `Base64EncodingSink` against `openssl enc -a` (64-character lines) and `-a -A` (one line), around
    /// the 48-byte line unit; `Base64DecodingSink` reads both back.
    @Test(arguments: [0, 1, 47, 48, 49, 95, 96, 1000])
    func base64ArmourMatchesOpenSSL(_ size: Int) throws {
        let bytes = pattern(size)
        let theirsWrapped = try openssl(["enc", "-a"], input: bytes)
        let theirsOneLine = try openssl(["enc", "-a", "-A"], input: bytes)
        let oursWrapped = try through({ Base64EncodingSink(next: $0) }, bytes)
        let oursOneLine = try through({ Base64EncodingSink(lineLength: nil, next: $0) }, bytes)

        #expect(String(decoding: oursWrapped, as: UTF8.self) == String(decoding: theirsWrapped, as: UTF8.self))
        #expect(String(decoding: oursOneLine, as: UTF8.self) == String(decoding: theirsOneLine, as: UTF8.self))
        for armour in [theirsWrapped, theirsOneLine] {
            #expect(try through({ Base64DecodingSink(next: $0) }, armour) == bytes)
        }
    }

    @Test(arguments: [CipherAlgorithm.aes128CBC, .aes192CBC, .aes256CBC, .tripleDESCBC])
    func wrongPasswordFailsToDecrypt(_ cipher: CipherAlgorithm) throws {
        let parameters = Parameters(cipher: cipher, iterations: 1000)
        let file = try Self.encrypt(pattern(100), parameters)
        #expect(throws: CryptoError.decryptionFailed) {
            try Self.decrypt(file, parameters, password: "correct horse battery stapler")
        }
    }

    @Test func missingMagicIsMalformed() throws {
        let parameters = Parameters(iterations: 1000)
        var file = try Self.encrypt(pattern(100), parameters)
        file[7] = UInt8(ascii: "-")  // "Salted_-"
        let error = #expect(throws: CryptoError.self) { try Self.decrypt(file, parameters) }
        #expect(error?.isMalformedInput == true, "\(String(describing: error))")
    }

    /// Any prefix shorter than the 16-byte header, including the empty input.
    @Test func inputShorterThanTheHeaderIsMalformed() throws {
        let parameters = Parameters(iterations: 1000)
        let file = try Self.encrypt(pattern(100), parameters)
        for count in 0..<16 {
            let error = #expect(throws: CryptoError.self, "\(count) bytes") {
                try Self.decrypt(Array(file.prefix(count)), parameters)
            }
            #expect(error?.isMalformedInput == true, "\(count) bytes: \(String(describing: error))")
        }
    }

    /// CBC is unauthenticated, so a flipped ciphertext byte either breaks the padding (`decryptionFailed`,
    /// never another error) or decrypts to different bytes. A flip in the first of three blocks garbles
    /// blocks 1 and 2 only, so the padding in block 3 survives and decryption succeeds.
    @Test func everyCiphertextByteFlipIsNoticed() throws {
        let parameters = Parameters(cipher: .aes256CBC, iterations: 1000)
        let plaintext = pattern(40)  // three 16-byte blocks after padding
        let file = try Self.encrypt(plaintext, parameters)
        #expect(file.count == 16 + 48)
        var failures = 0
        for position in 16..<file.count {
            var flipped = file
            flipped[position] ^= 0x01
            do {
                #expect(try Self.decrypt(flipped, parameters) != plaintext, "flip at \(position)")
            } catch CryptoError.decryptionFailed {
                #expect(position >= 32, "flip at \(position) in the first block broke the padding")
                failures += 1
            }
        }
        #expect(failures > 0, "no flip broke the padding")
    }

    @Test func aSaltOfAnotherSizeIsRefused() {
        expectIncorrectSize(actual: 16, expected: "8 bytes") {
            _ = try OpenSSLEncFormat.encryptingSink(
                password: SecureBytes([UInt8]()),
                parameters: .init(iterations: 1),
                salt: [UInt8](repeating: 0, count: 16),
                next: DataSink()
            )
        }
    }
}
