import AsyncHTTPClient
import NIOCore
import SecCrypto
import SecKeychain
import SecKitHTTPClient
import SecTLS
import SecVault
import SecVaultHTTPClient

// MARK: OpenBao: the store against bare AsyncHTTPClient

// `vault-secret` and `vault-ahc-get`: reads of one KV version 2 item from the `bao server -dev
// -dev-tls` that tools/bench/openbao-inprocess starts (SECKIT_BENCH_VAULT_ADDR, _CACERT, _TOKEN,
// _PATH: the item's path under secret/). 16 tasks run at once, each awaiting its reads one after
// another, over connections kept alive (issue 28's target: the store at >= 0.9x the bare client).
// Store: `VaultStore.secret(for:)` (async) over `AsyncHTTPClientTransport`: the token header, the
// core's checks, the JSON answer decoded and the secret taken out. Bare: AsyncHTTPClient GETs of
// the same URL with the token header preset, the body collected and not decoded; the client is
// built as the transport builds its own (`HTTPClient.Configuration(secKit:)`, the singleton event
// loop group), so the difference is the store's own cost.
private let concurrentTasks = 16
private let readsPerTask = 8

func vaultRead(store: Bool) -> Benchmark {
    let name = store ? "vault-secret" : "vault-ahc-get"
    return Benchmark(
        name: name,
        summary: "KV v2 read, \(concurrentTasks) concurrent tasks, kept-alive TLS to bao -dev-tls, "
            + (store
                ? "VaultStore.secret(for:) over AsyncHTTPClientTransport" : "bare AsyncHTTPClient GET, preset token")
    ) {
        let address = setting("SECKIT_BENCH_VAULT_ADDR", for: name)
        let token = setting("SECKIT_BENCH_VAULT_TOKEN", for: name)
        let path = setting("SECKIT_BENCH_VAULT_PATH", for: name)
        var tls = TLSClientConfiguration()
        tls.trustRoots = .caFile(setting("SECKIT_BENCH_VAULT_CACERT", for: name))
        let read: @Sendable () async throws -> Int
        if store {
            let transport = attempt(name) { try AsyncHTTPClientTransport(tls: tls) }
            let parts = path.split(separator: "/").map(String.init)
            // seckit/generic/SERVICE/ACCOUNT, the layout of docs/SecVault.md.
            guard parts.count == 4, parts[1] == "generic" else { fail("\(name): SECKIT_BENCH_VAULT_PATH \(path)") }
            let vault = VaultStore(
                configuration: VaultConfiguration(
                    address: attempt(name) { try VaultAddress(parsing: address) },
                    login: .token(SecureBytes(Array(token.utf8))),
                    tls: tls,
                    pathPrefix: parts[0]
                ),
                transport: transport
            )
            let id = CredentialIdentity.genericPassword(service: parts[2], account: parts[3])
            read = { try await vault.secret(for: id, timeout: .seconds(30)).count }
        } else {
            var configuration = attempt(name) { try HTTPClient.Configuration(secKit: tls) }
            configuration.redirectConfiguration = .disallow
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            var request = HTTPClientRequest(url: "\(address)/v1/secret/data/\(path)")
            request.headers.add(name: "X-Vault-Token", value: token)
            let preset = request
            read = {
                let response = try await client.execute(preset, timeout: .seconds(30))
                guard response.status == .ok else { fail("\(name): HTTP \(response.status.code)") }
                return try await response.body.collect(upTo: 1 << 20).readableBytes
            }
        }
        let first = blocking(name, read)
        return Prepared(
            operation: {
                let bytes = blocking(name) {
                    try await withThrowingTaskGroup(of: Int.self) { group in
                        for _ in 0..<concurrentTasks {
                            group.addTask {
                                var total = 0
                                for _ in 0..<readsPerTask { total &+= try await read() }
                                return total
                            }
                        }
                        return try await group.reduce(0, &+)
                    }
                }
                return UInt8(truncatingIfNeeded: bytes)
            },
            result: first > 0 ? "ok" : "empty",
            operationsPerCall: concurrentTasks * readsPerTask
        )
    }
}
