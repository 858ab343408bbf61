import TestSupport
import Testing

/// `cred get` and `sso token` are read by `HotCommandLine` (seccli's start-up shortcut for
/// the commands tools run once per use); help and usage errors must still be those of the whole
/// command tree: the full command path, one `seccli:` line, exit 64. No keychain is needed.
@Suite("seccli cred get / sso token: help and usage errors as for every command")
struct HotCommandTests {
    @Test(
        "--help and -h name the command by its whole path",
        arguments: [["cred", "get"], ["sso", "token"]],
        ["--help", "-h"]
    )
    func helpNamesTheWholePath(command: [String], flag: String) throws {
        let result = try Tools.seccli(command + [flag])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(
            result.stdoutText.contains("USAGE: seccli \(command.joined(separator: " ")) "),
            "stdout: \(result.stdoutText)"
        )
    }

    @Test(
        "an unknown option is a one-line usage error (exit 64)",
        arguments: [["cred", "get", "--service", "s", "--account", "a"], ["sso", "token", "--group", "g"]]
    )
    func unknownOption(command: [String]) throws {
        let result = try Tools.seccli(command + ["--no-such-option"])
        expectOneLineError(result, status: 64)
        #expect(result.stderr.contains("--no-such-option"), "stderr: \(result.stderr)")
    }

    /// `seccli --version` alone is answered before ArgumentParser's set-up: the same line as
    /// ArgumentParser prints when the option comes with anything else (`--version --version`).
    @Test("seccli --version prints what ArgumentParser's --version prints")
    func versionAlone() throws {
        let hot = try Tools.seccli(["--version"])
        let parsed = try Tools.seccli(["--version", "--version"])
        #expect(hot.status == 0 && parsed.status == 0, "stderr: \(hot.stderr) \(parsed.stderr)")
        #expect(hot.stdoutText == "0.1.0\n")
        #expect(hot.stdoutText == parsed.stdoutText)
    }

    @Test("seccli's --version is still answered after cred get")
    func versionAfterTheCommand() throws {
        let result = try Tools.seccli(["cred", "get", "--service", "s", "--account", "a", "--version"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdoutText == "0.1.0\n")
    }
}
