import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `seccli cred git-helper` driven by real `git credential fill/approve/reject`, with git's own
/// libsecret helper (built from the source Debian's git package ships) as the peer: each finds
/// what the other stored, in the private Secret Service.
@Suite(
    "seccli cred git-helper: git credential with git's libsecret helper",
    .enabled(if: SecretServiceSupport.hasPrivateSecretService, SecretServiceSupport.privateSessionOnly)
)
struct GitCredentialHelperTests {
    @Test(
        "one helper stores through git credential approve, the other's git credential fill finds it",
        arguments: [(GitHelper.seccli, GitHelper.libsecret), (.libsecret, .seccli)]
    )
    func storedByOneFoundByOther(storer: GitHelper, reader: GitHelper) throws {
        let host = Keychain.uniqueName("git") + ".example.com"
        let password = randomPrintable(24)
        try Git.approve(storer, host: host, username: "alice", password: password)
        let expected = "protocol=https\nhost=\(host)\nusername=alice\npassword=\(password)\n"
        for query in ["protocol=https\nhost=\(host)\n", "protocol=https\nhost=\(host)\nusername=alice\n"] {
            #expect(try Git.credential("fill", helper: reader, query).stdoutText == expected, "\(query)")
        }
        // Another user or protocol is another login: git finds nothing and, with prompts off, fails.
        for other in ["protocol=https\nhost=\(host)\nusername=carol\n", "protocol=http\nhost=\(host)\n"] {
            let missing = try Git.credential("fill", helper: reader, other, requiringSuccess: false)
            #expect(missing.status != 0 && missing.stdout.isEmpty, "\(other): \(missing.stdoutText)")
        }
        // Without a protocol and host nothing is looked up (any of alice's logins would match).
        let unnamed = try Tools.seccli(["cred", "git-helper", "get"], stdin: Array("username=alice\n".utf8))
        #expect(unnamed.status == 0 && unnamed.stdout.isEmpty && unnamed.stderr.isEmpty)
        // Both write git's label, and SecKit's own cred get reads the same login.
        let search = try SecretServiceSupport.secretTool(["search", "server", host])
        #expect(search.stdoutText.contains("label = Git: https://\(host)/\n"), "\(search.stdoutText)")
        let arguments = ["cred", "get", "--server", host, "--account", "alice", "--protocol", "https"]
        #expect(try Tools.seccli(arguments, expecting: .success).stdoutText == password)
    }

    @Test("a host with a port and, with credential.useHttpPath, a path: both helpers store and find by them")
    func portAndPath() throws {
        let server = Keychain.uniqueName("git") + ".example.com"
        let host = server + ":8443"
        let first = randomPrintable(20)
        let second = randomPrintable(20)
        try Git.credential(
            "approve",
            helper: .libsecret,
            "protocol=https\nhost=\(host)\npath=team/one.git\nusername=dave\npassword=\(first)\n",
            useHttpPath: true
        )
        try Git.credential(
            "approve",
            helper: .seccli,
            "protocol=https\nhost=\(host)\npath=team/two.git\nusername=dave\npassword=\(second)\n",
            useHttpPath: true
        )
        for helper in GitHelper.allCases {
            for (path, password) in [("team/one.git", first), ("team/two.git", second)] {
                let filled = try Git.credential(
                    "fill",
                    helper: helper,
                    "protocol=https\nhost=\(host)\npath=\(path)\n",
                    useHttpPath: true
                )
                #expect(filled.stdoutLines.last == "password=\(password)", "\(helper) \(path)")
            }
            let elsewhere = try Git.credential(
                "fill",
                helper: helper,
                "protocol=https\nhost=\(host)\npath=team/three.git\n",
                useHttpPath: true,
                requiringSuccess: false
            )
            #expect(elsewhere.status != 0 && elsewhere.stdout.isEmpty, "\(helper)")
        }
        let search = try SecretServiceSupport.secretTool(["search", "--all", "object", "team/two.git", "user", "dave"])
        #expect(search.stdoutText.contains("label = Git: https://\(host)/team/two.git\n"), "\(search.stdoutText)")
        #expect(try Keychain.secretToolCount(["server", server, "port", "8443", "object", "team/two.git"]) == 1)
    }

