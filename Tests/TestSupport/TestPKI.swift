import Foundation

/// The throwaway certificates and keys of every TLS test (SecTLSTests and the `seccli pin` tests),
/// made once per test process with the `openssl` CLI in a temporary folder that is removed at exit.
///
/// - `ca` (root), `intermediate` (issued by `ca`), and two leaves issued by the intermediate:
///   `leaf-rsa` (RSA-2048, the servers' certificate) and `leaf-ec` (EC P-256), both with
///   SAN `DNS:localhost, IP:127.0.0.1, IP:::1`; `ed25519`, self-signed with a UTF-8 subject.
///   Each of ``names`` also as DER (`<name>.der`). `chain.pem` holds ``serverChain`` (leaf-rsa,
///   intermediate, ca), `ca-chain.pem` the intermediate and the CA.
/// - `other`: an unrelated self-signed certificate; `appended-chain.pem` = intermediate + other;
///   `reversed-chain.pem` = ca + intermediate (a chain sent in the wrong order).
/// - `no-server-eku`: a localhost certificate under the intermediate whose extendedKeyUsage is clientAuth only.
/// - `selfsigned`: a self-signed server for localhost; `expired`: a server under the intermediate
///   that expired in February 2020 (made with `openssl ca`, which can back-date).
/// - `rogue-ca`, a CA nobody trusts, with `rogue-server` and `rogue-client` under it.
/// - Client certificates (clientAuth) under the intermediate: `client` (RSA) with its key as
///   PKCS#8 (`client.key`), PKCS#1 (`client-pkcs1.key`), encrypted PKCS#8 (`client-encrypted.key`)
///   and PKCS#1 (`client-pkcs1-encrypted.key`) under ``keyPassphrase``, combined with the certificate
///   and the intermediate (`client-combined.pem`), `client-chain.pem` (client + intermediate),
///   PKCS#12 with the intermediate under ``p12Passphrase`` (`client.p12`) and with an empty
///   passphrase (`client-empty.p12`); `client-ec` (EC P-256, SEC1 key), `client-ec-chain.pem`
///   (client-ec + intermediate).
///
/// Every certificate `<name>` has its key in `<name>.key`.
public final class TestPKI: Sendable {
    public static let shared: TestPKI = {
        do { return try TestPKI() } catch { fatalError("test certificates: \(error)") }
    }()

    /// The certificates also written as DER.
    public static let names = ["ca", "intermediate", "leaf-rsa", "leaf-ec", "ed25519"]
    /// The certificates of `chain.pem`, from depth 0 up: the chain a server with `leaf-rsa` verifies to.
    public static let serverChain = ["leaf-rsa", "intermediate", "ca"]
    /// The passphrase of `client-encrypted.key` and `client-pkcs1-encrypted.key`.
    public static let keyPassphrase = "client key pass \(UUID().uuidString)"
    /// The passphrase of `client.p12` (not ASCII).
    public static let p12Passphrase = "p12 pass ünï \(UUID().uuidString)"

    /// The folder holding the files.
    public let directory: String

    private init() throws {
        // The shared fixture lives until the process ends, and its folder (with the keys) with it.
        directory = try Scratch.untilExit("pki").path
        try makeAuthorities()
        try makeServers()
        try makeClients()
    }

    public func path(_ file: String) -> String { directory + "/" + file }

    public func url(_ file: String) -> URL { URL(fileURLWithPath: path(file)) }

    public func bytes(_ file: String) throws -> Data { try Data(contentsOf: url(file)) }

    public func pem(_ name: String) throws -> String {
        try String(contentsOfFile: path("\(name).pem"), encoding: .utf8)
    }

    public func der(_ name: String) throws -> Data { try bytes("\(name).der") }

    /// Runs `openssl <arguments>` in the folder and returns its standard output; a failure throws.
    /// Give passphrases in `environment` (`-passout env:VAR`), never in `arguments`.
    @discardableResult
    public func openssl(_ arguments: [String], environment: [String: String] = [:]) throws -> String {
        try ProcessRunner.run("openssl", arguments, environment: environment, currentDirectory: directory)
            .requiringSuccess(of: "openssl \(arguments.joined(separator: " "))").stdoutText
    }

    /// Runs a shell pipeline in the folder (file names relative to it) and returns its standard output.
    public func shell(_ script: String) throws -> ProcessResult {
        try ProcessRunner.run("/bin/sh", ["-c", script], currentDirectory: directory).requiringSuccess(of: script)
    }

