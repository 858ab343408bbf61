import Foundation
import SecTLS
import TestSupport
import Testing

/// The async connect, read and write: against a real `openssl s_server`, and against a `Listener`
/// whose connections complete in the kernel and then hear nothing, so that the handshake hangs
/// until the task is cancelled.
@Suite struct TLSClientAsyncTests {
    let fixture = TestPKI.shared

    /// The timeout of operations that hang until cancelled: far beyond any delay of the pool.
    static let hangLimit: Duration = .seconds(900)

    /// Trusting the fixture's CA, with every phase limited to `timeout`.
    func client(timeout: Duration = .seconds(10)) throws -> TLSClient {
        var configuration = TLSClientConfiguration(trustRoots: .caFile(fixture.path("ca.pem")))
        configuration.timeouts = .all(timeout)
        return try TLSClient(configuration: configuration)
    }

    @Test func asyncConnectWriteAndReadCarryData() async throws {
        let server = try fixture.server(["-tls1_3"])
        defer { server.stop() }
        let connection = try await client().connect(host: "127.0.0.1", port: server.port)
        defer { connection.close() }
        #expect(connection.protocolVersion == .tls13)
        try await connection.write(Array("GET / HTTP/1.0\r\n\r\n".utf8))
        let first = try await connection.read(maxLength: 8)
        let page = String(decoding: first + (try await connection.readToEnd()), as: UTF8.self)
        #expect(page.hasPrefix("HTTP/1.0 200 ok"))
        #expect(page.contains(connection.cipher))
    }

    @Test func cancellingAHandshakeThatHangsEndsItPromptly() async throws {
        let listener = try SilentListener()
        let client = try client(timeout: Self.hangLimit)
        let port = listener.port
        let task = Task { try await client.connect(host: "127.0.0.1", port: port) }
        try await Task.sleep(for: .milliseconds(300))
        task.cancel()
        // `cancelled`, not `timedOut`: the cancellation ended it. (No wall-clock bound: the parallel
        // tests' blocking calls can hold the pool's threads, and the resumption, for minutes.)
        await #expect(throws: TLSError.cancelled) { try await task.value }
        #expect(listener.hasPendingConnection())  // the TCP connection was made: the handshake was cut
    }

    @Test func cancellingAReadThatWaitsEndsIt() async throws {
        let server = try fixture.server(["-tls1_3"])
        defer { server.stop() }
        let connection = try await client(timeout: Self.hangLimit).connect(host: "127.0.0.1", port: server.port)
        defer { connection.close() }
        let task = Task { try await connection.read() }  // s_server -www says nothing before a request
        try await Task.sleep(for: .milliseconds(300))
        task.cancel()
        await #expect(throws: TLSError.cancelled) { try await task.value }
    }

    /// More hanging handshakes than the cooperative pool has threads: were they run on the pool,
    /// no other task could run until their timeout (`hangLimit`).
    @Test func hangingConnectsDoNotBlockTheCooperativePool() async throws {
        let listener = try SilentListener()
        let client = try client(timeout: Self.hangLimit)
        let port = listener.port
        let count = ProcessInfo.processInfo.activeProcessorCount + 2
        let tasks = (0..<count).map { _ in
            Task { try await client.connect(host: "127.0.0.1", port: port) }
        }
        try await Task.sleep(for: .milliseconds(500))
        let start = ContinuousClock.now
        let answer = await Task { (1...1000).reduce(0, +) }.value
        #expect(answer == 500_500)
        // Well below the handshakes' timeout, though the parallel tests' blocking calls can hold
        // the pool's threads for minutes.
        #expect(ContinuousClock.now - start < Self.hangLimit / 3)
        for task in tasks { task.cancel() }
        for task in tasks {
            await #expect(throws: TLSError.cancelled) { try await task.value }
        }
    }
}