    @Test("a new password stored by either helper replaces the login: one item, the new password for both")
    func newPasswordReplaces() throws {
        let host = Keychain.uniqueName("git") + ".example.com"
        var current = ""
        for helper in [GitHelper.seccli, .libsecret, .seccli] {
            current = randomPrintable(16)
            try Git.approve(helper, host: host, username: "ivan", password: current)
            #expect(try Keychain.secretToolCount(["server", host]) == 1, "after \(helper)")
            for reader in GitHelper.allCases {
                let filled = try Git.credential("fill", helper: reader, "protocol=https\nhost=\(host)\n")
                #expect(filled.stdoutLines.last == "password=\(current)", "\(helper) then \(reader)")
            }
        }
    }

    @Test("git credential reject removes only the matching item, whichever helper stored it")
    func eraseOnlyTheMatch() throws {
        let host = Keychain.uniqueName("git") + ".example.com"
        try Git.approve(.libsecret, host: host, username: "erin", password: "e1")
        try Git.approve(.seccli, host: host, username: "frank", password: "f1")
        // A password that is not the stored one (git rejects the one that failed) leaves the item.
        try Git.credential("reject", helper: .seccli, "protocol=https\nhost=\(host)\nusername=erin\npassword=old\n")
        #expect(try Keychain.secretToolCount(["server", host]) == 2)
        try Git.credential("reject", helper: .seccli, "protocol=https\nhost=\(host)\nusername=erin\npassword=e1\n")
        let gone = try Git.credential(
            "fill",
            helper: .libsecret,
            "protocol=https\nhost=\(host)\nusername=erin\n",
            requiringSuccess: false
        )
        #expect(gone.status != 0 && gone.stdout.isEmpty)
        #expect(
            try Git.credential("fill", helper: .libsecret, "protocol=https\nhost=\(host)\n").stdoutLines
                .contains("password=f1")
        )
        #expect(try Keychain.secretToolCount(["server", host]) == 1)
    }

    @Test("password_expiry_utc and oauth_refresh_token go into the secret as git 2.42's helper encodes them")
    func expiryAndRefreshToken() throws {
        let host = Keychain.uniqueName("git") + ".example.com"
        let description =
            "capability[]=authtype\nprotocol=https\nhost=\(host)\nusername=gina\npassword=g1\n"
            + "password_expiry_utc=4102444800\noauth_refresh_token=r1\nwwwauth[]=Basic realm=\"x\"\n\n"
        try Tools.seccli(["cred", "git-helper", "store"], stdin: Array(description.utf8), expecting: .success)
        let stored = try SecretServiceSupport.secretTool(["lookup", "server", host, "user", "gina"])
        #expect(stored.stdoutText == "g1\npassword_expiry_utc=4102444800\noauth_refresh_token=r1")
        let got = try Tools.seccli(
            ["cred", "git-helper", "get"],
            stdin: Array("protocol=https\nhost=\(host)\nwwwauth[]=Basic\n\nignored=after the empty line\n".utf8),
            expecting: .success
        )
        #expect(
            got.stdoutText == "username=gina\npassword=g1\npassword_expiry_utc=4102444800\noauth_refresh_token=r1\n"
        )
        let listed = try Tools.seccli(["cred", "list", "--server", host, "--json"], expecting: .success)
        #expect(listed.stdoutText.contains("\"expires\" : \"2100-01-01T00:00:00Z\""), "\(listed.stdoutText)")
    }

    @Test(
        "an empty user name and an empty password: stored by either helper, the other answers username= and password=",
        arguments: [(GitHelper.seccli, GitHelper.libsecret), (.libsecret, .seccli), (.seccli, .seccli)]
    )
    func emptyUserNameAndPassword(storer: GitHelper, reader: GitHelper) throws {
        let host = Keychain.uniqueName("sso") + ".example.com"
        try Git.approve(storer, host: host, username: "", password: "")
        #expect(try Keychain.secretToolCount(["server", host, "user", ""]) == 1)
        let expected = "protocol=https\nhost=\(host)\nusername=\npassword=\n"
        for query in ["protocol=https\nhost=\(host)\n", "protocol=https\nhost=\(host)\nusername=\n"] {
            #expect(try Git.credential("fill", helper: reader, query).stdoutText == expected, "\(query)")
        }
        // A named user is another login; the empty one is removed by a reject naming it.
        let other = try Git.credential(
            "fill",
            helper: reader,
            "protocol=https\nhost=\(host)\nusername=carol\n",
            requiringSuccess: false
        )
        #expect(other.status != 0 && other.stdout.isEmpty)
        try Git.credential("reject", helper: reader, "protocol=https\nhost=\(host)\nusername=\n")
        #expect(try Keychain.secretToolCount(["server", host]) == 0)
    }

    @Test("an empty password of a named user is answered as password=, not left out (git would prompt)")
    func emptyPassword() throws {
        let host = Keychain.uniqueName("git") + ".example.com"
        try Git.approve(.libsecret, host: host, username: "kim", password: "")
        let got = try Tools.seccli(
            ["cred", "git-helper", "get"],
            stdin: Array("protocol=https\nhost=\(host)\n".utf8),
            expecting: .success
        )
        #expect(got.stdoutText == "username=kim\npassword=\n")
    }

    @Test(
        "host=H: and host=H:0 name host H without a port, as git's helper stores them; [::1] keeps its colons",
        arguments: [":", ":0"]
    )
    func hostWithoutPort(suffix: String) throws {
        let server = Keychain.uniqueName("git") + ".example.com"
        for (storer, reader) in [(GitHelper.seccli, GitHelper.libsecret), (.libsecret, .seccli)] {
            let password = randomPrintable(12)
            try Git.credential(
                "approve",
                helper: storer,
                "protocol=https\nhost=\(server)\(suffix)\nusername=lee\npassword=\(password)\n"
            )
            // One item, server H and no port, whichever helper stored it (the second replaces the first).
            #expect(try Keychain.secretToolCount(["server", server]) == 1, "\(storer)")
            let search = try SecretServiceSupport.secretTool(["search", "--all", "server", server])
            #expect(!search.stderr.contains("attribute.port"), "\(storer): \(search.stderr)")
            for host in [server, server + suffix] {
                let filled = try Git.credential("fill", helper: reader, "protocol=https\nhost=\(host)\n")
                #expect(filled.stdoutLines.last == "password=\(password)", "\(storer) then \(reader), host=\(host)")
            }
        }
        let literal = try Tools.seccli(
            ["cred", "git-helper", "store"],
            stdin: Array("protocol=https\nhost=[::1]\nusername=\(server)\npassword=p\n".utf8)
        )
        #expect(literal.status == 0, "\(literal.stderr)")
        #expect(try Keychain.secretToolCount(["server", "[::1]", "user", server]) == 1)
        try Git.credential("reject", helper: .seccli, "protocol=https\nhost=[::1]\nusername=\(server)\n")
        let tooLarge = try Tools.seccli(
            ["cred", "git-helper", "store"],
            stdin: Array("protocol=https\nhost=\(server):65536\nusername=lee\npassword=p\n".utf8)
        )
        expectOneLineError(tooLarge, status: 2)
    }

    @Test("git's own t/t0303-credential-external.sh (git's test library, the installed git) passes against seccli")
    func gitsOwnHelperTest() throws {
        let tests = try GitTests.directory()
        try withScratch { scratch in
            // The helper must be one word for t0303 (its clean-up passes it unquoted).
            let seccli = try Tools.seccliExecutable()
            let helper = try scratch.write(
                "git-credential-seccli",
                "#!/bin/sh\nexec '\(seccli)' cred git-helper \"$@\"\n"
            )
            #expect(chmod(helper, 0o755) == 0)
            // A nested private session: t0303 expects no login for example.com, sso.tld, … at its start.
            let result = try Keychain.inNestedSession(
                """
                cd '\(tests)/t'
                GIT_TEST_INSTALLED="$(dirname "$(command -v git)")" GIT_TEST_CREDENTIAL_HELPER='\(helper)' \\
                  TEST_OUTPUT_DIRECTORY='\(scratch.path)' SECCLI_BACKEND=secret-service \\
                  sh t0303-credential-external.sh -v
                """
            )
            #expect(result.status == 0, "\(result.stdoutText)\n\(result.stderr)")
            #expect(result.stdoutLines.filter { $0.hasPrefix("ok ") }.count == 12, "\(result.stdoutText)")
            #expect(result.stdoutLines.contains("# passed all 12 test(s)"), "\(result.stdoutText)")
        }
    }

    @Test("no Secret Service: get answers nothing, quietly, with exit 13, at once; git then fails without prompting")
    func missingSecretService() throws {
        let start = ContinuousClock.now
        let result = try Tools.seccli(
            ["cred", "git-helper", "get"],
            stdin: Array("protocol=https\nhost=example.com\n".utf8),
            environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent-seccli-test/bus"],
            timeout: .seconds(20)
        )
        #expect(result.status == 13)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        #expect(ContinuousClock.now - start < .seconds(5))
        let filled = try Git.credential(
            "fill",
            helper: .seccli,
            "protocol=https\nhost=example.com\n",
            environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent-seccli-test/bus"],
            requiringSuccess: false
        )
        #expect(filled.status != 0 && filled.stdout.isEmpty)
        #expect(!filled.stderr.contains("seccli"), "\(filled.stderr)")
    }

    @Test("a locked keyring: get answers nothing, quietly, with exit 12")
    func lockedKeyring() throws {
        let result = try Keychain.inNestedSession(
            """
            printf 'protocol=https\\nhost=locked.example.com\\nusername=hal\\npassword=h1\\n' | "$SECCLI" cred git-helper store
            dbus-send --session --print-reply --dest=org.freedesktop.secrets /org/freedesktop/secrets \
              org.freedesktop.Secret.Service.Lock array:objpath:/org/freedesktop/secrets/collection/login >/dev/null
            status=0
            out=$(printf 'protocol=https\\nhost=locked.example.com\\n' | "$SECCLI" cred git-helper get --timeout 5 2>"$err") \
              || status=$?
            echo "get $status [$out] [$(cat "$err")]"
            """
        )
        try #require(result.status == 0, "nested session: \(result.stderr)")
        #expect(result.stdoutText == "get 12 [] []\n")
    }
}

