import Foundation
import TestSupport

/// Throwaway certificates for the `seccli pin` tests, made once per test run with the `openssl` CLI
/// in a temporary folder (removed at exit): a root CA, an intermediate, and a server certificate
/// issued by the intermediate (SAN `DNS:localhost`, `IP:127.0.0.1`), with `chain.pem` (server,
/// intermediate, CA) and DER copies.
final class PinTestPKI: Sendable {
    static let shared: PinTestPKI = {
        do { return try PinTestPKI() } catch { fatalError("seccli pin test certificates: \(error)") }
    }()

    /// The certificate names, from depth 0 of `chain.pem` up.
    static let chain = ["server", "intermediate", "ca"]

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
    }

    /// Written once, in `init`; read by the exit handler.
    nonisolated(unsafe) private static var directoryToRemove: String?

    func path(_ file: String) -> String { directory + "/" + file }

    /// Runs `openssl` in the folder and returns its standard output; a failure throws.
    @discardableResult
    func openssl(_ arguments: [String]) throws -> String {
        try ProcessRunner.run("openssl", arguments, currentDirectory: directory)
            .requiringSuccess(of: "openssl \(arguments.joined(separator: " "))").stdoutText
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
