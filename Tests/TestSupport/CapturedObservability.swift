import Foundation
import InMemoryLogging
import Logging
import MetricsTestKit

/// swift-log and swift-metrics captured in memory (swift-log's `InMemoryLogHandler`,
/// swift-metrics' `TestMetrics`), for the tests of what SecKit logs and counts.
public enum CapturedObservability {
    /// A logger that keeps every entry, from trace up.
    public static func logger() -> (Logger, InMemoryLogHandler) {
        let handler = InMemoryLogHandler()
        var logger = Logger(label: "test") { _ in handler }
        logger.logLevel = .trace
        return (logger, handler)
    }

    /// Every text a log entry or a metric carries: message, metadata, labels and dimensions.
    public static func everything(_ logs: InMemoryLogHandler, _ metrics: TestMetrics) -> String {
        let entries = logs.entries.map { "\($0.level) \($0.message) \($0.metadata)" }
        let counters = metrics.counters.map { "\($0.label) \($0.dimensions)" }
        return (entries + counters).joined(separator: "\n")
    }
}

extension TestPKI {
    /// The secrets of the test PKI, which no log or metric may carry: the base64 body of every
    /// private key file, line by line, and the passphrases.
    public func secrets() throws -> [String] {
        var secrets = [Self.keyPassphrase, Self.p12Passphrase]
        for key in ["leaf-rsa.key", "client.key", "client-ec.key", "rogue-server.key", "rogue-client.key"] {
            let lines = try String(contentsOfFile: path(key), encoding: .utf8).split(separator: "\n")
            secrets += lines.filter { !$0.hasPrefix("-----") && $0.count >= 16 }.map(String.init)
        }
        return secrets
    }
}