/// The two helpers git is configured with in these tests.
enum GitHelper: CaseIterable, CustomTestStringConvertible {
    case seccli
    case libsecret

    var testDescription: String { self == .seccli ? "seccli" : "git-credential-libsecret" }

    /// The `credential.helper` value: a shell command git appends the operation to.
    func configuration() throws -> String {
        switch self {
        case .seccli: "!'\(try Tools.seccliExecutable())' cred git-helper"
        case .libsecret: try GitLibsecret.path.get()
        }
    }
}

/// git's libsecret helper, built once from the source Debian's git package ships in its
/// documentation folder (`make` with gcc, pkg-config and libsecret-1-dev; tools/install-deps).
enum GitLibsecret {
    static let source = "/usr/share/doc/git/contrib/credential/libsecret"

    static let path = Result { () throws -> String in
        // A copy in a folder of this test process, removed when it exits.
        let folder = try Scratch.untilExit("git-libsecret").path("libsecret")
        try FileManager.default.copyItem(atPath: source, toPath: folder)
        _ = try ProcessRunner.run("make", ["-C", folder], timeout: .seconds(120))
            .requiringSuccess(of: "make in a copy of \(source) (needs gcc, make, pkg-config, libsecret-1-dev)")
        return folder + "/git-credential-libsecret"
    }
}

