import Foundation
import TestSupport
import Testing

/// What `seccli cred` says when the Secret Service cannot be used: a child process with a changed
/// environment (no bus), a private bus without a provider, a private keyring that is locked or whose
/// daemon stops answering. Each gets its documented exit code and one line, within --timeout.
@Suite("seccli cred: no bus, no provider, locked, timeout")
struct CredErrorTests {
    static let lookup = ["cred", "get", "--service", "seccli-error-test", "--account", "alice", "--timeout", "3"]

    @Test("no session bus (DBUS_SESSION_BUS_ADDRESS unset, no display, empty XDG_RUNTIME_DIR): exit 13 at once")
    func noSessionBus() throws {
        try withScratch { scratch in
            let result = try Tools.seccli(
                Self.lookup,
                environment: ["XDG_RUNTIME_DIR": scratch.path, "SECCLI_BACKEND": "secret-service"],
                unsetting: ["DBUS_SESSION_BUS_ADDRESS", "DISPLAY", "WAYLAND_DISPLAY"],
                timeout: .seconds(20)
            )
            expectOneLineError(result, status: 13)
            #expect(result.stderr.contains("no D-Bus session bus"), "stderr: \(result.stderr)")
        }
    }

    @Test(
        "a malformed or dead DBUS_SESSION_BUS_ADDRESS: exit 13 (no session bus), not 1",
        arguments: ["garbage", "unix:path=/nonexistent-seccli-test/bus", "tcp:host=127.0.0.1,port=notaport"]
    )
    func malformedBusAddress(address: String) throws {
        for arguments in [Self.lookup, ["cred", "list", "--timeout", "3"]] {
            let result = try Tools.seccli(
                arguments,
                stdin: [],
                environment: ["DBUS_SESSION_BUS_ADDRESS": address, "SECCLI_BACKEND": "secret-service"],
                timeout: .seconds(20)
            )
            expectOneLineError(result, status: 13)
            #expect(result.stderr.contains("no D-Bus session bus"), "stderr: \(result.stderr)")
        }
    }

    @Test(
        "a Secret Service without a default keyring: set exits 13 and says so, get and delete 10, list an empty list"
    )
    func noDefaultCollection() throws {
        let seccli = try Tools.seccliExecutable()
        try withScratch { scratch in
            try FileManager.default.createDirectory(atPath: scratch.path("home"), withIntermediateDirectories: false)
            try FileManager.default.createDirectory(
                atPath: scratch.path("run"),
                withIntermediateDirectories: false,
                attributes: [.posixPermissions: 0o700]
            )
            // gnome-keyring started without --unlock or a login keyring: its `default` alias names none.
            let script = """
                set -u
                gnome-keyring-daemon --start --components=secrets >/dev/null
                for _ in $(seq 200); do
                  dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
                    org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets | grep -q "boolean true" && break
                  sleep 0.05
                done
                echo "alias $(dbus-send --session --print-reply --dest=org.freedesktop.secrets /org/freedesktop/secrets \
                  org.freedesktop.Secret.Service.ReadAlias string:default | awk '/object path/ { print $3 }')"
                item="--service no-default-test --account alice --timeout 5"
                for command in set get delete list; do
                  status=0; printf s3cret | "$SECCLI" cred $command $item >"$HOME/out" 2>"$HOME/err" || status=$?
                  echo "$command $status $(wc -l <"$HOME/err") $(wc -c <"$HOME/out") $(head -1 "$HOME/err")"
                done
                """
            let result = try ProcessRunner.run(
                "dbus-run-session",
                ["--", "bash", "-c", script],
                environment: [
                    "HOME": scratch.path("home"), "XDG_RUNTIME_DIR": scratch.path("run"), "SECCLI": seccli,
                    "SECCLI_BACKEND": "secret-service",
                ],
                unsetting: ["DBUS_SESSION_BUS_ADDRESS", "DISPLAY", "WAYLAND_DISPLAY"],
                timeout: .seconds(60)
            )
            let lines = result.stdoutLines
            try #require(lines.count == 5, "stdout: \(result.stdoutText) stderr: \(result.stderr)")
            try #require(lines[0] == "alias \"/\"", "the private daemon has a default keyring: \(lines[0])")
            #expect(lines[1].hasPrefix("set 13 1 0 seccli: the Secret Service has no default keyring"), "\(lines[1])")
            #expect(lines[2].hasPrefix("get 10 1 0 seccli: no matching item"), "\(lines[2])")
            #expect(lines[3].hasPrefix("delete 10 1 0 seccli: no matching item"), "\(lines[3])")
            #expect(lines[4] == "list 0 0 0 ", "\(lines[4])")
        }
    }

