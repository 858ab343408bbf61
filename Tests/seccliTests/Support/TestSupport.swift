import Foundation
import TestSupport
import Testing

/// The hash functions `seccli` offers, with the reference tools that compute them.
/// Deliberately not SecCrypto's `HashAlgorithm`: these tests look at the executable from outside.
enum Algorithm: String, CaseIterable, Sendable {
    case md5, sha1, sha224, sha256, sha384, sha512

    /// The coreutils tool: `md5sum`, `sha256sum`, ...
    var sumTool: String { "\(rawValue)sum" }
    /// The `openssl dgst` option: `-sha256`.
    var opensslOption: String { "-\(rawValue)" }
    /// HMAC block size in bytes (a longer key is hashed first).
    var blockSize: Int { self == .sha384 || self == .sha512 ? 128 : 64 }
}

// MARK: - Running the reference tools

/// The reference tools the CLI tests compare seccli with (TestSupport's `Tools` runs seccli itself).
extension Tools {
    /// Runs a reference tool found on PATH (`openssl`, `sha256sum`, `base64`, ...) and requires
    /// it to succeed, so a broken reference cannot make a comparison pass.
    static func reference(
        _ tool: String,
        _ arguments: [String],
        stdin: [UInt8]? = nil,
        in directory: Scratch? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ProcessResult {
        let result = try ProcessRunner.run(tool, arguments, stdin: stdin, currentDirectory: directory?.path)
        try #require(
            result.status == 0,
            "\(tool) \(arguments) failed (\(result.status)): \(result.stderr)",
            sourceLocation: sourceLocation
        )
        return result
    }

    /// Runs a reference tool that is expected to fail (as `sha256sum -c` on a bad list).
    static func referenceAllowingFailure(
        _ tool: String,
        _ arguments: [String],
        stdin: [UInt8]? = nil,
        in directory: Scratch? = nil
    ) throws -> ProcessResult {
        try ProcessRunner.run(tool, arguments, stdin: stdin, currentDirectory: directory?.path)
    }

    /// The hex digest of the first field of `openssl dgst -r` output (`<hex> *<name>`).
    static func opensslHex(
        _ arguments: [String],
        stdin: [UInt8]? = nil,
        in directory: Scratch? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String {
        let result = try reference(
            "openssl",
            ["dgst", "-r"] + arguments,
            stdin: stdin,
            in: directory,
            sourceLocation: sourceLocation
        )
        return String(result.stdoutText.prefix { $0 != " " })
    }

    /// `openssl dgst <arguments> -binary | base64`, with both tools.
    static func opensslBase64(
        _ arguments: [String],
        stdin: [UInt8]? = nil,
        in directory: Scratch? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String {
        let binary = try reference(
            "openssl",
            ["dgst", "-binary"] + arguments,
            stdin: stdin,
            in: directory,
            sourceLocation: sourceLocation
        )
        let encoded = try reference("base64", ["-w0"], stdin: binary.stdout, sourceLocation: sourceLocation)
        return encoded.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

// MARK: - Assertions

/// Asserts the shape of every seccli error: the given exit code, nothing on standard output, and
/// exactly one `seccli: ` line on standard error.
func expectOneLineError(_ result: ProcessResult, status: Int32, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(result.status == status, "exit code; stderr: \(result.stderr)", sourceLocation: sourceLocation)
    #expect(result.stdout.isEmpty, "stdout: \(result.stdoutText)", sourceLocation: sourceLocation)
    expectOneLine(result.stderr, sourceLocation: sourceLocation)
}

/// Asserts that `stderr` is exactly one line starting with `seccli: `.
func expectOneLine(_ stderr: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(stderr.hasPrefix("seccli: "), "stderr: \(stderr.debugDescription)", sourceLocation: sourceLocation)
    #expect(
        stderr.hasSuffix("\n") && stderr.filter { $0 == "\n" }.count == 1,
        "stderr must be exactly one line: \(stderr.debugDescription)",
        sourceLocation: sourceLocation
    )
}

/// `sha256sum: ...` messages with seccli's prefix, to compare standard error of both tools.
func asSeccliMessages(_ stderr: String, from tool: String) -> String {
    stderr.replacingOccurrences(of: "\(tool): ", with: "seccli: ")
}

// MARK: - Test data

/// Lower-case hex, for handing binary keys to `openssl -macopt hexkey:`.
func hexString(_ bytes: [UInt8]) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
}

/// A variable name that is certainly not set in the environment.
func unsetVariableName() -> String {
    "SECCLI_TEST_UNSET_\(UUID().uuidString.replacingOccurrences(of: "-", with: "_"))"
}
