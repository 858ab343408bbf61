import Foundation
import TestSupport
import Testing

/// `seccli encrypt/decrypt --format jwe|fernet|legacy-json` as a process, against the peers of
/// Tests/Peers run as processes too: joserfc (jose_peer.py), Python's cryptography.fernet
/// (fernet_peer.py) and the book's PHP server (legacy_server.php); then the failures: the
/// documented exit code, one `seccli: ` line, nothing on standard output, `--out` untouched.
/// The tests are in EnvelopeCLITests+JWE, +Fernet, +LegacyJSON and +Refusals; here are the suite and
/// what they share.
@Suite("seccli encrypt/decrypt --format jwe|fernet|legacy-json")
struct EnvelopeCLITests {
    /// What every wrong key, password or altered token says, whatever the format.
    static let authenticationFailed = "seccli: authentication failed: wrong key, or the data was altered\n"
}

// MARK: - Running seccli and the peers

extension EnvelopeCLITests {
    /// The one line of text that `seccli encrypt` of a sealed format wrote (without its line feed).
    static func tokenLine(_ result: ProcessResult, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        let text = result.stdoutText
        #expect(
            text.hasSuffix("\n") && text.filter { $0 == "\n" }.count == 1,
            "not one line: \(text.debugDescription)",
            sourceLocation: sourceLocation
        )
        return text.trimmingCharacters(in: .newlines)
    }

    /// The members of a JWE protected header that the tests look at.
    struct JWEHeader: Sendable, CustomStringConvertible {
        var alg: String?, enc: String?, kid: String?, p2s: String?, p2c: Int?
        /// The whole header, for messages.
        var description: String
    }

    /// The protected header of a compact JWE, as joserfc reads it.
    static func joseHeader(_ token: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> JWEHeader {
        let result = try InteropPeer.jose.run(["header"], stdin: Array(token.utf8))
        return try header(json: result.stdout, sourceLocation: sourceLocation)
    }

    /// The protected header of a compact JWE, decoded here (cheaper than starting joserfc).
    static func header(_ token: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> JWEHeader {
        let encoded = String(token.prefix { $0 != "." })
        let json = try #require(
            base64URLDecode(encoded),
            "header is not base64url: \(token)",
            sourceLocation: sourceLocation
        )
        return try header(json: json, sourceLocation: sourceLocation)
    }

    private static func header(json: [UInt8], sourceLocation: SourceLocation) throws -> JWEHeader {
        let text = String(decoding: json, as: UTF8.self)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any],
            "header is not a JSON object: \(text)",
            sourceLocation: sourceLocation
        )
        return JWEHeader(
            alg: object["alg"] as? String,
            enc: object["enc"] as? String,
            kid: object["kid"] as? String,
            p2s: object["p2s"] as? String,
            p2c: object["p2c"] as? Int,
            description: text
        )
    }

    /// A key made by `seccli keygen --format jwe-oct --out`.
    struct GeneratedJWK {
        /// The file's one line.
        var json: String
        var keyID: String?
        var bytes: [UInt8]
        var hex: String { hexString(bytes) }
    }

    static func keygenJWK(
        _ name: String,
        bits: Int = 256,
        kid: String? = nil,
        in dir: Scratch,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> GeneratedJWK {
        let result = try Tools.seccli(
            ["keygen", "--format", "jwe-oct", "--bits", "\(bits)", "--out", name] + (kid.map { ["--kid", $0] } ?? []),
            in: dir,
            sourceLocation: sourceLocation
        )
        try #require(result.status == 0, "seccli keygen failed: \(result.stderr)", sourceLocation: sourceLocation)
        let json = String(decoding: try dir.read(name), as: UTF8.self).trimmingCharacters(in: .newlines)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
            "not a JWK: \(json)",
            sourceLocation: sourceLocation
        )
        let bytes = try #require(
            (object["k"] as? String).flatMap(base64URLDecode),
            "no base64url k: \(json)",
            sourceLocation: sourceLocation
        )
        return GeneratedJWK(json: json, keyID: object["kid"] as? String, bytes: bytes)
    }
}

// MARK: - Failures

/// Runs a seccli command that must fail, twice: to standard output, then with `--out` naming an
/// existing file. Both times the exit code is `status`, standard error exactly one `seccli: ` line
/// that mentions each of `mentions` (the same both times unless `sameMessage` is false, for messages
/// that tell the time), and standard output empty; the existing file is untouched and no other file
/// appears in `dir` (no `*.seckit-*` temporary file). Returns the message.
@discardableResult
func expectRefused(
    _ arguments: [String],
    environment: [String: String] = [:],
    stdin: [UInt8]? = nil,
    in dir: Scratch,
    status: Int32,
    mentions: [String] = [],
    sameMessage: Bool = true,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> String {
    let before = try directoryEntries(dir)
    let existing = "existing-output.txt"
    try #require(!before.contains(existing), sourceLocation: sourceLocation)
    let piped = try Tools.seccli(
        arguments,
        stdin: stdin,
        environment: environment,
        in: dir,
        sourceLocation: sourceLocation
    )
    let precious = Array("precious: a failed command must not touch this\n".utf8)
    try dir.write(existing, precious)
    let toFile = try Tools.seccli(
        arguments + ["--out", existing],
        stdin: stdin,
        environment: environment,
        in: dir,
        sourceLocation: sourceLocation
    )
    for result in [piped, toFile] {
        expectOneLineError(result, status: status, sourceLocation: sourceLocation)
        for text in mentions {
            #expect(
                result.stderr.contains(text),
                "the message should mention \(text.debugDescription): \(result.stderr)",
                sourceLocation: sourceLocation
            )
        }
    }
    #expect(!sameMessage || toFile.stderr == piped.stderr, "--out changed the message", sourceLocation: sourceLocation)
    #expect(try dir.read(existing) == precious, "--out \(existing) was changed", sourceLocation: sourceLocation)
    let after = try directoryEntries(dir)
    try FileManager.default.removeItem(atPath: dir.path(existing))
    let extra = after.subtracting(before.union([existing]))
    #expect(extra.isEmpty, "left behind: \(extra.sorted())", sourceLocation: sourceLocation)
    #expect(
        !after.contains { $0.contains(".seckit-") },
        "temporary file left: \(after.sorted())",
        sourceLocation: sourceLocation
    )
    return piped.stderr
}

// MARK: - Encodings

/// Base64url, with `=` padding as Fernet keys have it, or without as JOSE has it.
func base64URLEncode(_ bytes: [UInt8], padded: Bool = true) -> String {
    let base64 = Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(
        of: "/",
        with: "_"
    )
    return padded ? base64 : base64.replacingOccurrences(of: "=", with: "")
}

/// Decodes base64url with or without padding; nil when it is not base64url.
func base64URLDecode(_ text: String) -> [UInt8]? {
    guard !text.contains(where: { $0 == "+" || $0 == "/" }) else { return nil }
    var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
    return Data(base64Encoded: base64).map(Array.init)
}

/// A new Fernet key: base64url of 32 random bytes, as Python's `Fernet.generate_key()`.
func fernetKey() -> String { base64URLEncode(randomBytes(32)) }

/// `text` with its middle character (or, on a `.`, the next one) replaced by another base64url character.
func flipMiddleCharacter(_ text: String) -> String {
    var characters = Array(text)
    var index = characters.count / 2
    while characters[index] == "." { index += 1 }
    characters[index] = characters[index] == "A" ? "B" : "A"
    return String(characters)
}
