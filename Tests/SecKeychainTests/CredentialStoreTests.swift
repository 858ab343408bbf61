import Foundation
import SecCrypto
import SecKeychain
import Testing

/// The behaviour every store shares, run against each backend.
@Suite struct CredentialStoreTests {
    @Test(arguments: Backend.available)
    func storeReadUpdateDelete(backend: Backend) throws {
        let store = try backend.makeStore()
        let id = CredentialIdentity.genericPassword(service: KeychainFixture.uniqueService("crud"), account: "alice")
        #expect(throws: KeychainError.notFound) { try store.secret(for: id) }
        try store.upsert(id, string: "first")
        #expect(try store.string(for: id) == "first")
        try store.upsert(id, string: "second", attributes: CredentialAttributes(label: "my label", comment: "a note"))
        let item = try store.item(for: id, includeSecret: true, timeout: .seconds(5))
        #expect(item.identity == id)
        #expect(item.secret?.bytes == KeychainFixture.bytes("second"))
        #expect(item.label == "my label")
        #expect(item.comment == "a note")
        #expect(try store.item(for: id).secret == nil)
        try store.delete(id)
        #expect(throws: KeychainError.notFound) { try store.secret(for: id) }
        #expect(throws: KeychainError.notFound) { try store.delete(id) }
    }
}
