import AsyncHTTPClient
import Foundation
import SecCrypto
import SecHTTPAuth
import SecKitHTTPClient
import Synchronization
import TestSupport
import Testing

/// A credential for every space of every origin, as `seckit-fetch --user` gives one for any realm.
struct EveryRealmCredential: HTTPCredentialProvider {
    let credential: HTTPCredential

    func credential(for _: ProtectionSpace) -> HTTPCredential? { credential }
    func save(_: HTTPCredential, for _: ProtectionSpace, persistence _: CredentialPersistence) {}
    func remove(space _: ProtectionSpace) -> Int { 0 }
    func removeAll(host _: String) -> Int { 0 }
}

/// Another credential at every look-up, as a provider that asks a user would find.
final class NewCredentialEachTime: HTTPCredentialProvider, Sendable {
    private let count = Mutex(0)

    func credential(for _: ProtectionSpace) -> HTTPCredential? {
        let number = count.withLock {
            $0 += 1
            return $0
        }
        return HTTPCredential(user: "user\(number)", password: SecureBytes(Array("password \(number)".utf8)))
    }
    func save(_: HTTPCredential, for _: ProtectionSpace, persistence _: CredentialPersistence) {}
    func remove(space _: ProtectionSpace) -> Int { 0 }
    func removeAll(host _: String) -> Int { 0 }
}

/// The four loops of issue #27 against a real hostile server (`Tests/Peers/hostile_auth_server.py`
/// over HTTPS), through `HTTPAuthenticator` and `seckit-fetch`: the server counts the requests.
extension HTTPAuthenticationTests {
    static let loops: [HostileAuthServer.Form] = [.stale, .newRealm, .twoRealms, .downgrade]
    /// The most requests one call may send: the first, and one per answered challenge.
    static let requestBound = 1 + AuthenticationExchange.Policy.defaultMaximumRoundTrips

    func startHostile(_ form: HostileAuthServer.Form) throws -> HostileAuthServer {
        try HostileAuthServer.start(form, certificate: fixture.path("chain.pem"), key: fixture.path("leaf-rsa.key"))
    }

    /// The requests `body` made to `server`, which must be within the bound and send no Basic
    /// answer after a Digest one.
    func requests(
        to server: HostileAuthServer,
        _ body: () async throws -> Void
    ) async rethrows -> [String?] {
        let before = server.authorizations.count
        try await body()
        let made = Array(server.authorizations.dropFirst(before))
        #expect(made.count <= Self.requestBound, "\(made.count) requests")
        if let digest = made.firstIndex(where: { $0?.hasPrefix("Digest ") == true }) {
            #expect(!made[digest...].contains { $0?.hasPrefix("Basic ") == true }, "Basic after Digest: \(made)")
        }
        return made
    }

    @Test(arguments: loops)
    func aHostileServerGetsABoundedNumberOfRequests(_ form: HostileAuthServer.Form) async throws {
        let server = try startHostile(form)
        defer { server.stop() }
        let alice = HTTPAuthenticator(credentials: EveryRealmCredential(credential: credential("alice")))
        // Another credential at each look-up and no limit on refusals: only the round trips end it.
        let patient = HTTPAuthenticator(credentials: NewCredentialEachTime(), maximumFailures: 100)
        try await withClient { (client: HTTPClient) async throws in
            let once = try await requests(to: server) {
                await #expect(throws: HTTPAuthError.self) { try await get(server.url("/"), alice, client: client) }
            }
            // A refused credential is not sent again, in whatever realm the server asks next; only a
            // stale nonce is answered again, up to the bound.
            #expect(once.count == (form == .stale ? Self.requestBound : 2), "\(once)")
            let many = try await requests(to: server) {
                await #expect(throws: HTTPAuthError.self) { try await get(server.url("/"), patient, client: client) }
            }
            // Basic after a refused Digest is a refusal: that loop ends after the Digest answer.
            #expect(many.count == (form == .downgrade ? 2 : Self.requestBound), "\(many)")
        }
    }

    @Test(arguments: loops)
    func seckitFetchAgainstAHostileServerExitsSevenWithinTheBound(_ form: HostileAuthServer.Form) async throws {
        let server = try startHostile(form)
        defer { server.stop() }
        var result: ProcessResult?
        let made = try await requests(to: server) {
            result = try fetch(
                [server.url("/"), "--user", "alice", "--password", "env:HTTP_PASSWORD"],
                environment: ["HTTP_PASSWORD": "wonderland"]
            )
        }
        #expect(result?.status == 7, "\(result?.stderr ?? "")")
        #expect(made.count == (form == .stale ? Self.requestBound : 2), "\(made)")
        #expect(!(result?.stderr.contains("wonderland") ?? true))
    }
}
