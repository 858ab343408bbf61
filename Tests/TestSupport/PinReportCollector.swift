import Foundation

/// `Tests/Peers/pin_report_collector.py` on a 127.0.0.1 port the kernel picks, over HTTPS when given
/// a certificate: it records every request it receives (RFC 7469 pin-failure reports) and answers
/// 204. `stop()` (also run on release, and for every server still running when the test process
/// exits) terminates it.
///
/// ```swift
/// let collector = try PinReportCollector.start(certificate: "chain.pem", key: "leaf-rsa.key")
/// defer { collector.stop() }
/// // post to collector.url("/report"), then read collector.requests
/// ```
public final class PinReportCollector: @unchecked Sendable {
    /// One request the collector received.
    public struct Request: Sendable {
        public let method: String
        public let path: String
        public let contentType: String?
        /// The body, as text.
        public let body: String

        /// The body parsed as a JSON object (nil when it is not one).
        public var json: [String: Any]? {
            (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any]
        }
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

    /// The URL of `path` on this collector (`https://localhost:PORT/path` over HTTPS, so that the
    /// test PKI's `localhost` certificate verifies).
    public func url(_ path: String) -> String {
        "\(scheme)://\(scheme == "https" ? "localhost" : "127.0.0.1"):\(port)\(path)"
    }

    /// Every request received so far, in order.
    public var requests: [Request] {
        let log = (try? String(contentsOf: directory.appendingPathComponent("requests.log"), encoding: .utf8)) ?? ""
        return log.split(separator: "\n").compactMap { line in
            guard let entry = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                return nil
            }
            return Request(
                method: entry["method"] as? String ?? "",
                path: entry["path"] as? String ?? "",
                contentType: entry["content_type"] as? String,
                body: entry["body"] as? String ?? ""
            )
        }
    }

    /// Waits until at least `count` requests arrived, or `timeout` seconds (scaled by
    /// `ProcessRunner.timeoutScale`) passed; returns the requests received.
    public func waitForRequests(_ count: Int, timeout: Double = 10) -> [Request] {
        let deadline = Date().addingTimeInterval(timeout * Double(ProcessRunner.timeoutScale))
        while true {
            let received = requests
            if received.count >= count || Date() >= deadline { return received }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    /// Starts the collector in a new folder with `certificate` and `key` (PEM paths) for HTTPS, none
    /// for HTTP; returns once it listens.
    public static func start(certificate: String? = nil, key: String? = nil) throws -> PinReportCollector {
        let directory = try Scratch.untilExit("pin-report-collector").url
        let errors = directory.appendingPathComponent("stderr.log")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        let command = try InteropPeer.pinReportCollector.commandLine()
        let arguments =
            Array(command.dropFirst()) + ["--log", directory.appendingPathComponent("requests.log").path]
            + (certificate.map { ["--cert", $0] } ?? []) + (key.map { ["--key", $0] } ?? [])
        let server = try AnnouncingServer(command[0], arguments, in: directory, errors: errors)
        return PinReportCollector(server: server, scheme: certificate == nil ? "http" : "https", directory: directory)
    }

    /// Terminates the collector and waits for it (its request log stays readable). Idempotent.
    public func stop() { server.stop() }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }
}
