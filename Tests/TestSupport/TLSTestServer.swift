import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// An `openssl s_server` listening on 127.0.0.1 (or ::1) on a free port, for tests of TLS clients (the
/// SecTLS library tests and the `seccli pin` tests).
///
/// ```swift
/// let server = try TLSTestServer.start(["-cert", "server.pem", "-key", "server.key", "-www", "-tls1_3"], in: directory)
/// defer { server.stop() }
/// // connect to 127.0.0.1:\(server.port)
/// ```
///
/// `start` picks a free port, adds `-accept 127.0.0.1:PORT` (`[::1]:PORT`), and returns once the server prints
/// `ACCEPT`, that is, listens; if the port was taken in between, it retries on another. The server
/// takes any number of connections, but ONE AT A TIME: close each connection (or let the server end
/// it, as `-www` does after answering `GET /`) before the next one, or the next handshake hangs. Output goes to a log file
/// (`log`), standard input is /dev/null, so use `-www` (answers `GET /`) or another mode that does
/// not read the terminal. `stop()` (also run on release, and for every server still running when
/// the test process exits) terminates the process and waits for it. Give relative file names with
/// `directory`.
public final class TLSTestServer: @unchecked Sendable {
    /// The loopback port the server listens on.
    public let port: Int
    private let server: ServerProcess
    private let logURL: URL

    private init(port: Int, server: ServerProcess, logURL: URL) {
        self.port = port
        self.server = server
        self.logURL = logURL
    }

    /// Starts `openssl s_server` with `arguments` (without `-accept`) in `directory` on the loopback
    /// `address` (`127.0.0.1` or `::1`), and waits up to `timeout` until it listens. Throws with the
    /// server's output when it exits or does not listen. `port` asks for that port (a server
    /// replacing a stopped one); by default a free one is taken.
    public static func start(
        _ arguments: [String],
        in directory: URL,
        address: String = "127.0.0.1",
        port: Int? = nil,
        timeout: Duration = .seconds(15)
    ) throws -> TLSTestServer {
        if let port { return try startOnce(arguments, in: directory, address: address, port: port, timeout: timeout) }
        var lastError: Error = ProcessRunnerError(description: "s_server did not start")
        for _ in 0..<5 {
            do {
                // A port free on 127.0.0.1 is nearly always free on ::1 too; if not, the next try takes another.
                return try startOnce(arguments, in: directory, address: address, port: try freePort(), timeout: timeout)
            } catch let error as PortTaken {
                lastError = error
            }
        }
        throw lastError
    }

    /// Everything the server wrote so far.
    public var log: String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }

    /// Terminates the server (`ServerProcess.stop()`) and waits for it; removes its log. Idempotent.
    public func stop() {
        server.stop()
        try? FileManager.default.removeItem(at: logURL.deletingLastPathComponent())  // its own folder
    }

    deinit { stop() }

    // MARK: - Starting

    private static func startOnce(
        _ arguments: [String],
        in directory: URL,
        address: String,
        port: Int,
        timeout: Duration
    ) throws -> TLSTestServer {
        let logURL = URL(fileURLWithPath: try Scratch.untilExit("s_server").path("s_server.log"))
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        let log = try FileHandle(forWritingTo: logURL)
        defer { try? log.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try opensslPath.get())
        let accept = address.contains(":") ? "[\(address)]:\(port)" : "\(address):\(port)"
        process.arguments = ["s_server", "-accept", accept] + arguments
        process.currentDirectoryURL = directory
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = log
        process.standardError = log
        var environment = ProcessInfo.processInfo.environment
        environment["LC_ALL"] = "C"
        process.environment = environment
        let server = TLSTestServer(port: port, server: try ServerProcess(running: process), logURL: logURL)

        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let output = server.log
            if output.contains("ACCEPT") { return server }
            if !process.isRunning {
                server.stop()
                if output.contains("in use") { throw PortTaken(description: "port \(port) taken: \(output)") }
                throw ProcessRunnerError(
                    description:
                        "openssl s_server \(arguments.joined(separator: " ")) exited \(process.terminationStatus): \(output)"
                )
            }
            usleep(5_000)
        }
        let output = server.log
        server.stop()
        throw ProcessRunnerError(description: "openssl s_server did not listen within \(timeout): \(output)")
    }

    /// A port the kernel just gave to a socket bound to 127.0.0.1:0 (closed again before returning).
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ProcessRunnerError(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else {
            throw ProcessRunnerError(description: "bind 127.0.0.1:0: \(String(cString: strerror(errno)))")
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// True when a socket can be bound to ::1 (IPv6 may be disabled in a container).
    public static let ipv6LoopbackAvailable: Bool = {
        let fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_addr = in6addr_loopback
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) == 0
            }
        }
    }()

    /// `openssl` on PATH, resolved once.
    private static let opensslPath = Result { () throws -> String in
        let found = try ProcessRunner.run("/bin/sh", ["-c", "command -v openssl"])
        guard found.status == 0, !found.stdout.isEmpty else {
            throw ProcessRunnerError(description: "openssl is not on PATH")
        }
        return found.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
