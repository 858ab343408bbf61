import Foundation
import TestSupport
import Testing

/// `seccli pin --file`: every line it prints for a certificate equals what `openssl x509` prints for
/// it, the pins equal the RFC 7469 pipeline of the `openssl` CLI, `--expect` in every notation, `--json`,
/// and the exit codes of bad files and arguments.
@Suite("seccli pin --file")
struct PinFileTests {
    static let pki = TestPKI.shared

    /// What `openssl` says about one certificate, in the lines `seccli pin` prints for it.
    struct Reference {
        var subject, issuer, notAfter, sha256, sha1, pin: String

        init(_ name: String) throws {
            let pki = PinFileTests.pki
            let fields = try pki.openssl([
                "x509", "-in", "\(name).pem", "-noout", "-subject", "-issuer", "-enddate",
                "-nameopt", "RFC2253,-esc_msb,utf8",
            ]).split(separator: "\n").map(String.init)
            try #require(fields.count == 3, "\(fields)")
            (subject, issuer, notAfter) = (fields[0], fields[1], fields[2])
            sha256 = try pki.openssl(["x509", "-in", "\(name).pem", "-noout", "-fingerprint", "-sha256"])
                .trimmingCharacters(in: .newlines)
            sha1 = try pki.openssl(["x509", "-in", "\(name).pem", "-noout", "-fingerprint", "-sha1"])
                .trimmingCharacters(in: .newlines)
            let script =
                "openssl x509 -in \(name).pem -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64"
            pin = try ProcessRunner.run("/bin/sh", ["-c", script], currentDirectory: pki.directory)
                .requiringSuccess(of: script).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        /// The block `seccli pin` prints for the certificate at `depth`.
        func block(depth: Int) -> [String] {
            ["depth \(depth)", subject, issuer, notAfter, sha256, sha1, "pin: sha256/\(pin)", ""]
        }
    }

