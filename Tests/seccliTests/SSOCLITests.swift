import Foundation
import TestSupport
import Testing

/// `seccli sso`: one seccli process logs in, others (the other tools of the group) read the token,
/// log out, and still know the user. Every step is a separate process.
enum SSOScenarios {
    static func loginTokenLogout(_ env: [String: String]) throws {
        let group = ["--group", Keychain.uniqueName("tools")]
        let token = randomBytes(64) + [0, 10]
        try Tools.seccli(
            ["sso", "login", "--user", "alice"] + group + ["--expires", "2099-01-01T00:00:00Z"],
            stdin: token,
            environment: env,
            expecting: .success
        )
        #expect(
            try Tools.seccli(["sso", "token"] + group, environment: env, expecting: .success).stdout == token,
            "another process finds the token, byte for byte"
        )
        #expect(
            try Tools.seccli(["sso", "user"] + group, environment: env, expecting: .success).stdoutText == "alice\n"
        )

        try Tools.seccli(["sso", "logout"] + group, environment: env, expecting: .success)
        let afterLogout = try Tools.seccli(["sso", "token"] + group, environment: env)
        expectOneLineError(afterLogout, status: 10)
        #expect(afterLogout.stderr.contains("no SSO token"))
        #expect(
            try Tools.seccli(["sso", "user"] + group, environment: env, expecting: .success).stdoutText == "alice\n",
            "logout keeps the user name"
        )
        try Tools.seccli(["sso", "logout"] + group, environment: env, expecting: .success)  // twice is fine

        // --token file: stores the whole file, newlines and NULs included.
        try withScratch { scratch in
            let multiline = Array("line one\nline two\n".utf8) + [0, 10]
            let file = try scratch.write("token.bin", multiline)
            try Tools.seccli(
                ["sso", "login", "--user", "alice", "--token", "file:\(file)"] + group,
                environment: env,
                expecting: .success
            )
            #expect(
                try Tools.seccli(["sso", "token"] + group, environment: env, expecting: .success).stdout == multiline
            )
        }

        // Another group never sees this one's state.
        expectOneLineError(
            try Tools.seccli(["sso", "user", "--group", Keychain.uniqueName("other")], environment: env),
            status: 10
        )
    }

    static func expiredToken(_ env: [String: String]) throws {
        let group = ["--group", Keychain.uniqueName("tools")]
        try Tools.seccli(
            ["sso", "login", "--user", "bob", "--expires", "2001-01-01T00:00:00Z", "--token", "env:SSO_TOKEN"] + group,
            environment: env.merging(["SSO_TOKEN": "stale-token"]) { $1 },
            expecting: .success
        )
        let result = try Tools.seccli(["sso", "token"] + group, environment: env)
        expectOneLineError(result, status: 11)
        #expect(result.stderr.contains("expired"))
        #expect(!result.stderr.contains("stale-token"))

        // A new login replaces the expired token.
        try Tools.seccli(
            ["sso", "login", "--user", "bob"] + group,
            stdin: Array("fresh-token".utf8),
            environment: env,
            expecting: .success
        )
        #expect(
            try Tools.seccli(["sso", "token"] + group, environment: env, expecting: .success).stdoutText
                == "fresh-token"
        )
    }
}

/// The scenarios on every backend this run can use (the Secret Service inside tools/with-secret-service only).
@Suite("seccli sso, each backend")
struct SSOBackendTests {
    @Test(arguments: KeychainBackend.available) func loginTokenLogoutAcrossProcesses(_ backend: KeychainBackend) throws
    {
        try backend.withEnvironment(SSOScenarios.loginTokenLogout)
    }
    @Test(arguments: KeychainBackend.available) func expiredToken(_ backend: KeychainBackend) throws {
        try backend.withEnvironment(SSOScenarios.expiredToken)
    }
}

@Suite(
    "seccli sso, Secret Service backend",
    .enabled(if: SecretServiceSupport.hasPrivateSecretService, SecretServiceSupport.privateSessionOnly)
)
struct SSOSecretServiceTests {
    @Test("a token logged in with seccli is the item secret-tool finds in the group")
    func tokenVisibleToSecretTool() throws {
        let group = Keychain.uniqueName("tools")
        try Tools.seccli(
            ["sso", "login", "--user", "carol", "--group", group],
            stdin: Array("shared-token".utf8),
            expecting: .success
        )
        let found = try SecretServiceSupport.secretTool(["lookup", "access-group", group, "account", "token"])
        #expect(found.stdoutText == "shared-token")
    }
}