    @Test("a private bus without a Secret Service provider (no service directories): exit 13")
    func noProvider() throws {
        try withScratch { scratch in
            // A session bus that cannot activate anything: no <servicedir>, no <standard_session_servicedirs/>.
            let config = try scratch.write(
                "bus.conf",
                """
                <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
                 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
                <busconfig>
                  <type>session</type>
                  <listen>unix:dir=\(scratch.path)</listen>
                  <auth>EXTERNAL</auth>
                  <policy context="default">
                    <allow send_destination="*" eavesdrop="true"/>
                    <allow eavesdrop="true"/>
                    <allow own="*"/>
                  </policy>
                </busconfig>
                """
            )
            var result = try Tools.seccli(
                Self.lookup,
                environment: ["SECCLI_BACKEND": "secret-service"],
                under: ["dbus-run-session", "--config-file=\(config)", "--"],
                timeout: .seconds(30)
            )
            // dbus-daemon's own warnings (an unprivileged fd limit) are not seccli's output.
            result.stderr = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.hasPrefix("dbus-daemon[") }.joined(separator: "\n")
            expectOneLineError(result, status: 13)
            #expect(result.stderr.contains("no Secret Service"), "stderr: \(result.stderr)")
        }
    }

    @Test(
        "a locked keyring: get and list exit 12, not 10 (not found)",
        .enabled(if: SecretServiceSupport.hasPrivateSecretService, SecretServiceSupport.privateSessionOnly)
    )
    func lockedKeyring() throws {
        let result = try Keychain.inNestedSession(
            """
            printf s3cret | "$SECCLI" cred set --service locked-test --account alice
            dbus-send --session --print-reply --dest=org.freedesktop.secrets /org/freedesktop/secrets \
              org.freedesktop.Secret.Service.Lock array:objpath:/org/freedesktop/secrets/collection/login >/dev/null
            status=0; "$SECCLI" cred get --service locked-test --account alice --timeout 5 2>"$err" || status=$?
            echo "get $status $(cat "$err")"
            status=0; "$SECCLI" cred get --service never-stored --account alice --timeout 5 2>"$err" || status=$?
            echo "absent $status $(cat "$err")"
            status=0; "$SECCLI" cred list --service locked-test --timeout 5 2>"$err" >/dev/null || status=$?
            echo "list $status $(cat "$err")"
            """
        )
        try #require(result.status == 0, "nested session: \(result.stderr)")
        let lines = result.stdoutLines
        #expect(lines.count == 3, "\(lines)")
        for line in lines {
            #expect(line.contains(" 12 seccli: the keyring is locked"), "\(line)")
        }
    }

    @Test(
        "a Secret Service that stops answering: exit 14 within --timeout",
        .enabled(if: SecretServiceSupport.hasPrivateSecretService, SecretServiceSupport.privateSessionOnly)
    )
    func unresponsiveService() throws {
        // The daemon of the nested session only, found by its bus name, is stopped (SIGSTOP) and
        // continued afterwards so the session can end.
        let result = try Keychain.inNestedSession(
            """
            printf s3cret | "$SECCLI" cred set --service stopped-test --account alice
            pid=$(dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
              org.freedesktop.DBus.GetConnectionUnixProcessID string:org.freedesktop.secrets | awk '/uint32/ { print $2 }')
            kill -STOP "$pid"
            start=$(date +%s%N)
            status=0; "$SECCLI" cred get --service stopped-test --account alice --timeout 2 2>"$err" || status=$?
            end=$(date +%s%N)
            kill -CONT "$pid"
            echo "$status $(( (end - start) / 1000000 )) $(cat "$err")"
            """
        )
        try #require(result.status == 0, "nested session: \(result.stderr)")
        let fields = result.stdoutText.split(separator: " ", maxSplits: 2).map(String.init)
        try #require(fields.count == 3, "\(result.stdoutText)")
        #expect(fields[0] == "14", "\(result.stdoutText)")
        #expect(fields[2].hasPrefix("seccli: the keychain did not answer within"), "\(result.stdoutText)")
        // Not a benchmark: only that the command gave up instead of hanging (2 s asked, 10 s allowed).
        #expect(Int(fields[1]).map { $0 < 10_000 } == true, "took \(fields[1]) ms")
    }

    @Test(
        "usage errors: exit 64, one line, no secret echoed",
        arguments: [
            (["cred", "delete", "--service", "s"], "--account"),
            (["cred", "get", "--account", "a"], "--service"),
            (["cred", "get", "--service", "s", "--server", "h", "--account", "a"], "--server"),
            (["cred", "get", "--service", "s", "--account", "a", "--port", "443"], "it goes with --server"),
            (["cred", "get", "--server", "h", "--account", "a", "--port", "70000"], "--port"),
            (
                ["cred", "set", "--service", "s", "--account", "a", "--secret", "hunter2"],
                "not accepted on the command line"
            ),
            (["cred", "get", "--service", "s", "--account", "a", "--timeout", "0"], "--timeout"),
            (["cred", "get", "--service", "s", "--account", "a", "--backend", "kwallet"], "--backend"),
            (["sso", "token"], "--group"),
        ]
    )
    func usageErrors(arguments: [String], mentions: String) throws {
        let result = try Tools.seccli(arguments, stdin: [])
        expectOneLineError(result, status: 64)
        #expect(result.stderr.contains(mentions), "stderr: \(result.stderr)")
        #expect(!result.stderr.contains("hunter2"))
    }

    @Test("SECCLI_BACKEND with an unknown value: exit 64")
    func unknownBackendVariable() throws {
        let result = try Tools.seccli(["cred", "list"], environment: ["SECCLI_BACKEND": "kwallet"])
        expectOneLineError(result, status: 64)
        #expect(result.stderr.contains("SECCLI_BACKEND=kwallet"))
    }

    @Test("an unreadable --secret source: exit 2, nothing stored")
    func unreadableSecretSource() throws {
        try withScratch { scratch in
            let env = Keychain.fileBackend(scratch)
            let item = ["--service", "svc", "--account", "alice"]
            let result = try Tools.seccli(
                ["cred", "set"] + item + ["--secret", "file:\(scratch.path("missing"))"],
                environment: env
            )
            expectOneLineError(result, status: 2)
            #expect(!FileManager.default.fileExists(atPath: scratch.path("credentials.store")))
        }
    }
}
