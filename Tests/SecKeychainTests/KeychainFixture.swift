import Foundation
import SecCrypto
import SecKeychain
import TestSupport
import Testing

/// The stores the shared tests run against (TestSupport's `KeychainBackend`).
extension KeychainBackend {
    func makeStore() throws -> any CredentialStore {
        switch self {
        case .secretService: SecretServiceStore()
        case .file: try KeychainFixture.makeFileStore()
        }
    }

    /// The lock file that serialises the writers of `store` (one that `makeStore` made).
    func writerLockPath(of store: any CredentialStore) -> String {
        switch self {
        case .secretService: ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"]! + "/seckit-keychain.lock"
        case .file: (store as! EncryptedFileStore).path + ".lock"
        }
    }
}

/// Store files and names for SecKeychain's tests; `SecretServiceSupport` (TestSupport) reaches the
/// private Secret Service.
enum KeychainFixture {
    /// A service name no other test uses.
    static func uniqueService(_ purpose: String) -> String {
        "seckit-test-\(purpose)-\(getpid())-\(UUID().uuidString.prefix(8).lowercased())"
    }

    /// The folder of the store files, removed when the test process exits.
    static let storeFolder: Scratch = {
        do {
            return try Scratch.untilExit("keychain-stores")
        } catch {
            fatalError("no folder for the store files: \(error)")
        }
    }()

    /// A path for a new store file.
    static func newStorePath() -> String {
        storeFolder.uniquePath("store", suffix: ".seckeychain")
    }

    static let filePassword = SecureBytes(Array("correct horse battery staple".utf8))

    /// An encrypted-file store in a new file.
    static func makeFileStore(path: String = newStorePath()) throws -> EncryptedFileStore {
        try EncryptedFileStore(path: path, password: filePassword)
    }

    // MARK: - The tools people already use

    /// What `secret-tool search --all` prints for the items with these attributes (it writes the
    /// label and secret to standard output, the attributes to standard error).
    static func secretToolSearch(_ attributes: [String]) throws -> String {
        let result = try SecretServiceSupport.secretTool(["search", "--all"] + attributes)
        return result.stdoutText + result.stderr
    }

    /// Runs Tests/SecKeychainTests/Helpers/locked_collection.py.
    static func lockedCollection(_ arguments: [String]) throws -> ProcessResult {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "Helpers/locked_collection.py"
        ).path
        return try ProcessRunner.run("python3", [script] + arguments).requiringSuccess(
            of: "locked_collection.py \(arguments)"
        )
    }

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
}

extension SecureBytes {
    var bytes: [UInt8] { withUnsafeBytes { [UInt8]($0) } }
}
