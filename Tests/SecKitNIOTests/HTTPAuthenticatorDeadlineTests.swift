import AsyncHTTPClient
import NIOCore
import SecCrypto
import SecHTTPAuth
import SecKitHTTPClient
import TestSupport
import Testing

/// One deadline bounds an authenticated call, whatever the server stalls: the response head, or
/// the body of a challenge the authenticator reads before it answers (issue #27).
@Suite struct HTTPAuthenticatorDeadlineTests {
    let fixture = TestPKI.shared

    // Without the deadline the call never returns (the 401's body never ends): the time limit makes
    // that a failure, not a hung run. No wall-clock bound below it: the parallel suite's blocking
    // calls can hold the cooperative pool for a minute.
    @Test(.tags(.slow), .timeLimit(.minutes(5)), arguments: ["head", "challenge"])
    func aStalledExchangeEndsAtTheDeadline(stall: String) async throws {
        let server = try StallingServer.start(stall, fixture)
        defer { server.stop() }
        let client = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: try HTTPClient.Configuration(secKit: try fixture.clientConfiguration())
        )
        let authenticator = HTTPAuthenticator(
            credentials: EveryRealmCredential(
                credential: HTTPCredential(user: "alice", password: SecureBytes(Array("secret".utf8)))
            )
        )
        await #expect(throws: HTTPClientError.deadlineExceeded) {
            _ = try await authenticator.execute(
                HTTPClientRequest(url: "https://127.0.0.1:\(server.port)/"),
                on: client,
                timeout: .milliseconds(500)
            )
        }
        try await client.shutdown()
    }
}
