import Foundation
import TestSupport
import Testing

/// Text from outside (a certificate's names, a keyring label, a token's header, a file name) cannot
/// forge or break a line of seccli's output, nor reach the terminal as an escape sequence: control
/// characters come out escaped (`\n`, `\u{1b}`…), and the OkHttp `.add(…)` lines stay valid Swift.
@Suite("untrusted text in output: escaped, never a forged line")
struct UntrustedOutputTests {
    /// Bytes that must never appear raw: ESC, NEL (U+0085), LINE SEPARATOR (U+2028), RIGHT-TO-LEFT
    /// OVERRIDE (U+202E).
    static let forbidden: [[UInt8]] = [[0x1B], [0xC2, 0x85], [0xE2, 0x80, 0xA8], [0xE2, 0x80, 0xAE]]

    static func expectNoRawControls(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        for sequence in forbidden {
            #expect(
                !bytes.indices.contains { bytes[$0...].starts(with: sequence) },
                "raw \(sequence) in \(String(decoding: bytes, as: UTF8.self).debugDescription)",
                sourceLocation: sourceLocation
            )
        }
    }

    /// The DNS name openssl writes into the certificate: newlines and quotes that would forge a
    /// second `.add(…)` line in a naive output.
    static let evilDNS = "evil\n.add(\"x\", \"sha256/forged\")\nq"

    @Test(
        "tls doctor: the same certificate served by s_server: every finding one line, nothing raw, on stdout and stderr"
    )
    func doctorReport() throws {
        try withScratch { dir in
            _ = try dir.write(
                "ext.cnf",
                "[req]\ndistinguished_name=dn\n[dn]\n[ext]\nsubjectAltName=DNS:evil\\n.add(\\\"x\\\")\\nq\n"
            )
            try Tools.reference(
                "openssl",
                [
                    "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
                    "key.pem", "-out", "cert.pem", "-days", "2", "-utf8", "-subj",
                    "/CN=evil\u{85}x\u{2028}y\u{1B}[31mred\u{202E}txt", "-config", "ext.cnf", "-extensions", "ext",
                ],
                in: dir
            )
            let server = try TLSTestServer.start(["-cert", "cert.pem", "-key", "key.pem", "-www"], in: dir.url)
            defer { server.stop() }
            // Trusting the certificate itself: the chain verifies, the host name does not (exit 4).
            let result = try Tools.seccli(["tls", "doctor", "127.0.0.1:\(server.port)", "--ca", dir.path("cert.pem")])
            #expect(result.status == 4, "\(result.stderr)")
            Self.expectNoRawControls(result.stdout)
            Self.expectNoRawControls(Array(result.stderr.utf8))
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            let lines = result.stdoutLines
            #expect(lines.first?.hasPrefix("tls doctor: 127.0.0.1 port") == true)
            #expect(lines.last == "verdict: blocked by host.mismatch (exit 4)", "\(lines)")
            let prefixes = ["ok   ", "info ", "warn ", "FAIL "]
            for line in lines.dropFirst().dropLast() {
                #expect(prefixes.contains { line.hasPrefix($0) }, "a line that is no finding: \(line.debugDescription)")
            }
            #expect(lines.contains { $0.contains("DNS:evil\\n.add(") }, "\(lines)")
        }
    }

    @Test("pin --file: a subject with ESC, NEL, U+2028 and U+202E and a DNS name with newlines and quotes")
    func certificateNames() throws {
        try withScratch { dir in
            // openssl's config parser turns \n and \" into a newline and a quote (the SAN is an IA5String).
            _ = try dir.write(
                "ext.cnf",
                "[req]\ndistinguished_name=dn\n[dn]\n[ext]\nsubjectAltName=DNS:evil\\n.add(\\\"x\\\", \\\"sha256/forged\\\")\\nq\n"
            )
            let subject = "/CN=evil\u{85}x\u{2028}y\u{1B}[31mred\u{202E}txt"
            try Tools.reference(
                "openssl",
                [
                    "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
                    "key.pem", "-out", "cert.pem", "-days", "2", "-utf8", "-subj", subject, "-config", "ext.cnf",
                    "-extensions", "ext",
                ],
                in: dir
            )
            let san = try Tools.reference(
                "openssl",
                ["x509", "-in", "cert.pem", "-noout", "-ext", "subjectAltName"],
                in: dir
            )
            try #require(san.stdoutText.contains("DNS:evil\n.add("), "openssl wrote another name: \(san.stdoutText)")

            let result = try Tools.seccli(["pin", "--file", dir.path("cert.pem")])
            #expect(result.status == 0, "\(result.stderr)")
            Self.expectNoRawControls(result.stdout)
            let lines = result.stdoutLines
            #expect(lines.count == 12, "\(lines)")
            #expect(lines.contains("subject=CN=evil\\u{85}x\\u{2028}y\\1B[31mred\\u{202e}txt"), "\(lines)")
            let adds = lines.filter { $0.hasPrefix(".add(") }
            try #require(adds.count == 1, "\(lines)")
            // The host is a valid string literal that reads back as the certificate's DNS name.
            let host = try #require(adds[0].dropFirst(".add(".count).split(separator: ", \"sha256/").first)
            let decoded = try ProcessRunner.run(
                "python3",
                ["-c", "import ast, sys; sys.stdout.write(ast.literal_eval(sys.argv[1]))", String(host)]
            ).requiringSuccess(of: "python3 literal_eval")
            #expect(decoded.stdoutText == Self.evilDNS)
        }
    }

    @Test("cred list: a label and an account with a newline and ESC stay on their item's one line")
    func keyringLabel() throws {
        try withScratch { scratch in
            let env = Keychain.fileBackend(scratch)
            let label = "evil\nservice fake, account root: label \"x\"\u{1B}[2J\u{2028}"
            let account = "bob\r\u{1B}]0;title\u{7}"
            try Tools.seccli(
                ["cred", "set", "--service", "svc", "--account", account, "--label", label],
                stdin: Array("s3cret".utf8),
                environment: env,
                expecting: .success
            )
            let text = try Tools.seccli(["cred", "list"], environment: env, expecting: .success)
            Self.expectNoRawControls(text.stdout)
            #expect(
                text.stdoutText
                    == "service svc, account bob\\r\\u{1b}]0;title\\u{7}: label "
                    + "\"evil\\nservice fake, account root: label \\\"x\\\"\\u{1b}[2J\\u{2028}\"\n"
            )
            // JSON escapes them as RFC 8259 asks, and reads back exactly.
            let json = try Tools.seccli(["cred", "list", "--json"], environment: env, expecting: .success)
            Self.expectNoRawControls(json.stdout)
            let entries = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout)) as? [[String: Any]])
            #expect(entries.first?["label"] as? String == label)
            #expect(entries.first?["account"] as? String == account)
        }
    }

    @Test("error messages: a file name and a JWE kid with a newline and ESC stay one line on stderr")
    func errorMessages() throws {
        let missing = try Tools.seccli(["hash", "no\nsuch\u{1B}[31m"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "seccli: no\\nsuch\\u{1b}[31m: No such file or directory\n")
        Self.expectNoRawControls(Array(missing.stderr.utf8))

        try withScratch { dir in
            let header = #"{"alg":"dir","enc":"A256GCM","kid":"k\nseccli: forged\u001b[2J"}"#
            let token =
                base64URLEncode(Array(header.utf8), padded: false) + "..AAAAAAAAAAAAAAAA.AAAA.AAAAAAAAAAAAAAAAAAAAAA\n"
            _ = try dir.write("token.jwe", token)
            let key = { (kid: String) in
                #"{"kty":"oct","kid":"\#(kid)","k":"\#(base64URLEncode(randomBytes(32), padded: false))"}"#
            }
            let result = try Tools.seccli(
                ["decrypt", "--format", "jwe", "--key", "env:K1", "--key", "env:K2", "--in", dir.path("token.jwe")],
                environment: ["K1": key("a"), "K2": key("b")]
            )
            expectOneLineError(result, status: 1)
            #expect(result.stderr.contains("k\\nseccli: forged\\u{1b}[2J"), "\(result.stderr)")
            Self.expectNoRawControls(Array(result.stderr.utf8))
        }
    }
}
