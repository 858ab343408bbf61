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

    @Test(.tags(.slow), arguments: ["head", "challenge"])
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
        let started = ContinuousClock.now
        await #expect(throws: HTTPClientError.deadlineExceeded) {
            _ = try await authenticator.execute(
                HTTPClientRequest(url: "https://127.0.0.1:\(server.port)/"),
                on: client,
                timeout: .milliseconds(500)
            )
        }
        // A bound against hanging (the 401's body never ends), not a measurement.
        #expect(ContinuousClock.now - started < .seconds(10 * ProcessRunner.timeoutScale))
        try await client.shutdown()
    }
}
