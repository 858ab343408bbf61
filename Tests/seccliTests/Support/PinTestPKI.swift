import Foundation
import TestSupport

/// Throwaway certificates for the `seccli pin` tests, made once per test run with the `openssl` CLI
/// in a temporary folder (removed at exit): a root CA, an intermediate, and a server certificate
/// issued by the intermediate (SAN `DNS:localhost`, `IP:127.0.0.1`), with `chain.pem` (server,
/// intermediate, CA) and DER copies; an expired server certificate under the intermediate; a
/// self-signed server (`selfsigned`); an unrelated certificate appended to a server chain
/// (`appended-chain.pem`); a client certificate under the intermediate with its key plain,
/// encrypted (`client-encrypted.key`) and as PKCS#12 (`client.p12`), sent with the intermediate
/// (`client-chain.pem`); and a self-signed client certificate no server trusts (`stranger`).
final class PinTestPKI: Sendable {
    static let shared: PinTestPKI = {
        do { return try PinTestPKI() } catch { fatalError("seccli pin test certificates: \(error)") }
    }()

    /// The certificate names, from depth 0 of `chain.pem` up.
    static let chain = ["server", "intermediate", "ca"]
    /// The passphrases of `client-encrypted.key` and `client.p12`.
    static let keyPassphrase = "key pass \(UUID().uuidString)"
    static let p12Passphrase = "p12 pass \(UUID().uuidString)"

    let directory: String

    private init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("seccliPinTests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        Self.directoryToRemove = directory
        atexit { if let path = PinTestPKI.directoryToRemove { try? FileManager.default.removeItem(atPath: path) } }
        try write("ca.ext", "basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n")
        try write("server.ext", "subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n")
        try openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "ca.key",
                     "-out", "ca.pem", "-days", "30", "-subj", "/O=SecKit Test/CN=seccli pin test CA",
                     "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
        try issue("intermediate", subject: "/O=SecKit Test/CN=seccli pin test intermediate", by: "ca", extensions: "ca.ext", key: "ec")
        try issue("server", subject: "/O=SecKit Test, Inc./CN=localhost", by: "intermediate", extensions: "server.ext", key: "rsa")
        try write("chain.pem", try Self.chain.map { try String(contentsOfFile: path("\($0).pem"), encoding: .utf8) }.joined())
        for name in Self.chain { try openssl(["x509", "-in", "\(name).pem", "-outform", "DER", "-out", "\(name).der"]) }

        // Expired in February 2020: `openssl x509 -req` cannot back-date, `openssl ca` can.
        try write("ca.cnf", "[ca]\ndefault_ca = d\n[d]\ndatabase = index.txt\nnew_certs_dir = .\nserial = serial.txt\n"
                  + "default_md = sha256\npolicy = p\n[p]\ncommonName = supplied\n")
        try write("index.txt", "")
        try write("serial.txt", "1001\n")
        try openssl(["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "expired.key",
                     "-out", "expired.csr", "-subj", "/CN=localhost"])
        try openssl(["ca", "-batch", "-config", "ca.cnf", "-cert", "intermediate.pem", "-keyfile", "intermediate.key", "-in", "expired.csr",
                     "-out", "expired.pem", "-startdate", "20200101000000Z", "-enddate", "20200201000000Z", "-extfile", "server.ext", "-notext"])

        for (name, subject) in [("selfsigned", "/CN=localhost"), ("stranger", "/CN=stranger"), ("unrelated", "/CN=unrelated")] {
            try openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "\(name).key",
                         "-out", "\(name).pem", "-days", "10", "-subj", subject, "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"])
        }
        try write("appended-chain.pem", try ["intermediate", "unrelated"].map { try String(contentsOfFile: path("\($0).pem"), encoding: .utf8) }.joined())

        try write("client.ext", "extendedKeyUsage=clientAuth\n")
        try issue("client", subject: "/CN=seccli pin test client", by: "intermediate", extensions: "client.ext", key: "ec")
        try write("client-chain.pem", try ["client", "intermediate"].map { try String(contentsOfFile: path("\($0).pem"), encoding: .utf8) }.joined())
        let passphrases = ["KEY_PASS": Self.keyPassphrase, "P12_PASS": Self.p12Passphrase]
        try openssl(["pkey", "-in", "client.key", "-aes256", "-passout", "env:KEY_PASS", "-out", "client-encrypted.key"], environment: passphrases)
        try openssl(["pkcs12", "-export", "-in", "client.pem", "-inkey", "client.key", "-certfile", "intermediate.pem",
                     "-passout", "env:P12_PASS", "-out", "client.p12"], environment: passphrases)
    }

    /// Written once, in `init`; read by the exit handler.
    nonisolated(unsafe) private static var directoryToRemove: String?

    func path(_ file: String) -> String { directory + "/" + file }

    /// Runs `openssl` in the folder and returns its standard output; a failure throws.
    @discardableResult
    func openssl(_ arguments: [String], environment: [String: String] = [:]) throws -> String {
        try ProcessRunner.run("openssl", arguments, environment: environment, currentDirectory: directory)
            .requiringSuccess(of: "openssl \(arguments.joined(separator: " "))").stdoutText
    }

    /// An `openssl s_server -www` on 127.0.0.1 for `cert`/`key` sending `chain`, with `options` (`-tls1_2`, `-Verify 1`, …).
    func server(cert: String = "server", chain: String? = "intermediate.pem", _ options: [String] = []) throws -> TLSTestServer {
        try TLSTestServer.start(["-cert", "\(cert).pem", "-key", "\(cert).key"] + (chain.map { ["-cert_chain", $0] } ?? []) + ["-www"] + options,
                                in: URL(fileURLWithPath: directory))
    }

    /// `<name>.key` (RSA-2048 or EC P-256) and `<name>.pem` signed by `issuer`.
    private func issue(_ name: String, subject: String, by issuer: String, extensions: String, key: String, days: Int = 10) throws {
        let keyOptions = key == "rsa" ? ["-newkey", "rsa:2048"] : ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"]
        try openssl(["req"] + keyOptions + ["-nodes", "-keyout", "\(name).key", "-out", "\(name).csr", "-subj", subject])
        try openssl(["x509", "-req", "-in", "\(name).csr", "-CA", "\(issuer).pem", "-CAkey", "\(issuer).key",
                     "-days", "\(days)", "-extfile", extensions, "-out", "\(name).pem"])
    }

    private func write(_ name: String, _ text: String) throws {
        try text.write(toFile: path(name), atomically: true, encoding: .utf8)
    }
}
