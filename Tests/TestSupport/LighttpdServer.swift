import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A `lighttpd` on a free 127.0.0.1 port whose areas require HTTP authentication (mod_auth with
/// mod_authn_file's `plain` backend), over HTTPS when given a certificate; for tests of HTTP
/// authentication clients. Each area serves `index.txt` holding `area PATH`. `stop()` (also run on
/// release) terminates it. Started with `movableClock`, it runs under libfaketime, and
/// `advanceClock(bySeconds:)` moves its time forward: Digest nonces older than 10 minutes are
/// answered with `stale=true`, with no ten-minute wait.
///
/// ```swift
/// let server = try LighttpdServer.start(
///     areas: [.init(path: "/digest/", realm: "Digest Realm", method: "digest", algorithm: "SHA-256")],
///     users: ["alice": "wonderland"]
/// )
/// defer { server.stop() }
/// // GET http://127.0.0.1:\(server.port)/digest/index.txt
/// ```
public final class LighttpdServer: @unchecked Sendable {
    /// A path prefix that requires authentication.
    public struct Area: Sendable {
        public var path: String
        public var realm: String
        /// `basic` or `digest`.
        public var method: String
        /// For Digest: `MD5`, `SHA-256` (or both, space-separated: lighttpd then offers both).
        public var algorithm: String?
        /// The only user let in; nil: any user of the user file.
        public var user: String?

        public init(path: String, realm: String, method: String, algorithm: String? = nil, user: String? = nil) {
            self.path = path
            self.realm = realm
            self.method = method
            self.algorithm = algorithm
            self.user = user
        }
    }

    public let port: Int
    /// `http` or `https`.
    public let scheme: String
    private let server: ServerProcess
    private let directory: URL
    private let lock = NSLock()
    private var clockOffset = 0

    private init(port: Int, scheme: String, server: ServerProcess, directory: URL) {
        self.port = port
        self.scheme = scheme
        self.server = server
        self.directory = directory
    }

    /// libfaketime reads the offset from this file at every clock call.
    private var clockFile: URL { directory.appendingPathComponent("faketime") }

    /// The URL of `path` on this server.
    public func url(_ path: String) -> String { "\(scheme)://127.0.0.1:\(port)\(path)" }

    /// The access log: one line per request, `STATUS USER "REQUEST LINE"` (USER `-` when none).
    /// lighttpd buffers it: complete once `stop()` returned. (HTTP/2 connection prefaces left out.)
    public var accessLog: [String] {
        ((try? String(contentsOf: directory.appendingPathComponent("access.log"), encoding: .utf8)) ?? "")
            .split(separator: "\n").map(String.init)
            .filter { !$0.contains("\"PRI * HTTP/2.0\"") }  // the HTTP/2 connection preface
    }

    public var errorLog: String {
        (try? String(contentsOf: directory.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
    }

    /// Kept-alive connections stay open for 2 minutes (lighttpd's default is 5 s): a test held up by
    /// the tests running alongside must not find its next request's connection closed under it.
    ///
    /// Starts lighttpd in a new folder (`Scratch.untilExit`) with `areas`, the `users` (name: password) of
    /// its plain user file and, when given, `certificate` and `key` (PEM paths) for HTTPS; waits up
    /// to `timeout` until it accepts connections. A free port is taken, and another when a test
    /// running alongside took it first.
    public static func start(
        areas: [Area],
        users: [String: String],
        certificate: String? = nil,
        key: String? = nil,
        movableClock: Bool = false,
        timeout: Duration = .seconds(15)
    ) throws -> LighttpdServer {
        var lastError: any Error = ProcessRunnerError(description: "lighttpd did not start")
        for _ in 0..<5 {
            do {
                return try startOnce(
                    areas: areas,
                    users: users,
                    certificate: certificate,
                    key: key,
                    movableClock: movableClock,
                    port: try TLSTestServer.freePort(),
                    timeout: timeout
                )
            } catch let error as PortTaken {
                lastError = error
            }
        }
        throw lastError
    }

    private static func startOnce(
        areas: [Area],
        users: [String: String],
        certificate: String?,
        key: String?,
        movableClock: Bool,
        port: Int,
        timeout: Duration
    ) throws -> LighttpdServer {
        let directory = try Scratch.untilExit("lighttpd").url
        let root = directory.appendingPathComponent("www")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for area in areas {
            let folder = root.appendingPathComponent(area.path)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try "area \(area.path)\n".write(
                to: folder.appendingPathComponent("index.txt"),
                atomically: true,
                encoding: .utf8
            )
        }
        try "public\n".write(to: root.appendingPathComponent("index.txt"), atomically: true, encoding: .utf8)
        let userFile = directory.appendingPathComponent("users")
        try users.map { "\($0.key):\($0.value)\n" }.joined().write(to: userFile, atomically: true, encoding: .utf8)

        let requirements = areas.map { area in
            var fields = [
                "\"method\" => \"\(area.method)\"", "\"realm\" => \"\(area.realm)\"",
                "\"require\" => \"\(area.user.map { "user=\($0)" } ?? "valid-user")\"",
            ]
            if let algorithm = area.algorithm { fields.append("\"algorithm\" => \"\(algorithm)\"") }
            return "\"\(area.path)\" => ( \(fields.joined(separator: ", ")) )"
        }
        var configuration = """
            server.modules = ( "mod_auth", "mod_authn_file", "mod_accesslog"\(certificate == nil ? "" : ", \"mod_openssl\"") )
            server.document-root = "\(root.path)"
            server.bind = "127.0.0.1"
            server.port = \(port)
            server.errorlog = "\(directory.appendingPathComponent("error.log").path)"
            accesslog.filename = "\(directory.appendingPathComponent("access.log").path)"
            accesslog.format = "%>s %u \\"%r\\""
            mimetype.assign = ( ".txt" => "text/plain" )
            server.max-keep-alive-idle = 120
            server.max-read-idle = 120
            auth.backend = "plain"
            auth.backend.plain.userfile = "\(userFile.path)"
            auth.require = ( \(requirements.joined(separator: ", ")) )

            """
        if let certificate, let key {
            configuration += """
                ssl.engine = "enable"
                ssl.pemfile = "\(certificate)"
                ssl.privkey = "\(key)"

                """
        }
        let configurationFile = directory.appendingPathComponent("lighttpd.conf")
        try configuration.write(to: configurationFile, atomically: true, encoding: .utf8)

        // Through Python, which clears the signal mask it inherited (the test process blocks SIGTERM
        // in some threads) before it becomes lighttpd: `stop()` then ends lighttpd with SIGTERM, and
        // lighttpd writes out its buffered access log as it exits.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); os.execv(sys.argv[1], sys.argv[1:])",
            try lighttpdPath.get(), "-D", "-f", configurationFile.path,
        ]
        if movableClock {
            let clockFile = directory.appendingPathComponent("faketime")
            try "+0\n".write(to: clockFile, atomically: true, encoding: .utf8)
            var environment = ProcessInfo.processInfo.environment
            environment["LD_PRELOAD"] = try fakeTimeLibrary.get()
            environment["FAKETIME_TIMESTAMP_FILE"] = clockFile.path
            environment["FAKETIME_NO_CACHE"] = "1"
            process.environment = environment
        }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let server = LighttpdServer(
            port: port,
            scheme: certificate == nil ? "http" : "https",
            server: try ServerProcess(running: process),
            directory: directory
        )
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if Self.accepts(port) { return server }
            if !process.isRunning {
                let log = server.errorLog
                server.stop()
                if log.contains("in use") { throw PortTaken(description: "port \(port) taken: \(log)") }
                throw ProcessRunnerError(description: "lighttpd exited \(process.terminationStatus): \(log)")
            }
            usleep(10_000)
        }
        let log = server.errorLog
        server.stop()
        throw ProcessRunnerError(description: "lighttpd did not listen within \(timeout): \(log)")
    }

    /// Moves the clock of a server started with `movableClock` forward by `seconds`, and waits until
    /// lighttpd has seen the jump (it logs it, and closes its idle connections then).
    public func advanceClock(bySeconds seconds: Int, timeout: Duration = .seconds(15)) throws {
        let jumps = errorLog.components(separatedBy: "clock jumped").count
        try lock.withLock {
            clockOffset += seconds
            try "+\(clockOffset)s\n".write(to: clockFile, atomically: true, encoding: .utf8)
        }
        let deadline = ContinuousClock.now + timeout
        while errorLog.components(separatedBy: "clock jumped").count == jumps {
            guard ContinuousClock.now < deadline else {
                throw ProcessRunnerError(description: "lighttpd did not see its clock move: \(errorLog)")
            }
            usleep(50_000)
        }
    }

    /// Terminates the server (`ServerProcess.stop()`) and waits for it (its logs stay readable). Idempotent.
    public func stop() { server.stop() }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    private static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    private static let fakeTimeLibrary = Result { () throws -> String in
        let folders = ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib"]
        for folder in folders where FileManager.default.fileExists(atPath: "\(folder)/faketime/libfaketime.so.1") {
            return "\(folder)/faketime/libfaketime.so.1"
        }
        throw ProcessRunnerError(description: "libfaketime is not installed (tools/install-deps installs it)")
    }

    private static let lighttpdPath = Result { () throws -> String in
        for candidate in ["/usr/sbin/lighttpd", "/usr/local/sbin/lighttpd"]
        where FileManager.default.isExecutableFile(atPath: candidate) {
            return candidate
        }
        throw ProcessRunnerError(description: "lighttpd is not installed (tools/install-deps installs it)")
    }
}
