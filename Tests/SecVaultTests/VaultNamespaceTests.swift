import Foundation
import SecCrypto
import SecKeychain
import SecTLS
import SecVault
import SecVaultHTTPClient
import TestSupport
import Testing

/// Namespaces (OpenBao 2.7 has them: `bao namespace create`) against the real dev server: a store
/// configured with a nested namespace reads and writes there over either transport, `bao kv` with
/// `BAO_NAMESPACE` reads what SecKit wrote and the reverse, `VAULT_NAMESPACE` is read as the CLIs
/// read it, and the root namespace sees none of it.
extension VaultStoreTests {
    /// A new namespace `<prefix>/child`, nested in `<prefix>`, with KV version 2 at `secret/`.
    func makeNestedNamespace() throws -> String {
        try server.baoSucceeding(["namespace", "create", prefix])
        try server.baoSucceeding(["namespace", "create", "-ns=\(prefix)", "child"])
        let namespace = "\(prefix)/child"
        try server.baoSucceeding(["secrets", "enable", "-ns=\(namespace)", "-path=secret", "kv-v2"])
        return namespace
    }

    @Test func aNamespaceIsReadAndWrittenBothWaysWithBao() async throws {
        let namespace = try makeNestedNamespace()
        var configuration = try configuration()
        configuration.namespace = namespace
        try readAndWriteBothWaysWithBao(configuration, namespace)
        let inNamespace = ["BAO_NAMESPACE": namespace]

        // The same namespace over AsyncHTTPClient.
        let transport = try AsyncHTTPClientTransport(tls: configuration.tls)
        let overAHC = VaultStore(configuration: configuration, transport: transport)
        do {
            let secret = try await overAHC.secret(
                for: .genericPassword(service: "svc", account: "from-bao"),
                timeout: VaultAsyncDriverTests.generous
            )
            #expect(secret == SecureBytes(Array("bao wrote it".utf8)))
            try await overAHC.upsert(
                .genericPassword(service: "svc", account: "ahc"),
                string: "by AHC",
                timeout: VaultAsyncDriverTests.generous
            )
        } catch {
            try await transport.shutdown()
            throw error
        }
        try await transport.shutdown()
        let byAHC = try server.bao(
            ["kv", "get", "-mount=secret", "-field=secret", "\(prefix)/generic/svc/ahc"],
            environment: inNamespace
        )
        #expect(byAHC.stdoutText == "by AHC", "\(byAHC.stderr)")
    }

    /// Over libcurl, synchronously: SecKit writes and bao reads in the namespace, and the reverse.
    func readAndWriteBothWaysWithBao(_ configuration: VaultConfiguration, _ namespace: String) throws {
        let store = try VaultStore(configuration: configuration)
        let inNamespace = ["BAO_NAMESPACE": namespace]
        let path = "\(prefix)/generic/svc/acct"

        try store.upsert(.genericPassword(service: "svc", account: "acct"), string: "in the namespace")
        let read = try server.bao(["kv", "get", "-mount=secret", "-field=secret", path], environment: inNamespace)
        #expect(read.status == 0 && read.stdoutText == "in the namespace", "\(read.stderr)")
        // The root namespace's secret/ is another mount: the item is not there.
        #expect(try server.bao(["kv", "get", "-mount=secret", path]).status == 2)
        #expect(throws: KeychainError.notFound) {
            try self.store().secret(for: .genericPassword(service: "svc", account: "acct"))
        }

        let put = try server.bao(
            ["kv", "put", "-mount=secret", "\(prefix)/generic/svc/from-bao", "secret=bao wrote it"],
            environment: inNamespace
        )
        #expect(put.status == 0, "\(put.stderr)")
        #expect(try store.string(for: .genericPassword(service: "svc", account: "from-bao")) == "bao wrote it")
        #expect(try store.search(CredentialQuery(service: "svc")).count == 2)
        // The namespace from the environment, as the bao CLI reads it (VAULT_NAMESPACE when BAO_ has none).
        var fromEnvironment = try VaultConfiguration.fromEnvironment(
            server.environment.merging(["VAULT_NAMESPACE": namespace]) { $1 }
        )
        fromEnvironment.pathPrefix = prefix
        #expect(fromEnvironment.namespace == namespace)
        #expect(
            try VaultStore(configuration: fromEnvironment).string(
                for: .genericPassword(service: "svc", account: "from-bao")
            )
                == "bao wrote it"
        )
    }
}
