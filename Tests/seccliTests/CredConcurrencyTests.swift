import Foundation
import TestSupport
import Testing

/// 8 shell loops of `seccli cred set` on 4 shared identities at the same time, on both backends:
/// afterwards exactly one item per identity, holding one of the values written to it.
///
/// A smoke test of the command line under contention. Every set is its own seccli process; on the
/// file backend each pays a 600,000-iteration PBKDF2, so the file run does 8 × 5
/// sets and the Secret Service run 8 × 25. The full 8 processes × 200 upserts, with no-lost-update
/// checks, run in SecKeychainTests/ConcurrentWritersTests with writers that open the store once.
enum CredConcurrency {
    static let writers = 8
    static let identities = 4

    static func setsPerWriter(_ backend: KeychainBackend) -> Int { backend == .file ? 5 : 25 }

    /// Runs the writers (each a shell loop of seccli processes) and returns the service name used.
    static func hammer(_ env: [String: String], setsPerWriter: Int) throws -> String {
        let service = Keychain.uniqueName("race")
        let seccli = try Tools.seccliExecutable()
        // Writer w's i-th set stores "w<w>-i<i>" under account acct<i % 4>.
        let script = """
            for w in $(seq \(writers)); do
              (for i in $(seq \(setsPerWriter)); do
                 printf 'w%d-i%d' "$w" "$i" | "$SECCLI" cred set --service "$SERVICE" --account "acct$((i % \(identities)))" --timeout \(60 * ProcessRunner.timeoutScale) \
                   || { echo "writer $w, set $i failed" >&2; exit 1; }
               done) &
            done
            failed=0
            for job in $(jobs -p); do wait "$job" || failed=1; done
            exit $failed
            """
        let result = try ProcessRunner.run(
            "bash",
            ["-c", script],
            environment: env.merging(["SECCLI": seccli, "SERVICE": service]) { $1 },
            timeout: .seconds(600)
        )
        #expect(result.status == 0, "writers: \(result.stderr)")
        return service
    }

    /// Each identity's secret is a value some writer stored under it.
    static func expectOneOfTheWrittenValues(service: String, setsPerWriter: Int, _ env: [String: String]) throws {
        for account in 0..<identities {
            let value = try Tools.seccli(
                ["cred", "get", "--service", service, "--account", "acct\(account)"],
                environment: env,
                expecting: .success
            ).stdoutText
            let parts = value.split(separator: "-")
            let writer = parts.first.flatMap { Int($0.dropFirst()) }
            let set = parts.last.flatMap { Int($0.dropFirst()) }
            #expect(
                parts.count == 2 && value.hasPrefix("w") && parts[1].hasPrefix("i"),
                "acct\(account) holds \(value.debugDescription)"
            )
            #expect(writer.map { (1...writers).contains($0) } == true, "acct\(account) holds \(value.debugDescription)")
            #expect(
                set.map { (1...setsPerWriter).contains($0) && $0 % identities == account } == true,
                "acct\(account) holds \(value.debugDescription)"
            )
        }
    }

    static func listedAccounts(service: String, _ env: [String: String]) throws -> [String] {
        let listing = try Tools.seccli(
            ["cred", "list", "--service", service, "--json"],
            environment: env,
            expecting: .success
        )
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(listing.stdout)) as? [[String: Any]])
        return entries.compactMap { $0["account"] as? String }.sorted()
    }
}

@Suite("seccli cred: concurrent writers")
struct CredConcurrencyTests {
    @Test(
        "8 processes x 5 (file) or 25 (Secret Service) cred set on 4 identities: one item each, a written value",
        .tags(.slow),
        arguments: KeychainBackend.available
    )
    func concurrentSets(backend: KeychainBackend) throws {
        let sets = CredConcurrency.setsPerWriter(backend)
        try backend.withEnvironment { env in
            let service = try CredConcurrency.hammer(env, setsPerWriter: sets)
            #expect(
                try CredConcurrency.listedAccounts(service: service, env)
                    == (0..<CredConcurrency.identities).map { "acct\($0)" }
            )
            if backend == .secretService {
                // secret-tool counts the items itself, past SecKit's handling of copies.
                for account in 0..<CredConcurrency.identities {
                    #expect(
                        try Keychain.secretToolCount(["service", service, "account", "acct\(account)"]) == 1,
                        "acct\(account)"
                    )
                }
                #expect(try Keychain.secretToolCount(["service", service]) == CredConcurrency.identities)
            }
            try CredConcurrency.expectOneOfTheWrittenValues(service: service, setsPerWriter: sets, env)
        }
    }
}