/// git's own tests, from the source of the installed git package (tools/install-deps fetches it with
/// `apt-get source git`: Debian's git package ships no tests): the folder with `t/`, git's test
/// library and `t/t0303-credential-external.sh`.
enum GitTests {
    static func directory() throws -> String {
        let path = ProcessInfo.processInfo.environment["SECKIT_GIT_TESTS"] ?? "/usr/local/share/seckit/git-tests"
        try #require(
            FileManager.default.fileExists(atPath: path + "/t/t0303-credential-external.sh"),
            "git's test suite is not in \(path): run tools/install-deps"
        )
        return path
    }
}

/// `git credential OPERATION` with exactly one helper configured, isolated from the user's and the
/// system's git configuration, and never prompting.
enum Git {
    /// `git credential approve` of a login for https://HOST.
    static func approve(_ helper: GitHelper, host: String, username: String, password: String) throws {
        try credential(
            "approve",
            helper: helper,
            "protocol=https\nhost=\(host)\nusername=\(username)\npassword=\(password)\n"
        )
    }

    @discardableResult
    static func credential(
        _ operation: String,
        helper: GitHelper,
        _ description: String,
        useHttpPath: Bool = false,
        environment: [String: String] = [:],
        requiringSuccess: Bool = true
    ) throws -> ProcessResult {
        let arguments = [
            "-c", "credential.helper=", "-c", "credential.helper=\(try helper.configuration())",
            "-c", "credential.useHttpPath=\(useHttpPath)", "credential", operation,
        ]
        let result = try ProcessRunner.run(
            "git",
            arguments,
            stdin: Array((description + "\n").utf8),
            environment: environment.merging([
                "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_TERMINAL_PROMPT": "0",
                "SECCLI_BACKEND": "secret-service",
            ]) { _, fixed in fixed },
            unsetting: ["GIT_ASKPASS", "SSH_ASKPASS", "GIT_CONFIG_PARAMETERS"]
        )
        guard requiringSuccess else { return result }
        return try result.requiringSuccess(of: "git credential \(operation) with \(helper.testDescription)")
    }
}
