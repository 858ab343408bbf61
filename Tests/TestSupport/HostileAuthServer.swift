import Foundation

/// `Tests/Peers/hostile_auth_server.py` on a 127.0.0.1 port the kernel picks, over HTTPS when given
/// a certificate: it answers every request with a 401 of one `Form` and never lets a client in, for
/// the tests that bound an authentication client's requests. `stop()` (also run on release, and for
/// every server still running when the test process exits) terminates it.
///
/// ```swift
/// let server = try HostileAuthServer.start(.stale, certificate: "chain.pem", key: "leaf-rsa.key", in: directory)
/// defer { server.stop() }
/// // GET server.url("/"), then count server.authorizations
/// ```
public final class HostileAuthServer: @unchecked Sendable {
    /// What the server answers with (the script's FORM argument).
    public enum Form: String, CaseIterable, Sendable {
        /// Digest with a new nonce each time, `stale=true` on every answer to an answer.
        case stale
        /// Digest with a new realm each time.
        case newRealm = "new-realm"
        /// Digest, realms `A` and `B` alternating.
        case twoRealms = "two-realms"
        /// Digest, then Basic, alternating in one realm.
        case downgrade
        /// Digest with `algorithm=SHA-1024`.
        case unknownAlgorithm = "unknown-algorithm"
        /// Digest without a realm.
        case noRealm = "no-realm"
        /// Digest offering only `qop="auth-int"`.
        case authIntOnly = "auth-int"
        /// `Bearer` only.
        case bearer
    }

    public let port: Int
    /// `http` or `https`.
    public let scheme: String
    private let process: Process
    private let directory: URL
    private let lock = NSLock()
    private var stopped = false

    private init(port: Int, scheme: String, process: Process, directory: URL) {
        self.port = port
        self.scheme = scheme
        self.process = process
        self.directory = directory
    }

    /// The URL of `path` on this server.
    public func url(_ path: String) -> String { "\(scheme)://127.0.0.1:\(port)\(path)" }

    /// The `Authorization` value of each request the server received, in order; nil for a request
    /// without one. Each is logged before the request is answered.
    public var authorizations: [String?] {
        let log = (try? String(contentsOf: directory.appendingPathComponent("requests.log"), encoding: .utf8)) ?? ""
        return log.split(separator: "\n").map { line in
            let entry = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return entry?["authorization"] as? String
        }
    }

    /// Starts the server in a new folder under `parent` with `certificate` and `key` (PEM paths) for
    /// HTTPS, none for HTTP; returns once it listens.
    public static func start(
        _ form: Form,
        certificate: String? = nil,
        key: String? = nil,
        in parent: URL = FileManager.default.temporaryDirectory
    ) throws -> HostileAuthServer {
        let directory = parent.appendingPathComponent("hostile-auth-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let errors = directory.appendingPathComponent("stderr.log")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        let command = try InteropPeer.hostileAuthServer.commandLine()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments =
            Array(command.dropFirst()) + [
                form.rawValue, "--log", directory.appendingPathComponent("requests.log").path,
            ]
            + (certificate.map { ["--cert", $0] } ?? []) + (key.map { ["--key", $0] } ?? [])
        let output = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        TestServerProcesses.register(process)
        // "listening on 127.0.0.1:PORT" once it accepts connections; end of file when it exits.
        var line: [UInt8] = []
        while let byte = output.fileHandleForReading.readData(ofLength: 1).first, byte != UInt8(ascii: "\n") {
            line.append(byte)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).split(separator: ":").last ?? "") else {
            process.terminateAndWait()
            TestServerProcesses.unregister(process)
            let stderr = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            throw ProcessRunnerError(description: "hostile_auth_server.py \(form.rawValue) did not listen: \(stderr)")
        }
        return HostileAuthServer(
            port: port,
            scheme: certificate == nil ? "http" : "https",
            process: process,
            directory: directory
        )
    }

    /// Terminates the server and waits for it (its request log stays readable). Idempotent.
    public func stop() {
        lock.withLock {
            guard !stopped else { return }
            stopped = true
            process.terminateAndWait()
            TestServerProcesses.unregister(process)
        }
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }
}
