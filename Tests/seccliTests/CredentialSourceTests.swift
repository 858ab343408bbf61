import Foundation
import TestSupport
import Testing

/// `credential:NAME` secret sources: systemd's `$CREDENTIALS_DIRECTORY/NAME` (`LoadCredential=`,
/// `LoadCredentialEncrypted=`), read as `file:` reads a file, and refused clearly outside a unit.
@Suite struct CredentialSourceTests {
    @Test func credentialSourcesReadTheCredentialsDirectory() throws {
        try withScratch { dir in
            let credentials = dir.path("credentials")
            try FileManager.default.createDirectory(atPath: credentials, withIntermediateDirectories: false)
            let key = randomPrintable(32)
            try Data((key + "\nnot part of the key\n").utf8).write(to: URL(fileURLWithPath: credentials + "/mac-key"))
            try dir.write("data.bin", randomBytes(3000))
            let fromCredential = try Tools.seccli(
                ["hmac", "--key", "credential:mac-key", "data.bin"],
                environment: ["CREDENTIALS_DIRECTORY": credentials],
                in: dir
            )
            #expect(fromCredential.status == 0, "\(fromCredential.stderr)")
            let openssl = try Tools.opensslHex(["-sha256", "-hmac", key, "data.bin"], in: dir)
            #expect(fromCredential.stdoutText.hasPrefix(openssl + "  "))

            // Outside a unit with credentials: one line that says so (2, an unreadable source).
            let outside = try Tools.seccli(
                ["hmac", "--key", "credential:mac-key", "data.bin"],
                unsetting: ["CREDENTIALS_DIRECTORY"],
                in: dir
            )
            #expect(outside.status == 2 && outside.stdout.isEmpty)
            #expect(outside.stderr.contains("CREDENTIALS_DIRECTORY is not set"), "\(outside.stderr)")
            let missing = try Tools.seccli(
                ["hmac", "--key", "credential:absent", "data.bin"],
                environment: ["CREDENTIALS_DIRECTORY": credentials],
                in: dir
            )
            #expect(missing.status == 2 && missing.stderr.contains("credential:absent"), "\(missing.stderr)")
            for bad in ["credential:", "credential:../mac-key", "credential:.."] {
                let refused = try Tools.seccli(
                    ["hmac", "--key", bad, "data.bin"],
                    environment: ["CREDENTIALS_DIRECTORY": credentials],
                    in: dir
                )
                #expect(refused.status == 64, "\(bad): \(refused.stderr)")
            }
        }
    }
}
