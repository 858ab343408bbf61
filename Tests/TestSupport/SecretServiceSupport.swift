import Foundation
import Testing

/// The private Secret Service of tools/with-secret-service (a private D-Bus session with a fresh
/// gnome-keyring-daemon), and the tools people already use on it: `secret-tool` and Python `keyring`.
/// Tests that write to a Secret Service run only there, never against the user's own keyring.
public enum SecretServiceSupport {
    /// True inside tools/with-secret-service, which sets `SECKIT_PRIVATE_SECRET_SERVICE=1`.
    public static let hasPrivateSecretService =
        ProcessInfo.processInfo.environment["SECKIT_PRIVATE_SECRET_SERVICE"] == "1"

    /// Why a Secret Service test is skipped elsewhere.
    public static let privateSessionOnly: Comment =
        "needs the private Secret Service of tools/with-secret-service (run tools/test): never touches your own keyring"

    /// The repository's tools/ folder, where tools/with-secret-service is.
    public static let toolsDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("tools").path

    /// Runs `command` in a nested private session of tools/with-secret-service: a D-Bus session and
    /// a gnome-keyring-daemon of its own, so that locking or stopping that keyring, or watching its
    /// bus, never disturbs the tests running beside it. `environment` is added to the test's own.
    public static func inNestedSession(
        _ command: [String],
        environment: [String: String] = [:],
        timeout: Duration = .seconds(60)
    ) throws -> ProcessResult {
        try ProcessRunner.run(
            "\(toolsDirectory)/with-secret-service",
            command,
            environment: environment,
            timeout: timeout
        )
    }

    /// Set in the child test process of `runInOwnSession`, whose Secret Service nothing else uses.
    static let ownSessionVariable = "SECKIT_OWN_SECRET_SERVICE"

    /// For a test that stops, locks or otherwise disturbs the Secret Service: it runs only in the
    /// child test process `runInOwnSession` starts (a test beside it calls that).
    public static let onlyInOwnSession = ConditionTrait.enabled(
        if: ProcessInfo.processInfo.environment[ownSessionVariable] == "1",
        "disturbs its Secret Service: runs in a session of its own, started by the test beside it"
    )

    /// Runs the test `testID` (`Suite/function`, marked `onlyInOwnSession`) in a child process of
    /// this test bundle inside a nested private session (`inNestedSession`), alone, and requires
    /// that it ran there and passed.
    public static func runInOwnSession(
        _ testID: String,
        timeout: Duration = .seconds(120),
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let bundle = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        let result = try inNestedSession(
            [bundle, "--testing-library", "swift-testing", "--filter", testID],
            environment: [ownSessionVariable: "1"],
            timeout: timeout
        )
        let output = result.stdoutText + result.stderr
        let function = testID.split(separator: "/").last.map(String.init) ?? testID
        try #require(
            result.status == 0 && output.contains("Test \(function)() passed")
                && output.contains("Test run with 1 test "),
            "\(testID) in its own session (exit \(result.status)):\n\(output.suffix(4000))",
            sourceLocation: sourceLocation
        )
    }

    /// `secret-tool ARGS` (libsecret's own CLI), which must succeed.
    @discardableResult
    public static func secretTool(_ arguments: [String], stdin: [UInt8]? = nil) throws -> ProcessResult {
        try ProcessRunner.run("secret-tool", arguments, stdin: stdin).requiringSuccess(
            of: "secret-tool \(arguments.joined(separator: " "))"
        )
    }

    /// The object path and secret of each item of `service`, one `PATH SECRET` line each, as
    /// Python's secretstorage (the library under `keyring`) finds them: the path tells the
    /// collection (`/org/freedesktop/secrets/collection/session/…`), which `secret-tool` does not print.
    public static func itemPaths(service: String) throws -> [String] {
        let script = """
            import sys, secretstorage
            connection = secretstorage.dbus_init()
            for item in secretstorage.search_items(connection, {"service": sys.argv[1]}):
                print(item.item_path, item.get_secret().decode())
            """
        return try ProcessRunner.run("python3", ["-c", script, service])
            .requiringSuccess(of: "python3 secretstorage search").stdoutLines
    }

    /// Runs a Python snippet with `keyring` imported and forced onto its Secret Service backend;
    /// `arguments` become `sys.argv[1...]`. It must succeed.
    @discardableResult
    public static func pythonKeyring(_ script: String, _ arguments: [String]) throws -> ProcessResult {
        try ProcessRunner.run(
            "python3",
            ["-c", "import sys, keyring\n" + script] + arguments,
            environment: ["PYTHON_KEYRING_BACKEND": "keyring.backends.SecretService.Keyring"]
        ).requiringSuccess(of: "python3 keyring script")
    }
}

/// The two credential-store backends, for tests that run on both.
public enum KeychainBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case secretService = "secret-service"
    case file

    public var testDescription: String { rawValue }

    /// The backends this run can test: the file backend always, the Secret Service only inside
    /// tools/with-secret-service.
    public static var available: [KeychainBackend] { SecretServiceSupport.hasPrivateSecretService ? allCases : [.file] }
}
