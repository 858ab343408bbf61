import Foundation
import SecCrypto
import SecTLS
import TestSupport

/// The certificates and keys of the TLS tests, made once with the `openssl` CLI next to
/// `OpenSSLFixture`'s (whose CA, intermediate and RSA leaf — SAN localhost, 127.0.0.1, ::1 — are the
/// server's): the server chain file, an unrelated self-signed certificate (`other`), an expired leaf
/// under the intermediate, a self-signed server, a server under an unknown CA, and client
/// certificates (with clientAuth) in every identity form.
final class TLSFixture: Sendable {
    static let shared: TLSFixture = {
        do { return try TLSFixture(base: OpenSSLFixture.shared) } catch { fatalError("TLS test certificates: \(error)") }
    }()

    static let encryptedKeyPassphrase = "client key pass"
    static let pkcs12Passphrase = "p12 pass ünï"

    let base: OpenSSLFixture
    var directory: URL { base.directory }

    private init(base: OpenSSLFixture) throws {
        self.base = base
        let d = base.directory
        // Passphrases go in the environment, never in argv.
        func openssl(_ arguments: [String], environment: [String: String] = [:]) throws {
            _ = try ProcessRunner.run("openssl", arguments, environment: environment, currentDirectory: d.path)
                .requiringSuccess(of: "openssl \(arguments.joined(separator: " "))")
        }
        func write(_ text: String, _ name: String) throws { try text.write(to: d.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        func concatenate(_ names: [String], into name: String) throws {
            try write(try names.map { try String(contentsOf: d.appendingPathComponent($0), encoding: .utf8) }.joined(), name)
        }
        try write("subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=clientAuth\n", "client.ext")
        try write("subjectAltName=DNS:localhost,IP:127.0.0.1\n", "server.ext")

        // The server: OpenSSLFixture's RSA leaf, sent with the intermediate.
        try concatenate(["leaf-rsa.pem", "intermediate.pem"], into: "server-chain.pem")
        try concatenate(["intermediate.pem", "ca.pem"], into: "ca-chain.pem")

        // An unrelated self-signed certificate and key, and a chain file that appends it.
        try openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "other.key",
                     "-out", "other.pem", "-days", "30", "-subj", "/CN=Unrelated Test Certificate"])
        try concatenate(["intermediate.pem", "other.pem"], into: "appended-chain.pem")

        // A self-signed server for localhost.
        try openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "selfsigned.key",
                     "-out", "selfsigned.pem", "-days", "30", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"])

        // An expired server certificate under the intermediate (January 2020), with `openssl ca`.
        try write("[ca]\ndefault_ca = d\n[d]\ndatabase = index.txt\nnew_certs_dir = .\nserial = serial.txt\ndefault_md = sha256\npolicy = p\n[p]\ncommonName = supplied\n", "ca.cnf")
        try write("", "index.txt")
        try write("2001\n", "serial.txt")
        try openssl(["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "expired.key",
                     "-out", "expired.csr", "-subj", "/CN=localhost"])
        try openssl(["ca", "-batch", "-config", "ca.cnf", "-cert", "intermediate.pem", "-keyfile", "intermediate.key", "-in", "expired.csr",
                     "-out", "expired.pem", "-startdate", "20200101000000Z", "-enddate", "20200201000000Z", "-extfile", "server.ext", "-notext"])
        try concatenate(["expired.pem", "intermediate.pem"], into: "expired-chain.pem")

        // A CA nobody trusts, with a server and a client certificate under it.
        try openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "rogue-ca.key",
                     "-out", "rogue-ca.pem", "-days", "30", "-subj", "/CN=Rogue Test CA",
                     "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
        for (name, ext) in [("rogue-server", "server.ext"), ("rogue-client", "client.ext")] {
            try openssl(["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "\(name).key",
                         "-out", "\(name).csr", "-subj", "/CN=\(name)"])
            try openssl(["x509", "-req", "-in", "\(name).csr", "-CA", "rogue-ca.pem", "-CAkey", "rogue-ca.key", "-set_serial", "3",
                         "-days", "10", "-extfile", ext, "-out", "\(name).pem"])
        }

        // Client certificates under the intermediate: RSA (key as PKCS#8, PKCS#1, encrypted PKCS#8,
        // encrypted PKCS#1, combined with the certificate, PKCS#12 with and with an empty passphrase)
        // and EC (SEC1 key).
        try openssl(["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "client.key", "-out", "client.csr", "-subj", "/CN=SecKit Test Client"])
        try openssl(["x509", "-req", "-in", "client.csr", "-CA", "intermediate.pem", "-CAkey", "intermediate.key", "-set_serial", "0x2002",
                     "-days", "10", "-extfile", "client.ext", "-out", "client.pem"])
        try openssl(["rsa", "-in", "client.key", "-traditional", "-out", "client-pkcs1.key"])
        try openssl(["pkey", "-in", "client.key", "-aes256", "-passout", "env:KEY_PASS", "-out", "client-encrypted.key"], environment: ["KEY_PASS": Self.encryptedKeyPassphrase])
        try openssl(["rsa", "-in", "client.key", "-traditional", "-aes128", "-passout", "env:KEY_PASS", "-out", "client-pkcs1-encrypted.key"],
                    environment: ["KEY_PASS": Self.encryptedKeyPassphrase])
        try concatenate(["client.pem", "intermediate.pem", "client.key"], into: "client-combined.pem")
        try openssl(["pkcs12", "-export", "-in", "client.pem", "-inkey", "client.key", "-certfile", "intermediate.pem",
                     "-passout", "env:P12_PASS", "-out", "client.p12"], environment: ["P12_PASS": Self.pkcs12Passphrase])
        try openssl(["pkcs12", "-export", "-in", "client.pem", "-inkey", "client.key", "-passout", "pass:", "-out", "client-empty.p12"])
        try openssl(["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", "client-ec.key"])
        try openssl(["req", "-new", "-key", "client-ec.key", "-out", "client-ec.csr", "-subj", "/CN=SecKit Test EC Client"])
        try openssl(["x509", "-req", "-in", "client-ec.csr", "-CA", "intermediate.pem", "-CAkey", "intermediate.key", "-set_serial", "0x2003",
                     "-days", "10", "-extfile", "client.ext", "-out", "client-ec.pem"])
    }

    func url(_ file: String) -> URL { base.url(file) }

    func bytes(_ file: String) throws -> Data { try Data(contentsOf: url(file)) }

    func certificate(_ name: String) throws -> Certificate { try Certificate.load(pem: try bytes("\(name).pem"))[0] }

    func pin(_ name: String) throws -> Pin { .publicKey(try certificate(name).publicKeyPin) }

    /// An `openssl s_server -www` for `cert`/`key`, with `options` (`-tls1_3`, `-Verify 1`, …).
    func server(cert: String = "leaf-rsa.pem", key: String = "leaf-rsa.key", chain: String? = "intermediate.pem", _ options: [String] = []) throws -> TLSTestServer {
        try TLSTestServer.start(
            ["-cert", cert, "-key", key] + (chain.map { ["-cert_chain", $0] } ?? []) + ["-www"] + options, in: directory)
    }
}
