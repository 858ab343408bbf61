import Foundation
import TestSupport
import Testing

/// The shipped seccli (tools/build-release's, which tools/test passes in SECCLI) does not link
/// libsecret: `cred get` reads over GDBus and never maps libsecret or libgcrypt (nor libcurl and
/// libssl, which it does not use), and the first write loads libsecret. Read from the dynamic loader's own trace (glibc's `LD_DEBUG=libs`).
@Suite(
    "seccli cred: libsecret is loaded by writes only (the release binary)",
    .enabled(if: SecretServiceSupport.hasPrivateSecretService, SecretServiceSupport.privateSessionOnly),
    .enabled(
        if: ProcessInfo.processInfo.environment["SECCLI"] != nil,
        "needs SECCLI: the binary of tools/build-release (the debug build links libsecret)"
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
}