    /// An `openssl s_server -www` on `address` (127.0.0.1 or ::1) with `<cert>.pem`/`<cert>.key`,
    /// sending `chain`, with `options` (`-tls1_3`, `-Verify 1`, …), on `port` (a free one by default).
    public func server(
        cert: String = "leaf-rsa",
        chain: String? = "intermediate.pem",
        _ options: [String] = [],
        address: String = "127.0.0.1",
        port: Int? = nil
    ) throws -> TLSTestServer {
        try TLSTestServer.start(
            ["-cert", "\(cert).pem", "-key", "\(cert).key"] + (chain.map { ["-cert_chain", $0] } ?? []) + ["-www"]
                + options,
            in: URL(fileURLWithPath: directory),
            address: address,
            port: port
        )
    }

    // MARK: - Making the files

    private func makeAuthorities() throws {
        try write("ca.ext", "basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n")
        try openssl([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "30",
            "-subj", "/C=DE/O=SecKit Test/CN=SecKit Test CA",
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
        ])
        try issue(
            "intermediate",
            subject: "/C=DE/O=SecKit Test/CN=SecKit Test Intermediate",
            key: .rsa,
            by: "ca",
            serial: "0x1001",
            extensions: "ca.ext",
            days: 30
        )
        try selfSigned(
            "rogue-ca",
            subject: "/CN=Rogue Test CA",
            extensions: ["basicConstraints=critical,CA:TRUE", "keyUsage=critical,keyCertSign,cRLSign"]
        )
        try selfSigned("other", subject: "/CN=Unrelated Test Certificate")
        try openssl([
            "req", "-x509", "-utf8", "-newkey", "ed25519", "-nodes", "-keyout", "ed25519.key", "-out", "ed25519.pem",
            "-days", "30", "-subj", "/O=Ünïcode Org/CN=ed25519.test",
        ])
    }

    private func makeServers() throws {
        try write("leaf.ext", "subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1\nextendedKeyUsage=serverAuth\n")
        try write("server.ext", "subjectAltName=DNS:localhost,IP:127.0.0.1\n")
        // 0x00A1B2C3: a serial whose DER needs a leading zero byte.
        try issue(
            "leaf-rsa",
            subject: "/C=DE/O=SecKit Test, Inc./CN=localhost",
            key: .rsa,
            by: "intermediate",
            serial: "0x00A1B2C3",
            extensions: "leaf.ext"
        )
        try issue(
            "leaf-ec",
            subject: "/C=DE/O=SecKit Test/CN=localhost",
            key: .ec,
            by: "intermediate",
            serial: "7",
            extensions: "leaf.ext"
        )
        // Names its host only in the subject's CN, which no SecKit client accepts as a host name.
        try write("cn-only.ext", "extendedKeyUsage=serverAuth\n")
        try issue(
            "cn-only",
            subject: "/C=DE/O=SecKit Test/CN=localhost",
            key: .ec,
            by: "intermediate",
            serial: "8",
            extensions: "cn-only.ext"
        )
        // For clients only (extendedKeyUsage clientAuth): no TLS client accepts it as a server's.
        try write("no-server-eku.ext", "subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=clientAuth\n")
        try issue(
            "no-server-eku",
            subject: "/C=DE/O=SecKit Test/CN=localhost",
            key: .ec,
            by: "intermediate",
            serial: "9",
            extensions: "no-server-eku.ext"
        )
        for name in Self.names {
            try openssl(["x509", "-in", "\(name).pem", "-outform", "DER", "-out", "\(name).der"])
        }
        try concatenate(Self.serverChain.map { "\($0).pem" }, into: "chain.pem")
        try concatenate(["intermediate.pem", "ca.pem"], into: "ca-chain.pem")
        try concatenate(["intermediate.pem", "other.pem"], into: "appended-chain.pem")
        try concatenate(["ca.pem", "intermediate.pem"], into: "reversed-chain.pem")
        try selfSigned(
            "selfsigned",
            subject: "/CN=localhost",
            extensions: ["subjectAltName=DNS:localhost,IP:127.0.0.1"]
        )
        try issue(
            "rogue-server",
            subject: "/CN=rogue-server",
            key: .ec,
            by: "rogue-ca",
            serial: "3",
            extensions: "server.ext"
        )

        // Expired in February 2020: `openssl x509 -req` cannot back-date, `openssl ca` can.
        try write(
            "ca.cnf",
            "[ca]\ndefault_ca = d\n[d]\ndatabase = index.txt\nnew_certs_dir = .\nserial = serial.txt\n"
                + "default_md = sha256\npolicy = p\n[p]\ncommonName = supplied\n"
        )
        try write("index.txt", "")
        try write("serial.txt", "2001\n")
        try openssl([
            "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "expired.key",
            "-out", "expired.csr", "-subj", "/CN=localhost",
        ])
        try openssl([
            "ca", "-batch", "-config", "ca.cnf", "-cert", "intermediate.pem", "-keyfile", "intermediate.key", "-in",
            "expired.csr",
            "-out", "expired.pem", "-startdate", "20200101000000Z", "-enddate", "20200201000000Z", "-extfile",
            "server.ext", "-notext",
        ])
    }