    static func pin(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> ProcessResult {
        try Tools.seccli(["pin"] + arguments, in: Scratch(path: pki.directory), sourceLocation: sourceLocation)
    }

    /// The `pin check:` line of `seccli pin` output.
    static func pinCheck(_ result: ProcessResult) -> String {
        result.stdoutLines.first { $0.hasPrefix("pin check: ") } ?? ""
    }

    @Test("a PEM chain: per certificate the lines of openssl x509, the RFC 7469 pin, then curl and OkHttp lines")
    func pemChain() throws {
        let references = try TestPKI.serverChain.map(Reference.init)
        let result = try Self.pin(["--file", "chain.pem"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.status): \(result.stderr)")
        let expected =
            references.enumerated().flatMap { $1.block(depth: $0) } + [
                "# curl (checks the server's own key, depth 0; add a backup key's pin after a ';')",
                "--pinnedpubkey 'sha256//\(references[0].pin)'",
                "# OkHttp CertificatePinner.Builder() (any certificate of the chain may match)",
            ] + references.map { ".add(\"localhost\", \"sha256/\($0.pin)\")" }
        #expect(result.stdoutLines == expected)
    }

    @Test("a DER file: one certificate; --servername names the OkHttp host")
    func derFile() throws {
        let reference = try Reference("intermediate")
        let result = try Self.pin(["--file", "intermediate.der", "--servername", "api.example.com"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.status): \(result.stderr)")
        #expect(Array(result.stdoutLines.prefix(8)) == reference.block(depth: 0))
        #expect(result.stdoutLines.last == ".add(\"api.example.com\", \"sha256/\(reference.pin)\")")
    }

    /// Every notation `--expect` takes, for the certificate at `depth` of chain.pem.
    static func notations(_ reference: Reference) -> [String] {
        let sha256Hex = String(reference.sha256.split(separator: "=")[1])
        let sha1Hex = String(reference.sha1.split(separator: "=")[1])
        return [
            "sha256/\(reference.pin)", "sha256//\(reference.pin)", "pin-sha256=\"\(reference.pin)\"", reference.pin,
            reference.sha256, reference.sha1, sha256Hex.lowercased(), sha1Hex.replacingOccurrences(of: ":", with: ""),
        ]
    }

    @Test("--expect in each notation matches the certificate it names, at its depth", arguments: [0, 1, 2])
    func expectMatches(depth: Int) throws {
        let reference = try Reference(TestPKI.serverChain[depth])
        for notation in Self.notations(reference) {
            let wrong = "sha256/\(Data(repeating: 7, count: 32).base64EncodedString())"
            let result = try Self.pin(["--file", "chain.pem", "--expect", wrong, "--expect", notation])
            #expect(result.status == 0 && result.stderr.isEmpty, "\(notation): \(result.status) \(result.stderr)")
            let check = Self.pinCheck(result)
            #expect(
                check.hasPrefix("pin check: localhost: pin ")
                    && check.contains(" matched the certificate at depth \(depth) "),
                "\(notation): \(check)"
            )
        }
    }

    @Test("--expect with no matching pin: the report on stdout, one line on stderr, exit 3")
    func expectMismatch() throws {
        let unrelated = "sha256/\(Data(repeating: 1, count: 32).base64EncodedString())"
        let serverOnly = try Reference("leaf-rsa")
        // The server's fingerprint does not match the intermediate, the only certificate of intermediate.der.
        for (file, pin) in [("chain.pem", unrelated), ("intermediate.der", serverOnly.sha256)] {
            let result = try Self.pin(["--file", file, "--expect", pin])
            #expect(result.status == 3, "\(file): \(result.stderr)")
            expectOneLine(result.stderr)
            #expect(result.stderr.contains("pin mismatch"), "\(result.stderr)")
            #expect(Self.pinCheck(result).contains(": no pin matched; chain: [depth 0 sha256/"), "\(result.stdoutText)")
        }
    }

    @Test("--json: certificates with openssl's values, the curl and OkHttp pins, the --expect outcome")
    func json() throws {
        let references = try TestPKI.serverChain.map(Reference.init)
        let result = try Self.pin(["--file", "chain.pem", "--json", "--expect", references[1].sha1])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any],
            "\(result.stdoutText)"
        )
        #expect(Set(object.keys) == ["certificates", "curlPinnedPubkey", "okHttp", "expected"], "\(object.keys)")
        let certificates = try #require(object["certificates"] as? [[String: Any]])
        try #require(certificates.count == 3)
        for (depth, (entry, reference)) in zip(certificates, references).enumerated() {
            #expect(entry["depth"] as? Int == depth)
            #expect("subject=\(entry["subject"] as? String ?? "")" == reference.subject)
            #expect("issuer=\(entry["issuer"] as? String ?? "")" == reference.issuer)
            #expect("sha256 Fingerprint=\(entry["sha256Fingerprint"] as? String ?? "")" == reference.sha256)
            #expect("sha1 Fingerprint=\(entry["sha1Fingerprint"] as? String ?? "")" == reference.sha1)
            #expect(entry["pin"] as? String == "sha256/\(reference.pin)")
            let name = TestPKI.serverChain[depth]
            let serial = try Self.pki.openssl(["x509", "-in", "\(name).pem", "-noout", "-serial"]).trimmingCharacters(
                in: .newlines
            )
            #expect("serial=\(entry["serialNumber"] as? String ?? "")" == serial)
            let notAfter = try #require(
                ISO8601DateFormatter().date(from: entry["notAfter"] as? String ?? ""),
                "\(entry)"
            )
            let checked = try Self.pki.openssl([
                "x509", "-in", "\(name).pem", "-noout", "-checkend",
                "\(Int(notAfter.timeIntervalSinceNow) - 2)",
            ])
            #expect(checked.contains("will not expire"), "notAfter \(notAfter) is not openssl's: \(checked)")
            #expect(entry["notBefore"] is String)
        }
        #expect(object["curlPinnedPubkey"] as? String == "sha256//\(references[0].pin)")
        let okHttp = try #require(object["okHttp"] as? [String: Any])
        #expect(okHttp["host"] as? String == "localhost")
        #expect(okHttp["pins"] as? [String] == references.map { "sha256/\($0.pin)" })
        let expected = try #require(object["expected"] as? [String: Any])
        #expect(expected["matched"] as? Bool == true && expected["depth"] as? Int == 1, "\(expected)")
        #expect(expected["matchedPin"] as? String == references[1].sha1)
    }

    @Test("files that cannot be read or parsed exit 2, bad arguments 64, each with one line naming the cause")
    func errors() throws {
        try withScratch { dir in
            try dir.write("garbage.der", [0x30, 0x82, 0x01, 0x00, 0x01, 0x02])
            try dir.write("empty.pem", "")
            let cases: [([String], Int32, String)] = [
                (["--file", "/nonexistent-seccli/cert.pem"], 2, "No such file or directory"),
                (["--file", "/"], 2, "Is a directory"),
                (["--file", Self.pki.path("leaf-rsa.key")], 2, "no certificate"),
                (["--file", dir.path("garbage.der")], 2, "not a DER X.509 certificate"),
                (["--file", dir.path("empty.pem")], 2, "certificate"),
                (["--file", Self.pki.path("chain.pem"), "--expect", "sha256/tooShort"], 64, "--expect"),
                (["--file", Self.pki.path("chain.pem"), "--expect", "md5 Fingerprint=00:11"], 64, "--expect"),
                ([], 64, "--file"),
            ]
            for (arguments, status, mentions) in cases {
                let result = try Self.pin(arguments)
                expectOneLineError(result, status: status)
                #expect(result.stderr.contains(mentions), "\(arguments): \(result.stderr)")
            }
        }
    }
}
