import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Failover on a real three-node cluster (tools/openbao-cluster: Raft, retry_join, static seal): 4
/// writers in separate processes (`seccli cred set`, each against a standby) make 500 upserts while
/// the active node is killed with SIGKILL. Every acknowledged write reads back from the new active
/// node, and no call outlives its timeout.
@Suite struct OpenBaoFailoverTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("tools/openbao-cluster").path

    @Test(.tags(.slow)) func acknowledgedWritesSurviveTheActiveNodesDeath() throws {
        try withScratch { scratch in
            let base = try TLSTestServer.freePort()
            let cluster = scratch.path("cluster")
            try ProcessRunner.run(Self.script, ["start", cluster, String(base)], timeout: .seconds(240))
                .requiringSuccess(of: "tools/openbao-cluster start")
            defer { _ = try? ProcessRunner.run(Self.script, ["stop", cluster]) }
            let addresses = try (1...3).map {
                try String(contentsOfFile: "\(cluster)/node-\($0).addr", encoding: .utf8)
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            }
            let token = try #require(
                String(contentsOfFile: "\(cluster)/env", encoding: .utf8).split(separator: " ")
                    .first { $0.hasPrefix("BAO_TOKEN=") }
            ).dropFirst("BAO_TOKEN=".count).trimmingCharacters(in: .whitespacesAndNewlines)
            var environment = [
                "BAO_CACERT": "\(cluster)/ca.pem", "BAO_TOKEN": token, "SECCLI_BACKEND": "openbao",
                "SECCLI_OPENBAO_PATH_PREFIX": "failover",
            ]
            /// The active node, as the first node that answers says (the new one may take a few seconds).
            func leader(excluding dead: Int? = nil) throws -> Int {
                let deadline = ContinuousClock.now + .seconds(30) * ProcessRunner.timeoutScale
                while ContinuousClock.now < deadline {
                    for (node, address) in addresses.enumerated() where node != dead {
                        let answer = try ProcessRunner.run(
                            "/usr/bin/env",
                            ["bao", "read", "-field=leader_address", "sys/leader"],
                            environment: environment.merging(["BAO_ADDR": address]) { $1 }
                        )
                        let named = answer.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
                        if answer.status == 0, let index = addresses.firstIndex(of: named), index != dead {
                            return index
                        }
                    }
                    usleep(200_000)
                }
                throw NoActiveNode()
            }
            let active = try leader()
            let standbys = addresses.indices.filter { $0 != active }
            let seccli = try Tools.seccliExecutable()

            // Each writer: 125 upserts, one process each; an acknowledged one (exit 0) is logged
            // with its duration, a refused one with its duration and status.
            let writerEnvironment = environment
            let writers = (0..<4).map { writer in
                Thread.detachNewThreadWithResult {
                    try ProcessRunner.run(
                        "sh",
                        [
                            "-c",
                            """
                            for i in $(seq 1 125); do
                              start=$(date +%s%N)
                              printf 'value-%s-%s' "$W" "$i" | '\(seccli)' cred set --service failover --account "w$W-$i" --secret stdin --timeout 10 2>/dev/null
                              status=$?
                              echo "$i $status $((($(date +%s%N) - start) / 1000000))"
                            done
                            """,
                        ],
                        environment: writerEnvironment.merging([
                            "W": String(writer), "BAO_ADDR": addresses[standbys[writer % 2]],
                        ]) { $1 },
                        timeout: .seconds(1200)
                    )
                }
            }
            usleep(1_500_000)
            let pid = try #require(
                Int32(
                    String(contentsOfFile: "\(cluster)/node-\(active + 1).pid", encoding: .utf8)
                        .trimmingCharacters(in: .whitespacesAndNewlines)
                )
            )
            #expect(kill(pid, SIGKILL) == 0)

            var acknowledged: [(writer: Int, index: Int)] = []
            for (writer, result) in writers.enumerated() {
                let lines = try result.value().requiringSuccess(of: "writer \(writer)").stdoutLines
                #expect(lines.count == 125)
                for line in lines {
                    let fields = line.split(separator: " ").compactMap { Int($0) }
                    guard fields.count == 3 else { continue }
                    #expect(fields[2] < 12_000 * Int(ProcessRunner.timeoutScale), "a call took \(fields[2]) ms")
                    if fields[1] == 0 { acknowledged.append((writer, fields[0])) }
                }
            }
            #expect(acknowledged.count > 100, "only \(acknowledged.count) of 500 writes were acknowledged")

            // The new active node answers for every acknowledged write.
            environment["BAO_ADDR"] = addresses[try leader(excluding: active)]
            for (writer, index) in acknowledged {
                let read = try Tools.seccli(
                    ["cred", "get", "--service", "failover", "--account", "w\(writer)-\(index)"],
                    environment: environment
                )
                #expect(read.stdoutText == "value-\(writer)-\(index)", "w\(writer)-\(index): \(read.stderr)")
            }
        }
    }
}

/// The cluster named no active node within 30 seconds.
private struct NoActiveNode: Error {}

extension Thread {
    /// Runs `body` on a new thread; `value()` waits for its result.
    fileprivate static func detachNewThreadWithResult<T: Sendable>(
        _ body: @escaping @Sendable () throws -> T
    ) -> ThreadResult<T> {
        let result = ThreadResult<T>()
        Thread.detachNewThread { result.set(Result(catching: body)) }
        return result
    }
}

/// The result of a `detachNewThreadWithResult` thread.
private final class ThreadResult<T: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var result: Result<T, any Error>?

    func set(_ value: Result<T, any Error>) {
        condition.lock()
        result = value
        condition.broadcast()
        condition.unlock()
    }

    func value() throws -> T {
        condition.lock()
        defer { condition.unlock() }
        while result == nil { condition.wait() }
        return try result!.get()
    }
}