    private func makeClients() throws {
        try write("client.ext", "subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=clientAuth\n")
        try issue(
            "client",
            subject: "/CN=SecKit Test Client",
            key: .rsa,
            by: "intermediate",
            serial: "0x2002",
            extensions: "client.ext"
        )
        try issue(
            "client-ec",
            subject: "/CN=SecKit Test EC Client",
            key: .ec,
            by: "intermediate",
            serial: "0x2003",
            extensions: "client.ext"
        )
        try issue(
            "rogue-client",
            subject: "/CN=rogue-client",
            key: .ec,
            by: "rogue-ca",
            serial: "3",
            extensions: "client.ext"
        )
        // The EC key as SEC1 ("EC PRIVATE KEY"), the RSA key also as PKCS#1 and encrypted.
        try openssl(["ec", "-in", "client-ec.key", "-out", "client-ec-sec1.key"])
        try FileManager.default.removeItem(atPath: path("client-ec.key"))
        try FileManager.default.moveItem(atPath: path("client-ec-sec1.key"), toPath: path("client-ec.key"))
        try openssl(["rsa", "-in", "client.key", "-traditional", "-out", "client-pkcs1.key"])
        let passphrases = ["KEY_PASS": Self.keyPassphrase, "P12_PASS": Self.p12Passphrase]
        try openssl(
            ["pkey", "-in", "client.key", "-aes256", "-passout", "env:KEY_PASS", "-out", "client-encrypted.key"],
            environment: passphrases
        )
        try openssl(
            [
                "rsa", "-in", "client.key", "-traditional", "-aes128", "-passout", "env:KEY_PASS", "-out",
                "client-pkcs1-encrypted.key",
            ],
            environment: passphrases
        )
        try concatenate(["client.pem", "intermediate.pem"], into: "client-chain.pem")
        try concatenate(["client-ec.pem", "intermediate.pem"], into: "client-ec-chain.pem")
        try concatenate(["client.pem", "intermediate.pem", "client.key"], into: "client-combined.pem")
        try openssl(
            [
                "pkcs12", "-export", "-in", "client.pem", "-inkey", "client.key", "-certfile", "intermediate.pem",
                "-passout", "env:P12_PASS", "-out", "client.p12",
            ],
            environment: passphrases
        )
        try openssl([
            "pkcs12", "-export", "-in", "client.pem", "-inkey", "client.key", "-passout", "pass:", "-out",
            "client-empty.p12",
        ])
    }

    private enum KeyType { case rsa, ec }

    /// `<name>.key` of `key` type and `<name>.pem` signed by `issuer` with the extensions file `extensions`.
    private func issue(
        _ name: String,
        subject: String,
        key: KeyType,
        by issuer: String,
        serial: String,
        extensions: String,
        days: Int = 10
    ) throws {
        let keyOptions =
            key == .rsa ? ["-newkey", "rsa:2048"] : ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"]
        try openssl(
            ["req"] + keyOptions + ["-nodes", "-keyout", "\(name).key", "-out", "\(name).csr", "-subj", subject]
        )
        try openssl([
            "x509", "-req", "-in", "\(name).csr", "-CA", "\(issuer).pem", "-CAkey", "\(issuer).key", "-set_serial",
            serial,
            "-days", "\(days)", "-extfile", extensions, "-out", "\(name).pem",
        ])
    }

    /// A self-signed EC P-256 `<name>.pem` with `<name>.key`.
    private func selfSigned(_ name: String, subject: String, extensions: [String] = []) throws {
        try openssl(
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
                "\(name).key",
                "-out", "\(name).pem", "-days", "30", "-subj", subject,
            ] + extensions.flatMap { ["-addext", $0] }
        )
    }

    private func concatenate(_ files: [String], into name: String) throws {
        try write(name, try files.map { try String(contentsOfFile: path($0), encoding: .utf8) }.joined())
    }

    private func write(_ name: String, _ text: String) throws {
        try text.write(toFile: path(name), atomically: true, encoding: .utf8)
    }
}
