import Foundation
import TestSupport

/// Runs `openssl` (or another command) in `directory` and returns standard output; a non-zero exit throws.
@discardableResult
func run(_ executable: String, _ arguments: [String], in directory: URL) throws -> Data {
    let result = try ProcessRunner.run(executable, arguments, currentDirectory: directory.path)
        .requiringSuccess(of: "\(executable) \(arguments.joined(separator: " "))")
    return Data(result.stdout)
}

/// Throwaway certificates made once per test run with the `openssl` CLI in a temporary directory:
/// a root CA, an intermediate, an RSA-2048 and an EC P-256 leaf (SAN DNS:localhost, IP:127.0.0.1,
/// IP:::1) issued by the intermediate, and a self-signed Ed25519 certificate with a UTF-8 subject.
final class OpenSSLFixture: Sendable {
    static let shared: OpenSSLFixture = {
        do { return try OpenSSLFixture() } catch { fatalError("test certificates: \(error)") }
    }()

    /// The names of the certificate files (`<name>.pem`, `<name>.der`).
    static let names = ["ca", "intermediate", "leaf-rsa", "leaf-ec", "ed25519"]

    let directory: URL

    private init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("SecTLSTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // The shared fixture lives until the process ends: remove its folder (and keys) then.
        Self.directoryToRemove = directory.path
        atexit { if let path = OpenSSLFixture.directoryToRemove { try? FileManager.default.removeItem(atPath: path) } }
        let d = directory
        try "basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n".write(to: d.appendingPathComponent("ca.ext"), atomically: true, encoding: .utf8)
        try "subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1\nextendedKeyUsage=serverAuth\n".write(to: d.appendingPathComponent("leaf.ext"), atomically: true, encoding: .utf8)
        try run("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "30",
                            "-subj", "/C=DE/O=SecKit Test/CN=SecKit Test CA",
                            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"], in: d)
        try run("openssl", ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "intermediate.key", "-out", "intermediate.csr",
                            "-subj", "/C=DE/O=SecKit Test/CN=SecKit Test Intermediate"], in: d)
        try run("openssl", ["x509", "-req", "-in", "intermediate.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-set_serial", "0x1001",
                            "-days", "30", "-extfile", "ca.ext", "-out", "intermediate.pem"], in: d)
        try run("openssl", ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "leaf-rsa.key", "-out", "leaf-rsa.csr",
                            "-subj", "/C=DE/O=SecKit Test, Inc./CN=localhost"], in: d)
        // 0x00A1B2C3: a serial whose DER needs a leading zero byte.
        try run("openssl", ["x509", "-req", "-in", "leaf-rsa.csr", "-CA", "intermediate.pem", "-CAkey", "intermediate.key",
                            "-set_serial", "0x00A1B2C3", "-days", "10", "-extfile", "leaf.ext", "-out", "leaf-rsa.pem"], in: d)
        try run("openssl", ["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "leaf-ec.key",
                            "-out", "leaf-ec.csr", "-subj", "/C=DE/O=SecKit Test/CN=localhost"], in: d)
        try run("openssl", ["x509", "-req", "-in", "leaf-ec.csr", "-CA", "intermediate.pem", "-CAkey", "intermediate.key",
                            "-set_serial", "7", "-days", "10", "-extfile", "leaf.ext", "-out", "leaf-ec.pem"], in: d)
        try run("openssl", ["req", "-x509", "-utf8", "-newkey", "ed25519", "-nodes", "-keyout", "ed25519.key", "-out", "ed25519.pem",
                            "-days", "30", "-subj", "/O=Ünïcode Org/CN=ed25519.test"], in: d)
        for name in Self.names {
            try run("openssl", ["x509", "-in", "\(name).pem", "-outform", "DER", "-out", "\(name).der"], in: d)
        }
    }

    /// Written once, in `init`, before any reader can run; read by the exit handler.
    nonisolated(unsafe) private static var directoryToRemove: String?

    func url(_ file: String) -> URL { directory.appendingPathComponent(file) }

    func pem(_ name: String) throws -> String { try String(contentsOf: url("\(name).pem"), encoding: .utf8) }

    func der(_ name: String) throws -> Data { try Data(contentsOf: url("\(name).der")) }

    /// `openssl <arguments>` in the fixture directory, standard output as text.
    func openssl(_ arguments: [String]) throws -> String {
        String(decoding: try run("openssl", arguments, in: directory), as: UTF8.self)
    }

    /// A shell pipeline (file names relative to the fixture directory).
    func shell(_ script: String) throws -> String {
        String(decoding: try run("/bin/sh", ["-c", script], in: directory), as: UTF8.self)
    }
}
