import Foundation
import TestSupport
import Testing

/// The ciphers `seccli encrypt` offers, with what the tests need to know about them.
/// Deliberately not SecCrypto's `CipherAlgorithm`: these tests look at the executable from outside.
enum Cipher: String, CaseIterable, Sendable {
    case aes128CBC = "aes-128-cbc"
    case aes192CBC = "aes-192-cbc"
    case aes256CBC = "aes-256-cbc"
    case desEDE3CBC = "des-ede3-cbc"
    case desEDECBC = "des-ede-cbc"
    case aes128GCM = "aes-128-gcm"
    case aes192GCM = "aes-192-gcm"
    case aes256GCM = "aes-256-gcm"

    var isGCM: Bool { rawValue.hasSuffix("-gcm") }
    var keyByteCount: Int {
        switch self {
        case .aes128CBC, .aes128GCM, .desEDECBC: 16
        case .aes192CBC, .aes192GCM, .desEDE3CBC: 24
        case .aes256CBC, .aes256GCM: 32
        }
    }
    /// The CBC block size (the IV size), or the recommended 12-byte GCM nonce.
    var ivByteCount: Int { isGCM ? 12 : blockByteCount }
    var blockByteCount: Int { rawValue.hasPrefix("des") ? 8 : 16 }
    /// The `openssl enc` option: `-aes-256-cbc`.
    var opensslOption: String { "-\(rawValue)" }

    static let cbc = allCases.filter { !$0.isGCM }
    static let gcm = allCases.filter(\.isGCM)
    /// The ciphers the password (openssl enc -pbkdf2) format is tested with.
    static let passwordCiphers: [Cipher] = [.aes128CBC, .aes192CBC, .aes256CBC, .desEDE3CBC]
}

/// `-a` / `-a -A`: the same flags for seccli and `openssl enc`.
enum Armour: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case binary, lines, singleLine

    var options: [String] {
        switch self {
        case .binary: []
        case .lines: ["-a"]
        case .singleLine: ["-a", "-A"]
        }
    }

    var testDescription: String { options.isEmpty ? "binary" : options.joined(separator: " ") }
}

/// PBKDF2 pseudo-random functions as named by `--md`, `--prf`, `openssl -md` and Python's hashlib.
enum PRF: String, CaseIterable, Sendable {
    case sha1, sha224, sha256, sha384, sha512

    /// The OWASP 2023 minimum below which seccli warns (documented in `seccli kdf --help`).
    var recommendedMinimum: Int {
        switch self {
        case .sha1: 1_300_000
        case .sha224, .sha256: 600_000
        case .sha384, .sha512: 210_000
        }
    }
}

/// Input sizes around the block size, and one that crosses several 256 KiB read chunks.
let blockEdgeSizes = [0, 1, 15, 16, 17]
let largeSize = 3 * 1024 * 1024 + 11

// MARK: - Reference tools

extension Tools {
    /// Runs `openssl` with extra environment (for `-pass env:P`) and requires it to succeed.
    static func openssl(
        _ arguments: [String],
        stdin: [UInt8]? = nil,
        environment: [String: String] = [:],
        in directory: Scratch? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ProcessResult {
        let result = try opensslAllowingFailure(arguments, stdin: stdin, environment: environment, in: directory)
        try #require(
            result.status == 0,
            "openssl \(arguments) failed (\(result.status)): \(result.stderr)",
            sourceLocation: sourceLocation
        )
        return result
    }

    /// Runs `openssl`, which may fail (decrypting tampered data).
    static func opensslAllowingFailure(
        _ arguments: [String],
        stdin: [UInt8]? = nil,
        environment: [String: String] = [:],
        in directory: Scratch? = nil
    ) throws -> ProcessResult {
        try ProcessRunner.run(
            "openssl",
            arguments,
            stdin: stdin,
            environment: environment,
            currentDirectory: directory?.path
        )
    }

    /// The result of `python3 -c "import cryptography"`, run once.
    private static let cryptographyProbe: Result<ProcessResult, any Error> = Result {
        try ProcessRunner.run("python3", ["-c", "import cryptography.hazmat.primitives.ciphers.aead"])
    }

    /// Fails (never skips) when Python's `cryptography` package is missing: the GCM interop tests
    /// would otherwise prove nothing. `tools/install-deps` (run by `tools/test` and `.ci/run`) installs it.
    static func requirePythonCryptography(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let advice =
            "the GCM interop tests need python3 with the 'cryptography' package: run tools/install-deps, or python3 -m pip install cryptography"
        switch cryptographyProbe {
        case .failure(let error):
            try #require(Bool(false), "\(advice) (\(error))", sourceLocation: sourceLocation)
        case .success(let probe):
            try #require(
                probe.status == 0,
                "\(advice) (\(probe.stderr.trimmingCharacters(in: .whitespacesAndNewlines)))",
                sourceLocation: sourceLocation
            )
        }
    }

    /// Runs `python3 -c script arguments...` and requires it to succeed.
    static func python(
        _ script: String,
        _ arguments: [String] = [],
        stdin: [UInt8]? = nil,
        environment: [String: String] = [:],
        in directory: Scratch? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ProcessResult {
        let result = try ProcessRunner.run(
            "python3",
            ["-c", script] + arguments,
            stdin: stdin,
            environment: environment,
            currentDirectory: directory?.path
        )
        try #require(
            result.status == 0,
            "python3 \(arguments) failed (\(result.status)): \(result.stderr)",
            sourceLocation: sourceLocation
        )
        return result
    }
}

// MARK: - Fixtures and checks

/// `count` bytes of printable ASCII text, the same on every run. Decrypting a block of it can never
/// look like valid PKCS#7 padding (every byte is 0x20 or above), so cuts and flips fail deterministically.
func fixedText(_ count: Int) -> [UInt8] {
    let sentence = Array("Pack my box with five dozen liquor jugs; the quick brown fox jumps over the lazy dog. ".utf8)
    return (0..<count).map { sentence[$0 % sentence.count] }
}

/// The names in `directory`.
func directoryEntries(_ directory: Scratch) throws -> Set<String> {
    Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
}

/// Asserts that `stderr` is exactly one `seccli: warning:` line.
func expectOneWarning(_ stderr: String, sourceLocation: SourceLocation = #_sourceLocation) {
    expectOneLine(stderr, sourceLocation: sourceLocation)
    #expect(stderr.hasPrefix("seccli: warning: "), "stderr: \(stderr.debugDescription)", sourceLocation: sourceLocation)
}

/// The lengths of the lines of base64 armour (without line breaks).
func lineLengths(_ bytes: [UInt8]) -> [Int] {
    bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(\.count)
}

/// Expects `actual == expected` and, unlike `#expect`, reports a difference in one line (sizes and
/// the first differing offset) instead of printing megabytes of bytes.
func expectSameBytes(
    _ actual: [UInt8],
    _ expected: [UInt8],
    _ what: @autoclosure () -> String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    guard actual != expected else { return }
    let offset =
        zip(actual, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        ?? min(actual.count, expected.count)
    Issue.record(
        "\(what()): \(actual.count) bytes where \(expected.count) were expected, first difference at offset \(offset)",
        sourceLocation: sourceLocation
    )
}
