import Foundation
import SecCrypto
import TestSupport
import Testing

@testable import SecKeychain

/// An item deleted between the search that found it and the read of its properties (another
/// process's `delete`, or a writer removing a stray copy) is left out of the read, and never fails
/// the items around it: a listing still lists them, a lookup still finds the identity's other copy.
/// The deletion is done between the two calls with `secret-tool clear`, deterministically.
@Suite(.enabled(if: SecretServiceSupport.hasPrivateSecretService, SecretServiceSupport.privateSessionOnly))
struct VanishedItemTests {
    @Test("the items read after one of them was deleted: the others, with their properties and secrets")
    func deletedBetweenSearchAndRead() throws {
        let service = KeychainFixture.uniqueService("vanished")
        let store = SecretServiceStore()
        for account in ["a", "b", "c"] {
            try store.upsert(.genericPassword(service: service, account: account), string: "secret \(account)")
        }
        var remaining = ["a", "b", "c"]
        for (gone, loadingSecrets) in [("b", false), ("a", true)] {
            let session = try SecretServiceSession(deadline: OperationDeadline(.seconds(10)))
            let found = try session.searchPaths([["service": service]]).unlockedItems()
            #expect(found.count == remaining.count)
            try SecretServiceSupport.secretTool(["clear", "service", service, "account", gone])
            remaining.removeAll { $0 == gone }
            let read = try session.read(.all, of: found, loadingSecrets: loadingSecrets)
            #expect(read.compactMap { $0.pairs["account"] }.sorted() == remaining, "loading secrets: \(loadingSecrets)")
            #expect(read.allSatisfy { $0.label != nil && $0.modified != nil })
            if loadingSecrets {
                let secrets = read.map { $0.secret.map { String(decoding: $0.bytes, as: UTF8.self) } }
                #expect(secrets == remaining.map { "secret \($0)" })
            }
        }
    }
}
