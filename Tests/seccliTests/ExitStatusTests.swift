import Foundation
import TestSupport
import Testing

@testable import seccli

/// seccli's exit codes are one Swift table (`ExitStatus`); `--help` prints it and docs/seccli.md
/// shows it. These tests keep the page and the help equal to the table.
@Suite("the exit-code table: code, --help and docs/seccli.md agree")
struct ExitStatusTests {
    /// The table as docs/seccli.md writes it: `| code | name | commands | meaning |`.
    static func markdownRows() -> [String] {
        ExitStatus.allCases.map { status in
            let (commands, meaning) = status.entry
            let scope = commands?.map { "`\($0)`" }.joined(separator: ", ") ?? "all"
            return "| \(status.rawValue) | `\(status)` | \(scope) | \(meaning) |"
        }
    }

    @Test("docs/seccli.md's exit-code table is the one seccli uses")
    func documentedTable() throws {
        let rows = try DocsPage("docs/seccli.md").tableRows(under: "| code | name | commands | meaning |")
        #expect(rows == Self.markdownRows())
    }

    @Test("the table names real commands")
    func commandNames() {
        let names = Set(SecCLI.configuration.subcommands.compactMap { $0.configuration.commandName })
        for status in ExitStatus.allCases {
            for command in status.entry.commands ?? [] {
                #expect(names.contains(command), "\(status): no command \(command)")
            }
        }
    }

    @Test("--help prints the table", arguments: [[], ["pin"], ["cred"], ["sso"], ["tls", "doctor"], ["audit"]])
    func help(command: [String]) throws {
        let result = try Tools.seccli(command + ["--help"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        // ArgumentParser wraps the text to the terminal's width.
        func words(_ text: String) -> String { text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        #expect(words(result.stdoutText).contains(words(ExitStatus.help(for: command.first))))
    }
}
