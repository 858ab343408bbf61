import Foundation
import TestSupport
import Testing

/// `seccli tls doctor` against `openssl s_server`, one misconfiguration at a time. Each finding is
/// held against what `openssl s_client` and `openssl verify` report about the same server and files.
@Suite("seccli tls doctor")
struct TLSDoctorTests {
    static let pki = TestPKI.shared

    /// The run and its `--json` document.
    struct Doctor {
        var result: ProcessResult
        var document: [String: Any]

        var findings: [[String: Any]] { document["findings"] as? [[String: Any]] ?? [] }
        var codes: [String] { findings.compactMap { $0["code"] as? String } }

        func finding(_ code: String) -> [String: Any]? { findings.first { $0["code"] as? String == code } }
        func severity(_ code: String) -> String? { finding(code)?["severity"] as? String }
        func message(_ code: String) -> String { finding(code)?["message"] as? String ?? "" }
        var firstBlocking: String? { findings.first { $0["severity"] as? String == "blocking" }?["code"] as? String }
        var sentSubjects: [String] {
            (document["sentChain"] as? [[String: Any]] ?? []).compactMap { $0["subject"] as? String }
        }
    }

    /// Runs `seccli tls doctor` with `--json`, then again without it: the text names the same codes.
    static func doctor(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> Doctor {
        let directory = Scratch(path: pki.directory)
        let result = try Tools.seccli(
            ["tls", "doctor", "--json"] + arguments,
            in: directory,
            sourceLocation: sourceLocation
        )
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any],
            "not JSON: \(result.stdoutText) \(result.stderr)",
            sourceLocation: sourceLocation
        )
        let doctor = Doctor(result: result, document: document)
        let text = try Tools.seccli(["tls", "doctor"] + arguments, in: directory, sourceLocation: sourceLocation)
        #expect(text.status == result.status, sourceLocation: sourceLocation)
        for code in doctor.codes {
            #expect(
                text.stdoutText.contains(" \(code): "),
                "\(code) not in the text report",
                sourceLocation: sourceLocation
            )
        }
        if result.status != 0 {
            // The report, then one line naming the first blocking finding.
            #expect(text.stderr.split(separator: "\n").count == 1, sourceLocation: sourceLocation)
            #expect(text.stderr.contains(doctor.firstBlocking ?? "?"), "\(text.stderr)", sourceLocation: sourceLocation)
        }
        return doctor
    }

    /// `openssl s_client` against the server (stdin closed, so it ends after the handshake): its output.
    static func sClient(port: Int, _ arguments: [String]) throws -> String {
        let result = try ProcessRunner.run(
            "openssl",
            ["s_client", "-connect", "127.0.0.1:\(port)", "-nameopt", "RFC2253"] + arguments,
            stdin: [],
            currentDirectory: pki.directory
        )
        return result.stdoutText + result.stderr
    }

    /// The `Verify return code: N (text)` line of s_client's output.
    static func verifyReturnCode(_ output: String) -> String? {
        output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.hasPrefix("Verify return code:") }
    }

    /// `openssl verify` of `certificate` against ca.pem (with `untrusted` intermediates).
    static func opensslVerify(
        _ certificate: String,
        untrusted: String? = nil,
        _ options: [String] = []
    ) throws -> String {
        let result = try ProcessRunner.run(
            "openssl",
            ["verify", "-CAfile", "ca.pem"] + (untrusted.map { ["-untrusted", $0] } ?? []) + options + [certificate],
            currentDirectory: pki.directory
        )
        return result.stdoutText + result.stderr
    }

    static func leafPin() throws -> String { try PinFileTests.Reference("leaf-rsa").pin }

    @Test("a healthy server: verified, pinned, every check ok, exit 0, as s_client sees it")
    func healthy() throws {
        let server = try Self.pki.server()
        defer { server.stop() }
        let doctor = try Self.doctor([
            "localhost:\(server.port)", "--ca", "ca.pem", "--pin", "sha256/\(try Self.leafPin())",
        ])
        #expect(doctor.result.status == 0, "\(doctor.result.stderr)")
        for code in ["verify.ok", "host.covered", "eku.server-auth", "pin.matched", "connection.ok", "chain.order"] {
            #expect(doctor.severity(code) == "ok", "\(code): \(doctor.codes)")
        }
        #expect(doctor.firstBlocking == nil)
        #expect(doctor.document["acceptedVersions"] as? [String] == ["TLSv1.3", "TLSv1.2"])
        #expect(doctor.message("pin.matched").contains("depth 0"))
        #expect(doctor.severity("client-auth.not-requested") == "info")
        let sClient = try Self.sClient(port: server.port, ["-CAfile", "ca.pem", "-verify_hostname", "localhost"])
        #expect(Self.verifyReturnCode(sClient) == "Verify return code: 0 (ok)")
    }

    @Test("a missing intermediate: chain.incomplete, exit 4; s_client and openssl verify say error 20")
    func missingIntermediate() throws {
        let server = try Self.pki.server(chain: nil)
        defer { server.stop() }
        let doctor = try Self.doctor(["localhost:\(server.port)", "--ca", "ca.pem"])
        #expect(doctor.result.status == 4)
        #expect(doctor.firstBlocking == "chain.incomplete", "\(doctor.codes)")
        #expect(doctor.sentSubjects.count == 1)
        #expect(doctor.message("chain.incomplete").contains("CN=SecKit Test Intermediate"))
        // s_client, whose callback goes on past the error, ends with 21 for a lone leaf; both say the issuer is missing.
        let sClient = try Self.sClient(port: server.port, ["-CAfile", "ca.pem"])
        #expect(
            [
                "Verify return code: 20 (unable to get local issuer certificate)",
                "Verify return code: 21 (unable to verify the first certificate)",
            ].contains(Self.verifyReturnCode(sClient) ?? ""),
            "\(sClient)"
        )
        #expect(doctor.message("chain.incomplete").contains("unable to get local issuer certificate"))
        #expect(
            try Self.opensslVerify("leaf-rsa.pem").contains(
                "error 20 at 0 depth lookup: unable to get local issuer certificate"
            )
        )
        // With the intermediate at hand, as the server should send it, openssl verify agrees the chain is whole.
        #expect(try Self.opensslVerify("leaf-rsa.pem", untrusted: "intermediate.pem").contains("leaf-rsa.pem: OK"))
    }

    @Test(
        "a chain in the wrong order with its root: chain.order and chain.root-sent warnings, exit 0 as s_client verifies"
    )
    func wrongOrder() throws {
        let server = try Self.pki.server(chain: "reversed-chain.pem")
        defer { server.stop() }
        let doctor = try Self.doctor(["localhost:\(server.port)", "--ca", "ca.pem"])
        #expect(doctor.result.status == 0, "\(doctor.result.stderr)")
        #expect(doctor.severity("chain.order") == "warning", "\(doctor.codes)")
        #expect(doctor.severity("chain.root-sent") == "warning")
        #expect(doctor.message("chain.order").contains("its issuer is certificate 2"))
        let sClient = try Self.sClient(port: server.port, ["-CAfile", "ca.pem", "-showcerts"])
        #expect(Self.verifyReturnCode(sClient) == "Verify return code: 0 (ok)")
        // s_client -showcerts lists the certificates as sent: " 0 s:SUBJECT" lines.
        let shown = sClient.split(separator: "\n").compactMap { line -> String? in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard let range = trimmed.range(of: " s:"), Int(trimmed[..<range.lowerBound]) != nil else { return nil }
            return String(trimmed[range.upperBound...])
        }
        #expect(shown == doctor.sentSubjects, "\(shown) \(doctor.sentSubjects)")
        #expect(doctor.sentSubjects.last?.contains("CN=SecKit Test Intermediate") == true)
    }

    @Test("an expired leaf: certificate.expired with its dates, exit 4; s_client and openssl verify say error 10")
    func expiredLeaf() throws {
        let server = try Self.pki.server(cert: "expired")
        defer { server.stop() }
        let doctor = try Self.doctor(["localhost:\(server.port)", "--ca", "ca.pem"])
        #expect(doctor.result.status == 4)
        #expect(doctor.firstBlocking == "certificate.expired", "\(doctor.codes)")
        #expect(doctor.message("certificate.expired").contains("2020-02-01 00:00:00 UTC"))
        #expect(doctor.message("certificate.expired").contains("2020-01-01 00:00:00 UTC"))
        let sClient = try Self.sClient(port: server.port, ["-CAfile", "ca.pem"])
        #expect(Self.verifyReturnCode(sClient) == "Verify return code: 10 (certificate has expired)")
        #expect(
            try Self.opensslVerify("expired.pem", untrusted: "intermediate.pem").contains(
                "error 10 at 0 depth lookup: certificate has expired"
            )
        )
        #expect(doctor.message("verify.failed").contains("certificate has expired"))
    }

    @Test(
        "a wrong host: host.mismatch naming the SANs, exit 4 (s_client: error 62); an IP address is covered by its IP SAN"
    )
    func wrongHost() throws {
        let server = try Self.pki.server()
        defer { server.stop() }
        let doctor = try Self.doctor(["127.0.0.1:\(server.port)", "--ca", "ca.pem", "--servername", "wrong.example"])
        #expect(doctor.result.status == 4)
        #expect(doctor.firstBlocking == "host.mismatch", "\(doctor.codes)")
        #expect(doctor.message("host.mismatch").contains("DNS:localhost, IP Address:127.0.0.1, IP Address:::1"))
        let sClient = try Self.sClient(port: server.port, ["-CAfile", "ca.pem", "-verify_hostname", "wrong.example"])
        #expect(Self.verifyReturnCode(sClient) == "Verify return code: 62 (hostname mismatch)")

        let byAddress = try Self.doctor(["127.0.0.1:\(server.port)", "--ca", "ca.pem"])
        #expect(byAddress.result.status == 0, "\(byAddress.result.stderr)")
        #expect(byAddress.message("host.covered").contains("covers 127.0.0.1"))
        let sClientIP = try Self.sClient(port: server.port, ["-CAfile", "ca.pem", "-verify_ip", "127.0.0.1"])
        #expect(Self.verifyReturnCode(sClientIP) == "Verify return code: 0 (ok)")
    }

    @Test("a leaf without serverAuth: eku.no-server-auth, exit 4; openssl verify -purpose sslserver says error 26")
    func leafWithoutServerAuth() throws {
        let server = try Self.pki.server(cert: "no-server-eku")
        defer { server.stop() }
        let doctor = try Self.doctor(["localhost:\(server.port)", "--ca", "ca.pem"])
        #expect(doctor.result.status == 4)
        #expect(doctor.firstBlocking == "eku.no-server-auth", "\(doctor.codes)")
        #expect(doctor.message("eku.no-server-auth").contains("clientAuth"))
        // OpenSSL's text for error 26 changed between releases ("unsupported"/"unsuitable certificate purpose"):
        // take it from openssl verify and find the same in s_client's and the doctor's report.
        let verify = try Self.opensslVerify(
            "no-server-eku.pem",
            untrusted: "intermediate.pem",
            ["-purpose", "sslserver"]
        )
        let prefix = "error 26 at 0 depth lookup: "
        let reason = try #require(
            verify.split(separator: "\n").first { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) },
            "\(verify)"
        )
        #expect(reason.hasSuffix("certificate purpose"))
        let sClient = try Self.sClient(port: server.port, ["-CAfile", "ca.pem"])
        #expect(Self.verifyReturnCode(sClient) == "Verify return code: 26 (\(reason))")
        #expect(doctor.message("verify.failed").contains(reason))
    }

    @Test("TLS 1.2 only: the accepted versions and protocol.no-tls13, exit 0; s_client -tls1_3 fails, -tls1_2 connects")
    func tls12Only() throws {
        let server = try Self.pki.server(["-tls1_2"])
        defer { server.stop() }
        let doctor = try Self.doctor(["localhost:\(server.port)", "--ca", "ca.pem"])
        #expect(doctor.result.status == 0, "\(doctor.result.stderr)")
        #expect(doctor.document["acceptedVersions"] as? [String] == ["TLSv1.2"])
        #expect(doctor.severity("protocol.no-tls13") == "warning")
        #expect(doctor.message("connection.ok").contains("TLSv1.2"))
        let tls13 = try Self.sClient(port: server.port, ["-CAfile", "ca.pem", "-tls1_3"])
        #expect(Self.verifyReturnCode(tls13) == nil || tls13.contains("alert protocol version"), "\(tls13)")
        let tls12 = try Self.sClient(port: server.port, ["-CAfile", "ca.pem", "-tls1_2"])
        #expect(tls12.contains("Protocol  : TLSv1.2") || tls12.contains("Protocol: TLSv1.2"), "\(tls12)")
    }

    /// The CA names s_client prints under "Acceptable client certificate CA names" (RFC 2253 with -nameopt).
    static func acceptableCANames(_ output: String) -> [String] {
        let lines = output.split(separator: "\n").map(String.init)
        guard let start = lines.firstIndex(of: "Acceptable client certificate CA names") else { return [] }
        return Array(
            lines[(start + 1)...].prefix { !$0.contains(":") || $0.hasPrefix("CN=") || $0.hasPrefix("C=") }
                .prefix {
                    !$0.hasPrefix("Requested") && !$0.hasPrefix("Client Certificate Types") && !$0.hasPrefix("Shared")
                }
        )
    }

    @Test(
        "a server that requires a client certificate from a named CA (-Verify, -verify_return_error): the CA names under TLS 1.3 and 1.2 as s_client shows them; an identity of another CA (exit 5), of the right CA (exit 0), none (exit 5)"
    )
    func namedClientCA() throws {
        let server = try Self.pki.server(["-Verify", "1", "-verify_return_error", "-CAfile", "ca-chain.pem"])
        defer { server.stop() }
        let address = "localhost:\(server.port)"

        let sClient = try Self.sClient(
            port: server.port,
            ["-CAfile", "ca.pem", "-cert", "client.pem", "-key", "client.key", "-cert_chain", "intermediate.pem"]
        )
        let named = Self.acceptableCANames(sClient)
        #expect(named.contains { $0.contains("CN=SecKit Test Intermediate") }, "\(sClient)")

        let rightCA = try Self.doctor([address, "--ca", "ca.pem", "--cert", "client-chain.pem", "--key", "client.key"])
        #expect(rightCA.result.status == 0, "\(rightCA.result.stderr)")
        let names = try #require(rightCA.document["clientCertificateCANames"] as? [String: [String]])
        #expect(Set(names.keys) == ["TLSv1.3", "TLSv1.2"])
        #expect(names["TLSv1.3"] == named && names["TLSv1.2"] == named, "\(names) vs s_client \(named)")
        #expect(rightCA.severity("identity.ca-accepted") == "ok")
        #expect(rightCA.codes.contains("identity.valid") || rightCA.codes.contains("identity.expires-soon"))
        #expect(rightCA.message("connection.ok").contains("mutual TLS"))

        let otherCA = try Self.doctor([
            address, "--ca", "ca.pem", "--cert", "rogue-client.pem", "--key", "rogue-client.key",
        ])
        #expect(otherCA.result.status == 5)
        #expect(otherCA.severity("identity.ca-not-named") == "warning")
        #expect(otherCA.message("identity.ca-not-named").contains("CN=Rogue Test CA"))
        #expect(otherCA.firstBlocking == "client-auth.rejected", "\(otherCA.codes)")
        // s_server refuses the rogue identity for the same reason: an unknown CA alert (TLS 1.2, where
        // the refusal is part of the handshake s_client reports; under TLS 1.3 it may come after s_client ends).
        let refused = try Self.sClient(
            port: server.port,
            ["-CAfile", "ca.pem", "-cert", "rogue-client.pem", "-key", "rogue-client.key", "-tls1_2"]
        )
        #expect(refused.contains("alert unknown ca"), "\(refused)")

        let none = try Self.doctor([address, "--ca", "ca.pem"])
        #expect(none.result.status == 5)
        #expect(none.firstBlocking == "client-auth.required", "\(none.codes)")
        #expect(none.severity("client-auth.requested") == "info")
    }

    @Test(
        "stored identities: the one from a CA the server names is reported, one from another CA is not, and --identity with it connects"
    )
    func storedIdentities() throws {
        try #require(SecretServiceSupport.hasPrivateSecretService, SecretServiceSupport.privateSessionOnly)
        let server = try Self.pki.server(["-Verify", "1", "-verify_return_error", "-CAfile", "ca-chain.pem"])
        defer { server.stop() }
        let directory = Scratch(path: Self.pki.directory)
        let good = Keychain.uniqueName("doctor-good")
        let rogue = Keychain.uniqueName("doctor-rogue")
        defer {
            for name in [good, rogue] { _ = try? Tools.seccli(["identity", "delete", "--name", name], in: directory) }
        }
        let env = ["SECCLI_BACKEND": "secret-service"]
        try Tools.seccli(
            ["identity", "import", "--name", good, "--cert", "client-chain.pem", "--key", "client.key"],
            environment: env,
            in: directory,
            expecting: .success
        )
        try Tools.seccli(
            ["identity", "import", "--name", rogue, "--cert", "rogue-client.pem", "--key", "rogue-client.key"],
            environment: env,
            in: directory,
            expecting: .success
        )
        let none = try Self.doctor(["localhost:\(server.port)", "--ca", "ca.pem"])
        #expect(none.result.status == 5)
        let matches = none.findings.filter { $0["code"] as? String == "identity.stored-match" }
            .compactMap { $0["message"] as? String }
        #expect(matches.contains { $0.contains("the stored identity \(good) (CN=SecKit Test Client)") }, "\(matches)")
        #expect(!matches.contains { $0.contains(rogue) }, "\(matches)")

        let stored = try Self.doctor(["localhost:\(server.port)", "--ca", "ca.pem", "--identity", good])
        #expect(stored.result.status == 0, "\(stored.result.stderr)")
        #expect(stored.severity("identity.ca-accepted") == "ok")
        #expect(stored.message("identity.ca-accepted").contains("the stored identity \(good)"))
    }

    @Test(
        "the protocol versions are the ones testssl.sh finds offered (TLS 1.2 only, and TLS 1.3 with 1.2)",
        .tags(.slow)
    )
    func versionsAsTestssl() throws {
        let testssl = try ProcessRunner.run("/bin/sh", ["-c", "command -v testssl"])
        try #require(testssl.status == 0, "testssl (Debian's testssl.sh) is missing: tools/install-deps")
        for options in [["-tls1_2"], []] {
            let server = try Self.pki.server(options)
            defer { server.stop() }
            let doctor = try Self.doctor(["localhost:\(server.port)", "--ca", "ca.pem"])
            let accepted = doctor.document["acceptedVersions"] as? [String] ?? []
            try withScratch { scratch in
                let report = scratch.path("testssl.json")
                let run = try ProcessRunner.run(
                    "testssl",
                    [
                        "--protocols", "--quiet", "--color", "0", "--warnings", "off", "--jsonfile-pretty", report,
                        "127.0.0.1:\(server.port)",
                    ],
                    timeout: .seconds(300)
                )
                #expect(run.status == 0, "\(run.stdoutText)")
                let json =
                    try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report)))
                    as? [String: Any]
                let scan = (json?["scanResult"] as? [[String: Any]])?.first
                let findings = (scan?["protocols"] as? [[String: Any]] ?? []).reduce(into: [String: String]()) {
                    $0[$1["id"] as? String ?? ""] = $1["finding"] as? String
                }
                for (id, name) in [
                    ("TLS1", "TLSv1"), ("TLS1_1", "TLSv1.1"), ("TLS1_2", "TLSv1.2"), ("TLS1_3", "TLSv1.3"),
                ] {
                    let offered = findings[id]?.hasPrefix("offered") == true
                    #expect(
                        offered == accepted.contains(name),
                        "\(options) \(id): testssl \(findings[id] ?? "-"), doctor \(accepted)"
                    )
                }
            }
        }
    }

    @Test("no pin matches: pin.mismatch listing the chain's pins, exit 3")
    func pinMismatch() throws {
        let server = try Self.pki.server()
        defer { server.stop() }
        let other = try PinFileTests.Reference("other").pin
        let doctor = try Self.doctor(["localhost:\(server.port)", "--ca", "ca.pem", "--pin", "sha256/\(other)"])
        #expect(doctor.result.status == 3)
        #expect(doctor.firstBlocking == "pin.mismatch", "\(doctor.codes)")
        #expect(doctor.message("pin.mismatch").contains(try Self.leafPin()))
    }

    @Test("nothing listening: connect.failed, exit 6")
    func nothingListening() throws {
        let port = try TLSTestServer.freePort()
        let doctor = try Self.doctor(["127.0.0.1:\(port)", "--ca", "ca.pem"])
        #expect(doctor.result.status == 6)
        #expect(doctor.firstBlocking == "connect.failed")
    }
}
