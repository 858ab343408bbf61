import Foundation
import SecCrypto
import SecKeychain
import TestSupport
import Testing

/// `SecretServiceStore(collection: .session)` writes into the Secret Service's session collection;
/// a store of the default collection reads, lists and deletes those items like any other.
@Suite(.enabled(if: SecretServiceSupport.hasPrivateSecretService, SecretServiceSupport.privateSessionOnly))
struct SessionCollectionTests {
    @Test func sessionStoreWritesIntoTheSessionCollection() throws {
        let service = KeychainFixture.uniqueService("session")
        let id = CredentialIdentity.genericPassword(service: service, account: "alice")
        try SecretServiceStore().upsert(id, string: "lasting")
        try SecretServiceStore(collection: .session).upsert(id, string: "for now")
        let paths = try SecretServiceSupport.itemPaths(service: service)
        #expect(paths.count == 1, "\(paths)")
        #expect(paths.first?.hasPrefix("/org/freedesktop/secrets/collection/session/") == true, "\(paths)")

        let store = SecretServiceStore()
        #expect(try store.string(for: id) == "for now")
        #expect(try store.search(CredentialQuery(service: service)).map(\.identity) == [id])
        try store.delete(id)
        #expect(try SecretServiceSupport.itemPaths(service: service).isEmpty)
    }
}
