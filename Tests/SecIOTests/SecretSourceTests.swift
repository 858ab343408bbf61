import Foundation
import SecCrypto
import SecIO
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

@Suite struct SecretSourceTests {
    private static func string(_ secret: SecureBytes) -> String {
        secret.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    @Test(arguments: [
        ("env:API_KEY", SecretSource.environment("API_KEY")),
        ("file:/run/secrets/key", .file("/run/secrets/key")),
        ("file:relative:with=odd chars", .file("relative:with=odd chars")),
        ("fd:3", .fileDescriptor(3)),
        ("fd:0", .fileDescriptor(0)),
        ("stdin", .standardInput),
        ("-", .standardInput),
        ("keyring:api.example.com/deploy", .keyring(service: "api.example.com", account: "deploy")),
        ("keyring:https://example.com/api/ci", .keyring(service: "https://example.com/api", account: "ci")),
    ])
    func parses(_ argument: String, _ expected: SecretSource) throws {
        let source = try SecretSource(parsing: argument)
        #expect(source == expected)
        #expect(try SecretSource(parsing: source.description) == source)
    }

    @Test func keyringSourceNeedsAKeyring() {
        let source = SecretSource.keyring(service: "api.example.com", account: "deploy")
        #expect(throws: SecretSourceError.keyringNotGiven(source: "keyring:api.example.com/deploy")) {
            try source.read()
        }
    }

    @Test func readsStandardInputOnlyForStdinAndDescriptorZero() {
        #expect(SecretSource.standardInput.readsStandardInput)
        #expect(SecretSource.fileDescriptor(0).readsStandardInput)
        #expect(!SecretSource.fileDescriptor(3).readsStandardInput)
        #expect(!SecretSource.environment("X").readsStandardInput)
        #expect(!SecretSource.file("/x").readsStandardInput)
    }

    @Test(arguments: [
        ("env:", "env: needs a variable name, as in env:API_KEY"),
        ("file:", "file: needs a path, as in file:/run/secrets/key"),
        ("fd:", "fd: needs a descriptor number, as in fd:3"),
        ("fd:-1", "fd: needs a descriptor number, as in fd:3"),
        ("fd:three", "fd: needs a descriptor number, as in fd:3"),
        ("fd:3x", "fd: needs a descriptor number, as in fd:3"),
        ("keyring:", "keyring: needs a service and an account, as in keyring:api.example.com/deploy"),
        ("keyring:service", "keyring: needs a service and an account, as in keyring:api.example.com/deploy"),
        ("keyring:/account", "keyring: needs a service and an account, as in keyring:api.example.com/deploy"),
        ("keyring:service/", "keyring: needs a service and an account, as in keyring:api.example.com/deploy"),
    ])
    func refusesIncompleteSources(_ argument: String, _ message: String) {
        #expect(throws: SecretSourceError.invalidSource(message)) { try SecretSource(parsing: argument) }
    }

    /// A secret typed on the command line is refused, and the refusal never repeats it.
    @Test(arguments: [("hunter2-Tr0ub4dor", false), ("pass:hunter2-Tr0ub4dor", true), ("", false), ("ENV:X", false)])
    func refusesLiterals(_ argument: String, _ passPrefix: Bool) {
        let error = #expect(throws: SecretSourceError.self) { try SecretSource(parsing: argument) }
        #expect(error == .literalRefused(passPrefix: passPrefix))
        #expect(error?.description.contains("hunter2") == false)
        #expect(error?.description.contains("Tr0ub4dor") == false)
    }

    @Test func unsetEnvironmentVariableIsNamed() {
        let name = "SECCRYPTO_TEST_UNSET_\(UUID().uuidString.filter(\.isLetter))"
        let error = #expect(throws: SecretSourceError.self) { try SecretSource.environment(name).read() }
        #expect(error == .environmentVariableNotSet(name))
        #expect(error?.description == "environment variable \(name) is not set")
    }

    @Test func readsTheWholeEnvironmentValue() throws {
        let path = try #require(ProcessInfo.processInfo.environment["PATH"])
        #expect(Self.string(try SecretSource(parsing: "env:PATH").read()) == path)
    }

