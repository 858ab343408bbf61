import Foundation
import TestSupport
import Testing

/// `SECKIT_AUDIT_LOG` with seccli: writers in several processes at once leave whole lines in one
/// unbroken chain; `audit verify` names a broken line; `audit show` filters; no secret in the file.
@Suite("seccli audit")
struct AuditCLITests {
    @Test(
        "6 shell loops x 10 seccli cred processes on one log rotated every 8 KiB: every line whole, one chain through the files, no secret",
        .tags(.slow),
        arguments: KeychainBackend.available
    )
    func concurrentProcesses(backend: KeychainBackend) throws {
        try backend.withEnvironment { backendEnvironment in
            try withScratch { scratch in
                let logPath = scratch.path("audit/credentials.audit")
                var env = backendEnvironment
                env["SECKIT_AUDIT_LOG"] = logPath
                // About 25 lines a file: the writers rotate the log under each other two or three times.
                env["SECKIT_AUDIT_LOG_ROTATE_BYTES"] = "8192"
                let service = Keychain.uniqueName("audit")
                let secret = "audit-cli-secret-\(UUID().uuidString)"
                // On the file backend every process with a store file pays a PBKDF2: only the Secret
                // Service run stores an item; lookups of missing items are recorded all the same.
                var records = 0
                if backend == .secretService {
                    try Tools.seccli(
                        ["cred", "set", "--service", service, "--account", "acct0"],
                        stdin: Array(secret.utf8),
                        environment: env,
                        expecting: .success
                    )
                    records += 1
                }
                let script = """
                    for w in $(seq 6); do
                      (for i in $(seq 10); do
                         "$SECCLI" cred get --service "$SERVICE" --account "acct$((i % 2))" > /dev/null 2>&1 || true
                       done) &
                    done
                    wait
                    """
                let result = try ProcessRunner.run(
                    "bash",
                    ["-c", script],
                    environment: env.merging(["SECCLI": try Tools.seccliExecutable(), "SERVICE": service]) { $1 },
                    timeout: .seconds(600)
                )
                #expect(result.status == 0, "\(result.stderr)")
                records += 60
                let verify = try Tools.seccli(["audit", "verify", logPath], expecting: .success)
                #expect(verify.stdoutText == "\(logPath): \(records) records, chain intact\n")
                // The rotated files, oldest (highest number) first, then the live one.
                let rotated = try FileManager.default.contentsOfDirectory(atPath: scratch.path("audit"))
                    .compactMap { name in name.split(separator: ".").last.flatMap { Int($0) } }.sorted(by: >)
                #expect(rotated.count >= 2, "the writers rotated the log: \(rotated)")
                let files = rotated.map { "credentials.audit.\($0)" } + ["credentials.audit"]
                let contents = try files.map { String(decoding: try scratch.read("audit/\($0)"), as: UTF8.self) }
                    .joined()
                let lines = contents.split(separator: "\n", omittingEmptySubsequences: false)
                #expect(lines.count == records + 1 && lines.last == "")
                for line in lines.dropLast() {
                    let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                    #expect(object?["operation"] as? String != nil, "\(line)")
                    #expect((object?["executable"] as? String)?.hasSuffix("seccli") == true, "\(line)")
                }
                #expect(!contents.contains(secret))
                let pids = Set(
                    lines.dropLast().compactMap { line in
                        (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["pid"] as? Int
                    }
                )
                #expect(pids.count == records, "one process per record")
            }
        }
    }

    /// A log of 5 lookups (missing items on an encrypted-file store that does not exist: no PBKDF2).
    static func sampleLog(_ scratch: Scratch) throws -> String {
        let logPath = scratch.path("credentials.audit")
        var env = Keychain.fileBackend(scratch)
        env["SECKIT_AUDIT_LOG"] = logPath
        for (service, account) in [("alpha", "a"), ("beta", "b"), ("alpha", "c"), ("gamma", "d"), ("alpha", "a")] {
            try Tools.seccli(
                ["cred", "get", "--service", service, "--account", account],
                environment: env,
                expecting: .status(10)
            )
        }
        return logPath
    }

    @Test("audit verify: exit 1 naming the line after an edited one; exit 2 for a missing log")
    func verifyNamesTheBrokenLine() throws {
        try withScratch { scratch in
            let logPath = try Self.sampleLog(scratch)
            try Tools.seccli(["audit", "verify", logPath], expecting: .success)
            var lines = try String(contentsOfFile: logPath, encoding: .utf8).split(separator: "\n").map(String.init)
            lines[1] = lines[1].replacing("\"beta\"", with: "\"BETA\"")
            try (lines.joined(separator: "\n") + "\n").write(toFile: logPath, atomically: true, encoding: .utf8)
            let broken = try Tools.seccli(["audit", "verify", logPath], expecting: .status(1))
            #expect(broken.stdout.isEmpty)
            #expect(broken.stderr.contains("\(logPath) line 3: the previous line does not hash"), "\(broken.stderr)")
            #expect(broken.stderr.split(separator: "\n").count == 1)
            let missing = try Tools.seccli(["audit", "verify", scratch.path("none.audit")], expecting: .status(2))
            #expect(missing.stderr.contains("no such audit log"))
        }
    }

    @Test("audit show: every record as a line, --identity and --since filter, --json is the records")
    func show() throws {
        try withScratch { scratch in
            let logPath = try Self.sampleLog(scratch)
            let all = try Tools.seccli(["audit", "show", logPath], expecting: .success)
            #expect(all.stdoutLines.count == 5)
            #expect(
                all.stdoutLines.allSatisfy {
                    $0.contains(" read expiringSecret file ") && $0.contains(": notFound (pid ")
                }
            )
            let alpha = try Tools.seccli(["audit", "show", logPath, "--identity", "alpha"], expecting: .success)
            #expect(alpha.stdoutLines.count == 3)
            let alphaA = try Tools.seccli(["audit", "show", logPath, "--identity", "alpha/a"], expecting: .success)
            #expect(alphaA.stdoutLines.count == 2)
            #expect(
                try Tools.seccli(["audit", "show", logPath, "--since", "1h"], expecting: .success).stdoutLines.count
                    == 5
            )
            #expect(
                try Tools.seccli(["audit", "show", logPath, "--since", "2999-01-01"], expecting: .success).stdout
                    .isEmpty
            )
            try Tools.seccli(["audit", "show", logPath, "--since", "yesterday"], expecting: .status(64))
            let json = try Tools.seccli(
                ["audit", "show", logPath, "--json", "--identity", "gamma"],
                expecting: .success
            )
            let records = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout)) as? [[String: Any]])
            #expect(records.count == 1)
            #expect((records.first?["identity"] as? [String: Any])?["service"] as? String == "gamma")
            #expect(records.first?["sequence"] as? Int == 4)
        }
    }
}
