import AsyncHTTPClient
import Dispatch
import Foundation
import NIOCore
import SecCrypto
import SecHTTPAuth
import SecKitHTTPClient

// MARK: HTTP authentication

// `http-preset` and `http-digest`: GETs on one kept-alive connection to the Digest (SHA-256) area
// of a lighttpd that tools/bench/run starts (SECKIT_BENCH_DIGEST_URL, user alice, password
// wonderland). Preset: every request carries the same Authorization header, made once (lighttpd
// accepts a nonce count again). Digest: `HTTPAuthenticator` with an in-memory credential, after
// one warm-up request that took the challenge; each request then carries a new Digest header (the
// next nonce count, a fresh client nonce). The challenge round trip is not timed.
//
// The requests are timed as a service makes them: awaited one after another in one task, 16 per
// call of the timing loop. Bridging every request on its own from the synchronous loop (a new task,
// a semaphore) adds two thread wake-ups to each; on two cores their timing, not the request, then
// decides the comparison: one RAND_bytes call of 1 µs before a preset request cost 50 µs there.
let requestsPerCall = 16

/// Runs `body` to completion from the synchronous timing loop.
func blocking<T: Sendable>(_ name: String, _ body: @escaping @Sendable () async throws -> T) -> T {
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var outcome: Result<T, any Error>?
    Task {
        do { outcome = .success(try await body()) } catch { outcome = .failure(error) }
        done.signal()
    }
    done.wait()
    switch outcome! {
    case .success(let value): return value
    case .failure(let error): fail("\(name): \(error)")
    }
}

/// The body of one response, or a failure naming its status.
private func body(_ response: HTTPClientResponse, _ name: String) async throws -> String {
    guard response.status == .ok else { fail("\(name): HTTP \(response.status.code)") }
    return String(buffer: try await response.body.collect(upTo: 1 << 16))
}

func httpDigest(authenticated: Bool) -> Benchmark {
    let name = authenticated ? "http-digest" : "http-preset"
    return Benchmark(
        name: name,
        summary: "GET on a kept-alive connection to lighttpd's Digest SHA-256 area, "
            + (authenticated ? "HTTPAuthenticator (a new Digest header each)" : "a preset Authorization header")
    ) {
        let url = setting("SECKIT_BENCH_DIGEST_URL", for: name)
        let client = HTTPClient(eventLoopGroup: clientGroup)
        let password = SecureBytes(Array("wonderland".utf8))
        if authenticated {
            let provider = InMemoryCredentialProvider()
            let authenticator = HTTPAuthenticator(credentials: provider)
            let get: @Sendable () async throws -> String = {
                try await body(
                    try await authenticator.execute(HTTPClientRequest(url: url), on: client, timeout: .seconds(30)),
                    name
                )
            }
            let result = blocking(name) {
                let components = URLComponents(string: url)!
                let space = ProtectionSpace(
                    scheme: "http",
                    host: components.host!,
                    port: components.port!,
                    realm: "Digest Realm",
                    method: .digest
                )
                await provider.save(
                    HTTPCredential(user: "alice", password: password),
                    for: space,
                    persistence: .forSession
                )
                return try await get()  // takes the challenge
            }
            return sequence(of: get, name: name, result: result.isEmpty ? "empty" : "ok")
        }
        let header = blocking(name) { () async throws -> String in
            let challenge = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
            _ = try await challenge.body.collect(upTo: 1 << 16)
            let challenges = try AuthenticationChallenge.parse(headerValues: challenge.headers["WWW-Authenticate"])
            var session = try DigestSession(challenge: challenges[0])
            let path = URLComponents(string: url)!.percentEncodedPath
            return try session.authorization(method: "GET", uri: path, user: "alice", password: password)
        }
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Authorization", value: header)
        let preset = request
        let get: @Sendable () async throws -> String = {
            try await body(try await client.execute(preset, timeout: .seconds(30)), name)
        }
        return sequence(of: get, name: name, result: blocking(name, get).isEmpty ? "empty" : "ok")
    }
}

/// `count` operations awaited in sequence in one task per call of the timing loop (`requestsPerCall`
/// GETs here); `result` is what the run checks.
func sequence(
    of get: @escaping @Sendable () async throws -> String,
    name: String,
    result: String,
    count: Int = requestsPerCall
) -> Prepared {
    Prepared(
        operation: {
            let bytes = blocking(name) {
                var total = 0
                for _ in 0..<count { total &+= try await get().utf8.count }
                return total
            }
            return UInt8(truncatingIfNeeded: bytes)
        },
        result: result,
        operationsPerCall: count
    )
}
