import ArgumentParser
import SecKit

extension SecCLI.AuditCommand {
    struct AuditShow: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Print the records of the audit log, oldest first.",
            discussion: """
                One line per record: time, operation and call, backend, the item, the result, and who \
                (pid, uid, executable). --since keeps records from a time on (ISO 8601, or an age: 30m, \
                12h, 7d); --identity those of one service or server (SERVICE, or SERVICE/ACCOUNT). Lines \
                that are not records are skipped: 'seccli audit verify' names them.
                """
        )

        @OptionGroup var log: AuditLogArgument

        @Option(
            help: ArgumentHelp(
                "Only records from this time on: 2026-11-28T06:00:00Z, 2026-11-28, or an age (30s, 30m, 12h, 7d).",
                valueName: "time"
            )
        )
        var since: String?

        @Option(
            help: ArgumentHelp(
                "Only records of this service or server (SERVICE, or SERVICE/ACCOUNT: split at the last '/').",
                valueName: "service[/account]"
            )
        )
        var identity: String?

        @Flag(help: "Print the records as a JSON array (each as in the log).")
        var json = false

        func validate() throws {
            _ = try sinceDate()
        }

        func run() throws {
            let start = try sinceDate()
            let records = try log.reading { (log) throws(KeychainError) in try log.records() }.filter { record in
                (start.map { record.time >= $0 } ?? true) && matches(record.identity)
            }
            if json {
                var printer = JSONOutput.ArrayPrinter()
                for record in records { try printer.print(record) }
                printer.finish()
            } else {
                for record in records { print(Self.line(record)) }
            }
        }

        /// `2026-11-28T06:55:00.123Z read secret secret-service service S, account A: ok, secret returned (pid 7, uid 1000, /usr/bin/seccli)`.
        static func line(_ record: AuditRecord) -> String {
            var outcome = record.result
            if let count = record.count { outcome += ", \(count) item\(count == 1 ? "" : "s")" }
            if record.secretReturned { outcome += ", secret returned" }
            return "\(record.time.formatted(AuditRecord.timeStyle)) \(record.operation.rawValue) \(record.call) "
                + "\(UntrustedText.escaped(record.backend)) \(UntrustedText.escaped(record.identity.summary)): "
                + "\(UntrustedText.escaped(outcome)) (pid \(record.pid), uid \(record.uid), "
                + "\(UntrustedText.escaped(record.executable)))"
        }

        private func matches(_ attributes: AuditedAttributes) -> Bool {
            guard let identity else { return true }
            var name = identity
            var account: String?
            if let slash = identity.lastIndex(of: "/") {
                name = String(identity[..<slash])
                account = String(identity[identity.index(after: slash)...])
            }
            guard attributes.service == name || attributes.server == name else { return false }
            return account.map { $0 == attributes.account } ?? true
        }

        /// `--since` as a date: ISO 8601 (date and time, or a date), or now minus an age.
        private func sinceDate() throws -> Date? {
            guard let since else { return nil }
            if let date = try? Date(since, strategy: .iso8601) { return date }
            if let date = try? Date(since, strategy: AuditRecord.timeStyle) { return date }
            if let date = try? Date(since, strategy: Date.ISO8601FormatStyle().year().month().day()) { return date }
            let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
            if let unit = since.last.flatMap({ units[$0] }), let value = Double(since.dropLast()), value >= 0 {
                return Date(timeIntervalSinceNow: -value * unit)
            }
            throw ValidationError(
                "--since: expected an ISO 8601 time (2026-11-28T06:00:00Z), a date or an age (30m, 12h, 7d)"
            )
        }
    }
}
