import Foundation
import Testing
import TestSupport

/// 8 seccli processes writing `cred set` on 4 shared identities at the same time: afterwards
/// exactly one item per identity, holding one of the values written to it, nothing corrupted.
///
/// The Secret Service run does 8 × 200 sets. The file run does 8 × 25: every seccli process on the
/// file backend derives the store key with PBKDF2-HMAC-SHA256 at 600,000 iterations (about 0.2 s of
/// CPU), so 1,600 processes take minutes of CPU (8 × 200 passed in 495 s on two shared cores); the
/// lock and the atomic replace are exercised the same way by 200.
enum CredConcurrency {
    static let writers = 8
    static let identities = 4

    /// Runs the writers (each a shell loop of seccli processes) and returns the service name used.
    static func hammer(_ env: [String: String], setsPerWriter: Int) throws -> String {
        let service = Keychain.uniqueName("race")
        let seccli = try #require(Tools.seccliPath)
        // Writer w's i-th set stores "w<w>-i<i>" under account acct<i % 4>.
        let script = """
            for w in $(seq \(writers)); do
              (for i in $(seq \(setsPerWriter)); do
                 printf 'w%d-i%d' "$w" "$i" | "$SECCLI" cred set --service "$SERVICE" --account "acct$((i % \(identities)))" --timeout 60 \
                   || { echo "writer $w, set $i failed" >&2; exit 1; }
               done) &
            done
            failed=0
            for job in $(jobs -p); do wait "$job" || failed=1; done
            exit $failed
            """
        let result = try ProcessRunner.run(
            "bash", ["-c", script], environment: env.merging(["SECCLI": seccli, "SERVICE": service]) { $1 }, timeout: .seconds(600))
        #expect(result.status == 0, "writers: \(result.stderr)")
        return service
    }

    /// Each identity's secret is a value some writer stored under it.
    static func expectOneOfTheWrittenValues(service: String, setsPerWriter: Int, _ env: [String: String]) throws {
        for account in 0..<identities {
            let value = try Keychain.seccliSucceeding(["cred", "get", "--service", service, "--account", "acct\(account)"], environment: env).stdoutText
            let parts = value.split(separator: "-")
            let writer = parts.first.flatMap { Int($0.dropFirst()) }, set = parts.last.flatMap { Int($0.dropFirst()) }
            #expect(parts.count == 2 && value.hasPrefix("w") && parts[1].hasPrefix("i"), "acct\(account) holds \(value.debugDescription)")
            #expect(writer.map { (1...writers).contains($0) } == true, "acct\(account) holds \(value.debugDescription)")
            #expect(set.map { (1...setsPerWriter).contains($0) && $0 % identities == account } == true, "acct\(account) holds \(value.debugDescription)")
        }
    }

    static func listedAccounts(service: String, _ env: [String: String]) throws -> [String] {
        let listing = try Keychain.seccliSucceeding(["cred", "list", "--service", service, "--json"], environment: env)
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(listing.stdout)) as? [[String: Any]])
        return entries.compactMap { $0["account"] as? String }.sorted()
    }
}

@Suite("seccli cred: concurrent writers", .serialized)
struct CredConcurrencyTests {
    @Test("8 processes x 25 upserts on 4 identities, encrypted file: one item each, a written value")
    func fileBackend() throws {
        try Backend.file.withEnvironment { env in
            let service = try CredConcurrency.hammer(env, setsPerWriter: 25)
            #expect(try CredConcurrency.listedAccounts(service: service, env) == (0..<CredConcurrency.identities).map { "acct\($0)" })
            try CredConcurrency.expectOneOfTheWrittenValues(service: service, setsPerWriter: 25, env)
        }
    }

    @Test("8 processes x 200 upserts on 4 identities, Secret Service: one item each (secret-tool search --all), a written value",
          .enabled(if: Keychain.hasPrivateSecretService, Keychain.privateSessionOnly))
    func secretService() throws {
        try Backend.secretService.withEnvironment { env in
            let service = try CredConcurrency.hammer(env, setsPerWriter: 200)
            for account in 0..<CredConcurrency.identities {
                #expect(try Keychain.secretToolCount(["service", service, "account", "acct\(account)"]) == 1, "acct\(account)")
            }
            #expect(try Keychain.secretToolCount(["service", service]) == CredConcurrency.identities)
            try CredConcurrency.expectOneOfTheWrittenValues(service: service, setsPerWriter: 200, env)
        }
    }
}
