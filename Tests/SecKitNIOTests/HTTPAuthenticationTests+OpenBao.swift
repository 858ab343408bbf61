import AsyncHTTPClient
import Foundation
import SecCrypto
import SecHTTPAuth
import SecHTTPAuthKeychain
import SecKeychain
import SecKitHTTPClient
import SecTLS
import SecVault
import TestSupport
import Testing

extension HTTPAuthenticationTests {
    /// SecHTTPAuthKeychain's provider on the OpenBao store (a real `bao server -dev -dev-tls`): the
    /// password `seccli cred set --backend openbao` stored answers lighttpd's Digest challenge, and a
    /// credential the provider saves `.permanent` lands on the server, where seccli finds it and
    /// another provider answers a Basic challenge with it.
    @Test func theKeychainProviderOnTheOpenBaoStore() async throws {
        let bao = try OpenBaoDevServer.start()
        defer { bao.stop() }
        let server = try start()
        defer { server.stop() }
        let prefix = "auth-" + UUID().uuidString.prefix(8).lowercased()
        let environment = bao.environment.merging(["SECCLI_BACKEND": "openbao", "SECCLI_OPENBAO_PATH_PREFIX": prefix]) {
            $1
        }
        func seccli(_ arguments: [String], stdin: [UInt8]? = nil) throws -> ProcessResult {
            try Tools.seccli(
                arguments,
                stdin: stdin,
                environment: environment,
                unsetting: OpenBaoDevServer.inheritedVariables.subtracting(environment.keys),
                expecting: .success
            )
        }
        let origin = ["--server", "127.0.0.1", "--protocol", "https", "--port", "\(server.port)"]
        try seccli(
            ["cred", "set"] + origin + ["--account", "alice", "--realm", "Digest Realm"],
            stdin: Array(Self.users["alice"]!.utf8)
        )

        var tls = TLSClientConfiguration()
        tls.trustRoots = .caFile(bao.caFile)
        let store = try VaultStore(
            configuration: VaultConfiguration(
                address: try VaultAddress(parsing: bao.address),
                login: .token(SecureBytes(Array(bao.rootToken.utf8))),
                tls: tls,
                pathPrefix: prefix
            )
        )
        let provider = KeychainCredentialProvider(store: store)
        try await withClient { (client: HTTPClient) async throws in
            let digest = try await get(
                server.url("/digest/index.txt"),
                HTTPAuthenticator(credentials: provider),
                client: client
            )
            #expect(digest == "area /digest/\n")
        }

        try await provider.save(
            credential("bob"),
            for: space(server, realm: "Realm B", .basic),
            persistence: .permanent
        )
        let read = try seccli(
            ["cred", "get"] + origin + ["--account", "bob", "--realm", "Realm B", "--auth-type", "basic"]
        )
        #expect(read.stdoutText == Self.users["bob"]!)
        let another = KeychainCredentialProvider(store: store)
        try await withClient { (client: HTTPClient) async throws in
            let basic = try await get(
                server.url("/bob/index.txt"),
                HTTPAuthenticator(credentials: another),
                client: client
            )
            #expect(basic == "area /bob/\n")
        }
        server.stop()
        #expect(
            server.accessLog.contains { $0.hasPrefix("200 alice") }
                && server.accessLog.contains { $0.hasPrefix("200 bob") },
            "\(server.accessLog)"
        )
    }
}
