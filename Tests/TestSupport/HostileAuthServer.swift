import Foundation

/// `Tests/Peers/hostile_auth_server.py` on a 127.0.0.1 port the kernel picks, over HTTPS when given
/// a certificate: it answers every request with a 401 of one `Form` and never lets a client in, for
/// the tests that bound an authentication client's requests. `stop()` (also run on release, and for
/// every server still running when the test process exits) terminates it.
///
/// ```swift
/// let server = try HostileAuthServer.start(.stale, certificate: "chain.pem", key: "leaf-rsa.key")
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

    /// `http` or `https`.
    public let scheme: String
    private let server: AnnouncingServer
    private let directory: URL

    private init(server: AnnouncingServer, scheme: String, directory: URL) {
        self.server = server
        self.scheme = scheme
        self.directory = directory
    }

    public var port: Int { server.port }

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

    /// Starts the server in a new folder with `certificate` and `key` (PEM paths) for
    /// HTTPS, none for HTTP; returns once it listens.
    public static func start(
        _ form: Form,
        certificate: String? = nil,
        key: String? = nil
    ) throws -> HostileAuthServer {
        let directory = try Scratch.untilExit("hostile-auth").url
        let errors = directory.appendingPathComponent("stderr.log")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        let command = try InteropPeer.hostileAuthServer.commandLine()
        let arguments =
            Array(command.dropFirst()) + [
                form.rawValue, "--log", directory.appendingPathComponent("requests.log").path,
            ]
            + (certificate.map { ["--cert", $0] } ?? []) + (key.map { ["--key", $0] } ?? [])
        let server = try AnnouncingServer(command[0], arguments, in: directory, errors: errors)
        return HostileAuthServer(server: server, scheme: certificate == nil ? "http" : "https", directory: directory)
    }

    /// Terminates the server and waits for it (its request log stays readable). Idempotent.
    public func stop() { server.stop() }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }
}
