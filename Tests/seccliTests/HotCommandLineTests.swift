import ArgumentParser
import Foundation
import TestSupport
import Testing

@testable import seccli

/// `cred get` and `sso token` are read by `HotCommandLine` instead of ArgumentParser (start-up
/// time). These tests keep the two readers in step: the same option names, the same command for
/// every line the hot reader takes, and every other line left to ArgumentParser.
@Suite("HotCommandLine reads cred get and sso token as ArgumentParser does")
struct HotCommandLineTests {
    typealias CredGet = SecCLI.CredCommand.CredGet
    typealias SSOToken = SecCLI.SSOCommand.SSOToken

    /// The long options and flags ArgumentParser declares for a command, from seccli's
    /// `--experimental-dump-help` (help and version excepted: the hot reader leaves them to ArgumentParser).
    static func declaredNames(_ command: [String]) throws -> HotCommandLine.Names {
        let result = try Tools.seccli(command + ["--experimental-dump-help"])
        try #require(result.status == 0, "stderr: \(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdoutText.utf8)) as? [String: Any])
        let arguments = try #require((json["command"] as? [String: Any])?["arguments"] as? [[String: Any]])
        var names = HotCommandLine.Names()
        for argument in arguments {
            let long = (argument["names"] as? [[String: String]] ?? []).filter { $0["kind"] == "long" }.compactMap {
                $0["name"]
            }
            guard let name = long.first.map({ "--\($0)" }), name != "--help", name != "--version" else { continue }
            switch argument["kind"] as? String {
            case "option": names.options.insert(name)
            case "flag": names.flags.insert(name)
            default: Issue.record("\(name): a \(argument["kind"] ?? "?") argument, which the hot reader does not read")
            }
        }
        return names
    }

    @Test("the hot reader knows exactly the options ArgumentParser declares")
    func sameNames() throws {
        for (command, hot) in [(["cred", "get"], CredGet.hotNames), (["sso", "token"], SSOToken.hotNames)] {
            let declared = try Self.declaredNames(command)
            #expect(hot.options == declared.options, "\(command): options")
            #expect(hot.flags == declared.flags, "\(command): flags")
        }
    }

    @Test(
        "a line the hot reader takes gives the command ArgumentParser parses",
        arguments: [
            ["--service", "s", "--account", "a"],
            ["--service", "s"],  // the one item of service s
            ["--account=a", "--service=s", "--group", "team", "--ignore-expiry"],
            ["--service", "a=b", "--account", "x y", "--group", "", "--timeout", "0.25"],
            ["--service=-dash", "--account=ünï", "--store-password", "fd:3", "--backend", "file"],
            ["--service", "s", "--account", "a", "--backend", "secret-service"],
            [
                "--server", "h.example", "--account", "a", "--protocol", "https", "--port", "8443", "--path", "/api",
                "--auth-type", "basic",
                "--backend", "file", "--store-file", "/tmp/store", "--store-password", "env:P", "--timeout", "2",
            ],
        ]
    )
    func credGetAsArgumentParser(line: [String]) throws {
        let hot = try #require(CredGet.read(hotArguments: line[...]), "the hot reader declined \(line)")
        let parsed = try CredGet.parse(line)
        #expect(String(describing: hot) == String(describing: parsed))
    }

    @Test(
        "an sso token line the hot reader takes gives the command ArgumentParser parses",
        arguments: [
            ["--group", "g"],
            [
                "--timeout=3", "--group=tools", "--backend", "file", "--store-file", "/tmp/s", "--store-password",
                "stdin",
            ],
        ]
    )
    func ssoTokenAsArgumentParser(line: [String]) throws {
        let hot = try #require(SSOToken.read(hotArguments: line[...]), "the hot reader declined \(line)")
        let parsed = try SSOToken.parse(line)
        #expect(String(describing: hot) == String(describing: parsed))
    }

    /// Help, version, usage and validation errors, and the unusual forms, go to ArgumentParser.
    @Test(
        "other lines are left to ArgumentParser",
        arguments: [
            ["--help"], ["-h"], ["--version"], [],
            ["--account", "a"],  // no --service or --server (validation)
            ["--service", "s", "--server", "h", "--account", "a"],  // both kinds (validation)
            ["--service", "s", "--account", "a", "--port", "80"],  // --port without --server (validation)
            ["--service", "s", "--account", "a", "--account", "b"],  // repeated
            ["--service", "s", "--account", "a", "extra"],  // positional
            ["--service", "s", "--account", "a", "--"],
            ["--service", "-s", "--account", "a"],  // value that looks like an option
            ["--service", "s", "--account"],  // missing value
            ["--service", "s", "--account", "a", "--no-such-option", "x"],
            ["--server", "h", "--account", "a", "--port", "http"],  // not an Int
            ["--service", "s", "--account", "a", "--backend", "keyring"],
            ["--service", "s", "--account", "a", "--timeout", "0"],
            ["--service", "s", "--account", "a", "--store-password", "plain-text"],
            ["--service", "s", "--account", "a", "--backend", "secret-service", "--store-file", "/tmp/s"],
            ["--service", "s", "--account", "a", "--ignore-expiry=yes"],
            ["--service", "s", "--account", "a", "--group="],  // ArgumentParser: a missing value
            ["--service", "s", "--account", "a", "--ignore-expiry", "--ignore-expiry"],
        ]
    )
    func credGetDeclined(line: [String]) {
        #expect(CredGet.read(hotArguments: line[...]) == nil)
    }

    @Test(
        "sso token lines left to ArgumentParser",
        arguments: [[], ["--group", "g", "--group", "h"], ["--group"], ["-h"], ["--group", "g", "--timeout", "-1"]]
    )
    func ssoTokenDeclined(line: [String]) {
        #expect(SSOToken.read(hotArguments: line[...]) == nil)
    }
}
