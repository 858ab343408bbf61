import Foundation
import TestSupport
import Testing

/// The shipped seccli (tools/build-release's, which tools/test passes in SECCLI) links neither
/// libsecret nor GIO: `cred get` loads GIO and reads over GDBus, and never maps libsecret or
/// libgcrypt (nor libcurl and libssl, which it does not use); the first write loads libsecret.
/// Read from the dynamic loader's own trace (glibc's `LD_DEBUG=libs`). Without a usable GIO, every
/// Secret Service command fails with one line that names it, and exit 1.
@Suite(
    "seccli cred: GIO is loaded by the Secret Service, libsecret by writes only (the release binary)",
    .enabled(if: SecretServiceSupport.hasPrivateSecretService, SecretServiceSupport.privateSessionOnly),
    .enabled(
        if: ProcessInfo.processInfo.environment["SECCLI"] != nil,
        "needs SECCLI: the binary of tools/build-release (the debug build links libsecret and GIO)"
    )
)
struct CredLibraryLoadingTests {
    @Test("cred get and sso token map no libsecret; cred set loads it, and what it wrote is read back")
    func libsecretOnlyForWrites() throws {
        let service = Keychain.uniqueName("loading")
        let secret = randomPrintable(24)
        let traced = ["SECCLI_BACKEND": "secret-service", "LD_DEBUG": "libs"]
        let set = try Tools.seccli(
            ["cred", "set", "--service", service, "--account", "alice"],
            stdin: Array(secret.utf8),
            environment: traced
        )
        #expect(set.status == 0, "stderr: \(set.stderr.suffix(500))")
        let setLoadedLibsecret = set.stderr.split(separator: "\n").contains {
            $0.contains("calling init: ") && $0.contains("libsecret-1.so")
        }
        #expect(setLoadedLibsecret, "cred set did not load libsecret")

        let get = try Tools.seccli(["cred", "get", "--service", service, "--account", "alice"], environment: traced)
        #expect(get.status == 0)
        #expect(get.stdoutText == secret)
        // The loader's trace is there (so an absent name means something), and names neither library.
        #expect(get.stderr.contains("calling init: "), "no LD_DEBUG trace from cred get")
        // Nor libcurl, which SecCurl loads only to post (a pin-failure report, an OpenBao request), nor
        // libssl, which SecTLS loads for TLS only (LinkageTests).
        let getMapped = ["libsecret", "libgcrypt", "libcurl", "libssl"].filter { get.stderr.contains($0) }
        #expect(getMapped.isEmpty, "cred get mapped \(getMapped)")
        // GIO is loaded by the read itself (the binary does not name it: LinkageTests), and brings GLib.
        let getLoaded = get.stderr.split(separator: "\n").filter { $0.contains("calling init: ") }
        for library in ["libgio-2.0.so", "libgobject-2.0.so", "libglib-2.0.so"] {
            #expect(getLoaded.contains { $0.contains(library) }, "cred get did not load \(library)")
        }

        let group = Keychain.uniqueName("loading-group")
        try Tools.seccli(
            ["sso", "login", "--group", group, "--user", "alice"],
            stdin: Array("token-1".utf8),
            environment: ["SECCLI_BACKEND": "secret-service"],
            expecting: .success
        )
        let token = try Tools.seccli(["sso", "token", "--group", group], environment: traced)
        #expect(token.status == 0)
        #expect(token.stdoutText == "token-1")
        #expect(token.stderr.contains("calling init: "), "no LD_DEBUG trace from sso token")
        let tokenMapped = ["libsecret", "libgcrypt", "libssl"].filter { token.stderr.contains($0) }
        #expect(tokenMapped.isEmpty, "sso token mapped \(tokenMapped)")
    }

    /// A libgio-2.0.so.0 that is no library, and one that lacks GIO's functions, each found first
    /// through `LD_LIBRARY_PATH`: the Secret Service's commands end with `backendFailure` (exit 1)
    /// and one line naming GIO and the package, and nothing on standard output; `--version` and the
    /// file backend, which never load GIO, still work.
    @Test("a GIO that cannot be loaded, or lacks a function, is one error line and exit 1", arguments: [false, true])
    func unusableGIO(lacksFunctions: Bool) throws {
        try withScratch { scratch in
            let stub = scratch.path("libgio-2.0.so.0")
            if lacksFunctions {
                let source = try scratch.write("stub.c", "int seckit_not_gio;\n")
                try ProcessRunner.run("gcc", ["-shared", "-fPIC", "-Wl,-soname,libgio-2.0.so.0", "-o", stub, source])
                    .requiringSuccess(of: "gcc -shared (a stand-in libgio-2.0.so.0)")
            } else {
                _ = try scratch.write("libgio-2.0.so.0", "not a shared library\n")
            }
            let environment = ["SECCLI_BACKEND": "secret-service", "LD_LIBRARY_PATH": scratch.path]
            for arguments in [
                ["cred", "get", "--service", Keychain.uniqueName("no-gio"), "--account", "a"],
                ["cred", "list", "--service", Keychain.uniqueName("no-gio")],
                ["sso", "token", "--group", Keychain.uniqueName("no-gio")],
            ] {
                let run = try Tools.seccli(arguments, environment: environment)
                #expect(run.status == 1, "\(arguments): \(run.stderr)")
                #expect(run.stdout.isEmpty)
                let expected =
                    lacksFunctions
                    ? "seccli: Secret Service: GIO lacks a function SecKit needs ("
                    : "seccli: Secret Service: GIO could not be loaded ("
                #expect(run.stderr.hasPrefix(expected), "\(arguments): \(run.stderr)")
                #expect(run.stderr.split(separator: "\n").count == 1, "\(arguments): \(run.stderr)")
                #expect(
                    run.stderr.contains(
                        lacksFunctions ? "GLib 2.32 or newer is needed" : "install it (Debian and Ubuntu: libglib2.0-0)"
                    )
                )
            }
            try Tools.seccli(["--version"], environment: environment, expecting: .success)
            try Tools.seccli(
                [
                    "cred", "get", "--backend", "file", "--store-file", scratch.path("none.store"), "--service", "c",
                    "--account", "a",
                ],
                environment: environment.merging(["SECCLI_STORE_PASSWORD": "pw"]) { $1 },
                expecting: .status(10)
            )
        }
    }
}
