import Foundation
import TestSupport
import Testing

/// `--expires` is parsed strictly: each accepted form is stored as the instant it names (compared
/// with Python's `datetime.fromisoformat`), and an impossible or incomplete date is refused with
/// exit 2, one line naming the accepted forms, and nothing stored.
@Suite("seccli: --expires dates")
struct ExpiryDateTests {
    @Test(arguments: [
        "2026-12-31", "2026-12-31T23:59Z", "2026-12-31T23:59:59Z", "2028-02-29T12:00:00+02:00",
        "2026-12-31T23:59:59.123456+00:00", "2026-06-30T00:30:00-09:30",
    ])
    func acceptedFormsKeepTheirInstant(_ text: String) throws {
        try withScratch { dir in
            let env = Keychain.fileBackend(dir)
            let item = ["--service", "expiry", "--account", "a"]
            try Tools.seccli(
                ["cred", "set"] + item + ["--expires", text],
                stdin: Array("s".utf8),
                environment: env,
                expecting: .success
            )
            let listed = try Tools.seccli(
                ["cred", "list", "--service", "expiry", "--json"],
                environment: env,
                expecting: .success
            )
            let items = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout)) as? [[String: Any]])
            let stored = try #require(items.first?["expires"] as? String)
            // Python reads both texts; the stored one must be the same instant, to the second.
            let script = """
                import sys
                from datetime import datetime, timezone
                def instant(text):
                    value = datetime.fromisoformat(text.replace("Z", "+00:00"))
                    return int((value if value.tzinfo else value.replace(tzinfo=timezone.utc)).timestamp())
                print(instant(sys.argv[1]) == instant(sys.argv[2]))
                """
            let same = try ProcessRunner.run("python3", ["-c", script, text, stored]).stdoutText
            #expect(same == "True\n", "\(text) stored as \(stored)")
        }
    }

    @Test(arguments: [
        "2026-02-30", "2027-02-29", "2026-13-01", "2026-12-32", "2026-12-31T24:00Z", "2026-12-31T23:60Z",
        "2026-12-31T23:59", "2026-12-31T23:59:59", "2026-12-31 23:59:59Z", "26-12-31", "2026-12-31Z",
        "2026-12-31T23:59:59.Z", "2026-12-31T23:59:59+0200", "tomorrow", "",
    ])
    func invalidDatesAreRefused(_ text: String) throws {
        try withScratch { dir in
            let env = Keychain.fileBackend(dir)
            let result = try Tools.seccli(
                ["cred", "set", "--service", "expiry", "--account", "a", "--expires", text],
                stdin: Array("s".utf8),
                environment: env
            )
            expectOneLineError(result, status: 2)
            #expect(result.stderr.contains("2026-12-31T23:59:59Z"), "names the accepted forms: \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir.path("credentials.store")), "nothing stored")
        }
    }
}
