import Foundation
import Testing
import TestSupport

/// Running `seccli cred`/`sso` and the tools they must interoperate with, in the private Secret
/// Service of tools/with-secret-service — never the developer's own keyring.
enum Keychain {
    /// True inside tools/with-secret-service (a private D-Bus session with a fresh gnome-keyring).
    static let hasPrivateSecretService = ProcessInfo.processInfo.environment["SECKIT_PRIVATE_SECRET_SERVICE"] == "1"

    static let privateSessionOnly: Comment =
        "needs the private Secret Service of tools/with-secret-service (run tools/test): never touches your own keyring"

    /// The repository's tools/ folder (tools/with-secret-service starts nested private sessions).
    static let toolsDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("tools").path

    /// A name no other test uses, so tests running in parallel never see each other's items.
    static func uniqueName(_ prefix: String) -> String {
        "\(prefix)-\(UUID().uuidString.prefix(8).lowercased())"
    }

    /// Runs `seccli ARGS` with `environment` added and `unsetting` removed from the test's own.
    static func seccli(
        _ arguments: [String], stdin: [UInt8]? = nil, environment: [String: String] = [:], unsetting: Set<String> = [],
        timeout: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ProcessResult {
        let path = try #require(Tools.seccliPath, "seccli executable not found next to the test bundle", sourceLocation: sourceLocation)
        return try ProcessRunner.run(path, arguments, stdin: stdin, environment: environment, unsetting: unsetting, timeout: timeout)
    }

    /// `seccli ARGS`, which must succeed.
    @discardableResult
    static func seccliSucceeding(
        _ arguments: [String], stdin: [UInt8]? = nil, environment: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ProcessResult {
        try seccli(arguments, stdin: stdin, environment: environment, sourceLocation: sourceLocation)
            .requiringSuccess(of: "seccli \(arguments.joined(separator: " "))")
    }

    /// `secret-tool ARGS` (libsecret's own CLI), which must succeed.
    @discardableResult
    static func secretTool(_ arguments: [String], stdin: [UInt8]? = nil) throws -> ProcessResult {
        try ProcessRunner.run("secret-tool", arguments, stdin: stdin).requiringSuccess(of: "secret-tool \(arguments.joined(separator: " "))")
    }

    /// Runs a Python snippet with `keyring` imported; `args` become sys.argv[1...].
    @discardableResult
    static func pythonKeyring(_ script: String, _ args: [String]) throws -> ProcessResult {
        try ProcessRunner.run("python3", ["-c", "import sys, keyring\n" + script] + args)
            .requiringSuccess(of: "python3 keyring script")
    }

    /// Items in the private keyring whose attributes include all of `pairs`, counted by
    /// `secret-tool search --all` (one `[/org/freedesktop/secrets/…]` header per item).
    static func secretToolCount(_ pairs: [String]) throws -> Int {
        let result = try ProcessRunner.run("secret-tool", ["search", "--all"] + pairs)
        // secret-tool exits 1 with no output when nothing matches.
        return result.stdoutLines.filter { $0.hasPrefix("[/") }.count
    }

    /// Environment for the encrypted-file backend: a file in `scratch`, the password in a variable.
    static func fileBackend(_ scratch: Scratch, password: String = "correct horse battery staple") -> [String: String] {
        ["SECCLI_BACKEND": "file", "SECCLI_STORE_FILE": scratch.path("credentials.store"), "SECCLI_STORE_PASSWORD": password]
    }
}

/// The two backends, for tests that run on both.
enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case secretService = "secret-service"
    case file

    var testDescription: String { rawValue }

    /// Runs `body` with the environment that selects this backend (a fresh store file for `file`);
    /// the Secret Service backend is only used inside the private session.
    func withEnvironment<R>(_ body: ([String: String]) throws -> R) throws -> R {
        switch self {
        case .secretService:
            try #require(Keychain.hasPrivateSecretService, Keychain.privateSessionOnly)
            return try body(["SECCLI_BACKEND": "secret-service"])
        case .file:
            return try withScratch { try body(Keychain.fileBackend($0)) }
        }
    }

    /// The backends these tests can use here: the file backend always, the Secret Service inside
    /// tools/with-secret-service only.
    static var available: [Backend] { Keychain.hasPrivateSecretService ? allCases : [.file] }
}
