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
