import Foundation
import SecCrypto
import SecIO
import SecKeychain
import TestSupport
import Testing

/// Every credential store is a `SecretKeyring`: `keyring:SERVICE/ACCOUNT` sources read its generic
/// passwords, the first line with `read`, everything with `readAll`; a missing item is the
/// store's `notFound`, wrapped with the source's name.
@Suite struct KeyringSecretSourceTests {
    @Test(arguments: KeychainBackend.available)
    func readsTheItemCredGetReads(backend: KeychainBackend) throws {
        let store = try backend.makeStore()
        let service = KeychainFixture.uniqueService("source") + "/with/slashes"
        try store.upsert(.genericPassword(service: service, account: "deploy"), string: "first line\nsecond line")
        let source = try SecretSource(parsing: "keyring:\(service)/deploy")
        #expect(try source.read(keyring: store).bytes == KeychainFixture.bytes("first line"))
        #expect(try source.readAll(keyring: store).bytes == KeychainFixture.bytes("first line\nsecond line"))
        #expect(throws: SecretSourceError.tooLong(source: source.description, limit: 5)) {
            try source.readAll(limit: 5, keyring: store)
        }
        // Other sources are read as without a keyring.
        setenv("SECKIT_KEYRING_SOURCE_TEST", "from the environment", 1)
        #expect(
            try SecretSource.environment("SECKIT_KEYRING_SOURCE_TEST").read(keyring: store).bytes
                == KeychainFixture.bytes("from the environment")
        )
    }

    @Test(arguments: KeychainBackend.available)
    func missingAndEmptyItems(backend: KeychainBackend) throws {
        let store = try backend.makeStore()
        let service = KeychainFixture.uniqueService("source")
        let missing = SecretSource.keyring(service: service, account: "nobody")
        let error = try #require(throws: SecretKeyringError.self) { try missing.read(keyring: store) }
        #expect(error.error as? KeychainError == .notFound)
        #expect(error.source == missing)
        #expect("\(error)" == "cannot read secret from keyring:\(service)/nobody: no matching item in the keychain")

        try store.upsert(.genericPassword(service: service, account: "empty"), secret: [UInt8]())
        let empty = SecretSource.keyring(service: service, account: "empty")
        #expect(throws: SecretSourceError.empty(source: empty.description)) { try empty.read(keyring: store) }
        #expect(try empty.read(allowingEmpty: true, keyring: store).count == 0)
    }
}
