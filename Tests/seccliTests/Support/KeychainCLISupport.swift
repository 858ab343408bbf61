import Foundation
import TestSupport
import Testing

/// Running `seccli cred`/`sso` in the private Secret Service of tools/with-secret-service (see
/// TestSupport's `SecretServiceSupport`) or on an encrypted file — never the developer's own keyring.
/// (`Tools.seccli` runs seccli.)
enum Keychain {
    /// A name no other test uses, so tests running in parallel never see each other's items.
    static func uniqueName(_ prefix: String) -> String {
        "\(prefix)-\(UUID().uuidString.prefix(8).lowercased())"
    }

    /// Items in the private keyring whose attributes include all of `pairs`, counted by
    /// `secret-tool search --all` (one `[/org/freedesktop/secrets/…]` header per item).
    static func secretToolCount(_ pairs: [String]) throws -> Int {
        let result = try ProcessRunner.run("secret-tool", ["search", "--all"] + pairs)
        // secret-tool exits 1 with no output when nothing matches.
        return result.stdoutLines.filter { $0.hasPrefix("[/") }.count
    }

    /// Runs `script` (bash, `set -euo pipefail`, a temporary file in `$err`) in a nested private
    /// session of tools/with-secret-service, with `$SECCLI` set: locking or stopping that session's
    /// keyring, or watching its bus, never disturbs the tests running beside it.
    static func inNestedSession(_ script: String) throws -> ProcessResult {
        try SecretServiceSupport.inNestedSession(
            ["bash", "-c", "set -euo pipefail\nerr=$(mktemp)\ntrap 'rm -f \"$err\"' EXIT\n" + script],
            environment: ["SECCLI": try Tools.seccliExecutable(), "SECCLI_BACKEND": "secret-service"]
        )
    }

    /// Environment for the encrypted-file backend: a file in `scratch`, the password in a variable.
    static func fileBackend(_ scratch: Scratch, password: String = "correct horse battery staple") -> [String: String] {
        [
            "SECCLI_BACKEND": "file", "SECCLI_STORE_FILE": scratch.path("credentials.store"),
            "SECCLI_STORE_PASSWORD": password,
        ]
    }
}

extension KeychainBackend {
    /// Runs `body` with the environment that selects this backend (a fresh store file for `file`);
    /// the Secret Service backend is only used inside the private session.
    func withEnvironment<R>(_ body: ([String: String]) throws -> R) throws -> R {
        switch self {
        case .secretService:
            try #require(SecretServiceSupport.hasPrivateSecretService, SecretServiceSupport.privateSessionOnly)
            return try body(["SECCLI_BACKEND": "secret-service"])
        case .file:
            return try withScratch { try body(Keychain.fileBackend($0)) }
        }
    }
}
