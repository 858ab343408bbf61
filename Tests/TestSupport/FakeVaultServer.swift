import Foundation

/// `Tests/Peers/fake_vault_server.py` over HTTPS (TestPKI's `chain.pem`) on a 127.0.0.1 port the
/// kernel picks: a fake OpenBao/Vault server that answers every request with one `Form` of
/// redirect, failure or garbage. `stop()` (also run on release) terminates it.
///
/// ```swift
/// let server = try FakeVaultServer.start(.html)
/// defer { server.stop() }
/// // point a VaultStore at server.address, trusting TestPKI's ca.pem; then read server.requests
/// ```
public final class FakeVaultServer: @unchecked Sendable {
    /// What the server answers with (the script's FORM argument).
    public enum Form: String, CaseIterable, Sendable {
        /// 307 to the target URL + the same path.
        case redirect
        /// 307 to itself.
        case redirectLoop = "redirect-loop"
        /// 307 to `http://` on the same port.
        case redirectToHTTP = "redirect-http"
        /// 307 to the target URL on the first request, then a KV answer with the secret "after
        /// retries": a standby that named an active node which then died, and became the active node.
        case failover
        /// 503, 503, 412, then a KV answer with the secret "after retries".
        case flaky
        /// 500 on every request.
        case alwaysServerError = "always-500"
        /// 503 "Vault is sealed".
        case sealed
        /// 501.
        case uninitialized
        /// An HTML page.
        case html
        /// A body that ends before its Content-Length.
        case truncated
        /// 2 MB of header lines.
        case hugeHeaders = "huge-headers"
        /// Never answers.
        case stall
    }

    /// One request as the server logged it.
    public struct Request: Sendable {
        public var method: String
        public var path: String
        public var body: String
        public var hadToken: Bool
    }

    private let server: AnnouncingServer
    private let directory: URL

    private init(server: AnnouncingServer, directory: URL) {
        self.server = server
        self.directory = directory
    }

    /// `https://127.0.0.1:PORT`.
    public var address: String { "https://127.0.0.1:\(server.port)" }

    /// The requests received so far, in order; each is logged before it is answered.
    public var requests: [Request] {
        let log = (try? String(contentsOf: directory.appendingPathComponent("requests.log"), encoding: .utf8)) ?? ""
        return log.split(separator: "\n").compactMap { line in
            guard let entry = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                return nil
            }
            return Request(
                method: entry["method"] as? String ?? "",
                path: entry["path"] as? String ?? "",
                body: entry["body"] as? String ?? "",
                hadToken: entry["token"] as? Bool ?? false
            )
        }
    }

    /// Starts the server; `target` is where `.redirect` sends clients (`https://host:port`).
    public static func start(_ form: Form, target: String? = nil) throws -> FakeVaultServer {
        let directory = try Scratch.untilExit("fake-vault").url
        let errors = directory.appendingPathComponent("stderr.log")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        let pki = TestPKI.shared
        let command = try InteropPeer.fakeVaultServer.commandLine()
        let arguments =
            Array(command.dropFirst()) + [
                form.rawValue, "--log", directory.appendingPathComponent("requests.log").path, "--cert",
                pki.path("chain.pem"), "--key", pki.path("leaf-rsa.key"),
            ] + (target.map { ["--target", $0] } ?? [])
        let server = try AnnouncingServer(command[0], arguments, in: directory, errors: errors)
        return FakeVaultServer(server: server, directory: directory)
    }

    /// Terminates the server and waits for it (its request log stays readable). Idempotent.
    public func stop() { server.stop() }

    deinit { stop() }
}
