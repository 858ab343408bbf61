import Foundation
import TestSupport
import Testing

/// `seccli pin HOST --expect PIN --report-uri URL` against `openssl s_server` and the Python
/// collector of Tests/Peers: one RFC 7469 report per failure, exit 3 whether or not the collector
/// answers, and the option's usage errors.
@Suite("seccli pin --report-uri")
struct PinReportCLITests {
    static let pki = TestPKI.shared

    static func pin(_ arguments: [String], environment: [String: String] = [:]) throws -> ProcessResult {
        try Tools.seccli(["pin"] + arguments, environment: environment, in: Scratch(path: pki.directory))
    }

    @Test("libcurl is mapped only to post a report (the dynamic loader's LD_DEBUG=libs trace)")
    func libcurlOnlyForAReport() throws {
        let server = try Self.pki.server()
        defer { server.stop() }
        let collector = try PinReportCollector.start()
        defer { collector.stop() }
        let arguments = [
            "127.0.0.1:\(server.port)", "--ca", "ca.pem", "--expect", try Self.pki.pin("other").description,
        ]
        let without = try Self.pin(arguments, environment: ["LD_DEBUG": "libs"])
        #expect(without.status == 3)
        #expect(without.stderr.contains("calling init: "), "no LD_DEBUG trace")
        #expect(!without.stderr.contains("libcurl"))
        let with = try Self.pin(arguments + ["--report-uri", collector.url("/r")], environment: ["LD_DEBUG": "libs"])
        #expect(with.status == 3)
        #expect(with.stderr.contains("libcurl.so"))
        #expect(collector.requests.count == 1)
    }

    @Test("a mismatch exits 3 and posts one report with every field, over HTTPS verified with --report-ca")
    func aMismatchIsReported() throws {
        let server = try Self.pki.server()
        defer { server.stop() }
        let collector = try PinReportCollector.start(
            certificate: Self.pki.path("chain.pem"),
            key: Self.pki.path("leaf-rsa.key")
        )
        defer { collector.stop() }
        let other = try Self.pki.certificate("other").publicKeyPin
        let start = Date()
        let result = try Self.pin([
            "127.0.0.1:\(server.port)", "--ca", "ca.pem", "--expect", other.description,
            "--report-uri", collector.url("/hpkp"), "--report-ca", "ca.pem",
        ])
        #expect(result.status == 3, "\(result.stderr)")
        // The report was posted before seccli exited.
        let requests = collector.requests
        try #require(requests.count == 1)
        let problems = requests[0].problems(
            against: ExpectedPinReport(
                hostname: "127.0.0.1",
                port: server.port,
                served: ["leaf-rsa", "intermediate"],
                validated: TestPKI.serverChain,
                knownPins: [other.rfc7469Form],
                notBefore: start
            ),
            fixture: Self.pki
        )
        #expect(problems.isEmpty, "\(problems)")
        // A matching pin sends nothing.
        let matched = try Self.pin([
            "127.0.0.1:\(server.port)", "--ca", "ca.pem", "--expect", try Self.pki.pin("leaf-rsa").description,
            "--report-uri", collector.url("/hpkp"), "--report-ca", "ca.pem",
        ])
        #expect(matched.status == 0, "\(matched.stderr)")
        #expect(collector.requests.count == 1)
    }

    @Test("a collector that never answers or refuses leaves the exit code 3", arguments: [true, false])
    func aDeadCollectorLeavesTheOutcome(silent: Bool) throws {
        let server = try Self.pki.server()
        defer { server.stop() }
        let listener = try TestSupport.SilentListener()
        let port = silent ? listener.port : try TLSTestServer.freePort()
        let result = try Self.pin([
            "127.0.0.1:\(server.port)", "--ca", "ca.pem", "--expect", try Self.pki.pin("other").description,
            "--report-uri", "http://127.0.0.1:\(port)/r",
        ])
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        if silent { #expect(listener.hasPendingConnection()) }
    }

    @Test("usage errors: no --expect, --file, a URL that is not http(s), --report-ca alone")
    func usageErrors() throws {
        for arguments in [
            ["127.0.0.1:1", "--report-uri", "http://127.0.0.1:1/r"],
            [
                "--file", "leaf-rsa.pem", "--expect", "sha256/\(String(repeating: "A", count: 43))=", "--report-uri",
                "http://127.0.0.1:1/r",
            ],
            ["127.0.0.1:1", "--expect", "sha256/\(String(repeating: "A", count: 43))=", "--report-uri", "ftp://x/r"],
            ["127.0.0.1:1", "--expect", "sha256/\(String(repeating: "A", count: 43))=", "--report-ca", "ca.pem"],
        ] {
            let result = try Self.pin(arguments)
            #expect(result.status == 64, "\(arguments): \(result.status) \(result.stderr)")
        }
    }
}
