import Foundation
import SecCrypto
import SecKeychain
import Testing
import TestSupport

/// The stores the shared tests run against, and helpers to reach the private Secret Service.
enum Backend: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case secretService
    case encryptedFile

    var testDescription: String { rawValue }

    /// The backends this run can test: the Secret Service only inside tools/with-secret-service,
    /// so that a test run never writes into the user's own keyring.
    static var available: [Backend] { KeychainFixture.hasPrivateSecretService ? allCases : [.encryptedFile] }

    func makeStore() throws -> any CredentialStore {
        switch self {
        case .secretService: SecretServiceStore()
        case .encryptedFile: try KeychainFixture.makeFileStore()
        }
    }
}

enum KeychainFixture {
    /// True inside tools/with-secret-service (a throwaway gnome-keyring on a private bus).
    static let hasPrivateSecretService = ProcessInfo.processInfo.environment["SECKIT_PRIVATE_SECRET_SERVICE"] == "1"
    static let privateSessionReason: Comment =
        "needs the private Secret Service of tools/with-secret-service (SECKIT_PRIVATE_SECRET_SERVICE=1); never touches the user's own keyring"

    /// A service name no other test uses.
    static func uniqueService(_ purpose: String) -> String {
        "seckit-test-\(purpose)-\(getpid())-\(UUID().uuidString.prefix(8).lowercased())"
    }

    static let temporaryDirectory: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("seckit-keychain-tests-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: KeychainFixture.temporaryDirectory) }
        return url
    }()

    /// A path for a new store file.
    static func newStorePath() -> String {
        temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString).seckeychain").path
    }

    static let filePassword = SecureBytes(Array("correct horse battery staple".utf8))

    /// An encrypted-file store in a new file.
    static func makeFileStore(path: String = newStorePath()) throws -> EncryptedFileStore {
        try EncryptedFileStore(path: path, password: filePassword)
    }

    // MARK: - The tools people already use

    /// Runs `secret-tool` on the private Secret Service.
    static func secretTool(_ arguments: [String], stdin: [UInt8]? = nil) throws -> ProcessResult {
        try ProcessRunner.run("secret-tool", arguments, stdin: stdin)
    }

    /// What `secret-tool search --all` prints for the items with these attributes (it writes the
    /// label and secret to standard output, the attributes to standard error).
    static func secretToolSearch(_ attributes: [String]) throws -> String {
        let result = try secretTool(["search", "--all"] + attributes).requiringSuccess(of: "secret-tool search")
        return result.stdoutText + result.stderr
    }

    /// Runs Python with the `keyring` library forced onto its Secret Service backend; `arguments`
    /// are `sys.argv[1:]`.
    static func pythonKeyring(_ code: String, _ arguments: [String]) throws -> ProcessResult {
        try ProcessRunner.run(
            "python3", ["-c", "import sys, keyring\n" + code] + arguments,
            environment: ["PYTHON_KEYRING_BACKEND": "keyring.backends.SecretService.Keyring"]
        ).requiringSuccess(of: "python3 keyring \(code)")
    }

    /// Runs Tests/SecKeychainTests/Helpers/locked_collection.py.
    static func lockedCollection(_ arguments: [String]) throws -> ProcessResult {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Helpers/locked_collection.py").path
        return try ProcessRunner.run("python3", [script] + arguments).requiringSuccess(of: "locked_collection.py \(arguments)")
    }

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
}

extension SecureBytes {
    var bytes: [UInt8] { withUnsafeBytes { [UInt8]($0) } }
}
