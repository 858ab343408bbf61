import Foundation
import SecCurl
import TestSupport
import Testing

/// `HTTPPost` against the Python collector of Tests/Peers (HTTP and HTTPS), a port that refuses and
/// a listener that never answers.
@Suite(.timeLimit(.minutes(2))) struct HTTPPostTests {
    let fixture = TestPKI.shared

    @Test func postsTheBodyAndHeadersOverHTTP() throws {
        let collector = try PinReportCollector.start()
        defer { collector.stop() }
        let body = Array(#"{"hostname":"example.com","bytes":"\u00e9"}"#.utf8)
        let status = try HTTPPost(
            url: collector.url("/reports?x=1"),
            body: body,
            headers: ["Content-Type: application/json"]
        ).send()
        #expect(status == 204)
        let requests = collector.requests
        try #require(requests.count == 1)
        #expect(requests[0].method == "POST" && requests[0].path == "/reports?x=1")
        #expect(requests[0].contentType == "application/json")
        #expect(Array(requests[0].body.utf8) == body)
    }

    @Test func verifiesAnHTTPSServerWithTheGivenCAsOrTheSystemOnes() throws {
        let collector = try PinReportCollector.start(
            certificate: fixture.path("chain.pem"),
            key: fixture.path("leaf-rsa.key")
        )
        defer { collector.stop() }
        let post = HTTPPost(url: collector.url("/r"), body: Array("{}".utf8), caFile: fixture.path("ca.pem"))
        #expect(try post.send() == 204)
        // The system's CAs do not know the test CA: refused before the request is sent.
        var untrusted = post
        untrusted.caFile = nil
        #expect {
            try untrusted.send()
        } throws: { error in
            guard case .connection = error as? CurlError else { return false }
            return true
        }
        #expect(collector.requests.count == 1)
    }

    @Test func aRefusedPortAndASilentServerFailTyped() throws {
        let port = try TLSTestServer.freePort()
        #expect {
            try HTTPPost(url: "http://127.0.0.1:\(port)/r", body: []).send()
        } throws: { error in
            guard case .connection = error as? CurlError else { return false }
            return true
        }
        let listener = try SilentListener()
        #expect(throws: CurlError.timeout) {
            try HTTPPost(url: "http://127.0.0.1:\(listener.port)/r", body: [1], timeout: .milliseconds(300)).send()
        }
        for url in ["ftp://127.0.0.1/r", "file:///etc/passwd", "127.0.0.1/r"] {
            #expect {
                try HTTPPost(url: url, body: []).send()
            } throws: { error in
                guard case .unusable = error as? CurlError else { return false }
                return true
            }
        }
    }
}