    @Test(arguments: [
        ("s3cret\nsecond line\n", "s3cret"),
        ("s3cret\n", "s3cret"),
        ("s3cret", "s3cret"),
        (" spaces kept \t\n", " spaces kept \t"),
        ("\nafter an empty line", ""),
        ("", ""),
    ])
    func fileGivesTheFirstLineWithoutItsNewline(_ contents: String, _ expected: String) throws {
        try withTemporaryFile(containing: Array(contents.utf8)) { path throws in
            let source = try SecretSource(parsing: "file:\(path)")
            #expect(Self.string(try source.read(allowingEmpty: true)) == expected)
            // An empty secret is refused unless the caller allows it, naming the source only.
            if expected.isEmpty {
                #expect(throws: SecretSourceError.empty(source: "file:\(path)")) { try source.read() }
            } else {
                #expect(Self.string(try source.read()) == expected)
            }
        }
    }

    @Test func missingFileNamesTheSource() {
        let path = missingFilePath()
        let error = #expect(throws: SecretSourceError.self) { try SecretSource.file(path).read() }
        guard case .unreadable(let source, let reason)? = error else {
            Issue.record("expected unreadable, got \(String(describing: error))")
            return
        }
        #expect(source == "file:\(path)")
        #expect(!reason.isEmpty)
    }

    @Test(arguments: [(SecretSource.maximumLength, true), (SecretSource.maximumLength + 1, false)])
    func enforcesTheMaximumLength(_ length: Int, _ accepted: Bool) throws {
        try withTemporaryFile(containing: [UInt8](repeating: 0x61, count: length) + [0x0a]) { path throws in
            if accepted {
                #expect(try SecretSource.file(path).read().count == length)
            } else {
                #expect(throws: SecretSourceError.tooLong(source: "file:\(path)", limit: length - 1)) {
                    try SecretSource.file(path).read()
                }
            }
        }
    }

    /// `readAll` keeps every line (a pretty-printed JWK Set, a PEM key); `read` only the first.
    @Test func readAllKeepsEveryLine() throws {
        let text = "{\n  \"keys\": []\n}\n"
        try withTemporaryFile(containing: Array(text.utf8)) { path throws in
            #expect(Self.string(try SecretSource.file(path).readAll()) == text)
            #expect(Self.string(try SecretSource.file(path).read()) == "{")
        }
        _ = try withTemporaryFile(containing: [UInt8](repeating: 0x0a, count: SecretSource.maximumLength + 1)) {
            path throws in
            #expect(throws: SecretSourceError.tooLong(source: "file:\(path)", limit: SecretSource.maximumLength)) {
                try SecretSource.file(path).readAll()
            }
        }
    }

    /// `readAll(limit:)` takes a larger whole secret, NUL bytes and newlines kept, and refuses one byte more.
    @Test func readAllWithALargerLimit() throws {
        let limit = 1 << 20
        let secret = [0, 10, 0] + [UInt8](repeating: 0x0a, count: limit - 4) + [0]
        try withTemporaryFile(containing: secret) { path throws in
            #expect(try SecretSource.file(path).readAll(limit: limit).withUnsafeBytes { Array($0) } == secret)
        }
        _ = try withTemporaryFile(containing: secret + [0]) { path throws in
            #expect(throws: SecretSourceError.tooLong(source: "file:\(path)", limit: limit)) {
                try SecretSource.file(path).readAll(limit: limit)
            }
        }
    }

    /// Only the first line is consumed; the rest stays readable on the descriptor.
    @Test func descriptorReadStopsAfterTheFirstLine() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let written = Array("first\nrest".utf8)
        #expect(write(ends[1], written, written.count) == written.count)
        close(ends[1])

        #expect(Self.string(try SecretSource(parsing: "fd:\(ends[0])").read()) == "first")
        var rest = [UInt8](repeating: 0, count: 16)
        let count = read(ends[0], &rest, rest.count)
        #expect(Array(rest.prefix(max(count, 0))) == Array("rest".utf8))
    }

    @Test(arguments: [
        (SecretEncoding.hex, Array("00ff10:7F".utf8)),
        (.hex, Array("0x00FF107f".utf8)),
        (.base64, Array("AP8Qfw==".utf8)),
        (.base64, Array("AP8Qfw".utf8)),
        (.raw, [0x00, 0xff, 0x10, 0x7f]),
    ])
    func secretEncodingDecodes(_ encoding: SecretEncoding, _ secret: [UInt8]) throws {
        #expect(try encoding.decode(SecureBytes(secret)) == SecureBytes([0x00, 0xff, 0x10, 0x7f]))
    }

    @Test(arguments: [(SecretEncoding.hex, "0g"), (.hex, "abc"), (.base64, "A"), (.base64, "AP8Q!w==")])
    func secretEncodingRejectsBadText(_ encoding: SecretEncoding, _ text: String) {
        #expect(throws: CryptoError.self) { try encoding.decode(SecureBytes(Array(text.utf8))) }
    }
}
