import Foundation
import TestSupport
import Testing

/// `--format fernet` against Python's cryptography.fernet (Tests/Peers/fernet_peer.py): keys from
/// keygen and from Python, `--ttl`, and key rotation with several `--key`.
extension EnvelopeCLITests {
    @Test("a keygen --format fernet key (env and file) works with Python both ways; so does Python's generate-key")
    func fernetKeys() throws {
        try withScratch { dir in
            let generated = try Tools.seccli(["keygen", "--format", "fernet", "--out", "key.txt"], in: dir)
            try #require(generated.status == 0, "\(generated.stderr)")
            let seccliKey = String(decoding: try dir.read("key.txt"), as: UTF8.self).trimmingCharacters(in: .newlines)
            let pythonKey = try InteropPeer.fernet.run(["generate-key"]).stdoutText.trimmingCharacters(
                in: .whitespacesAndNewlines
            )
            let keyings: [(what: String, key: String, option: String)] = [
                ("seccli keygen key, file:", seccliKey, "file:key.txt"),
                ("seccli keygen key, env:", seccliKey, "env:FK"),
                ("Python generate-key, env:", pythonKey, "env:FK"),
            ]
            for keying in keyings {
                let environment = ["FK": keying.key]
                let plaintext = randomBytes(777)
                let token = try Self.tokenLine(
                    try Tools.seccli(
                        ["encrypt", "--format", "fernet", "--key", keying.option],
                        stdin: plaintext,
                        environment: environment,
                        in: dir,
                        expecting: .success
                    )
                )
                #expect(
                    base64URLDecode(token)?.first == 0x80,
                    "\(keying.what): not a Fernet token (version 0x80): \(token)"
                )
                let opened = try InteropPeer.fernet.run(
                    ["decrypt"],
                    stdin: Array(token.utf8),
                    environment: ["FERNET_KEY": keying.key]
                )
                expectSameBytes(opened.stdout, plaintext, "\(keying.what): Python does not recover seccli's plaintext")

                let theirs = try InteropPeer.fernet.run(
                    ["encrypt"],
                    stdin: plaintext,
                    environment: ["FERNET_KEY": keying.key]
                )
                let decrypted = try Tools.seccli(
                    ["decrypt", "--format", "fernet", "--key", keying.option],
                    stdin: theirs.stdout,
                    environment: environment,
                    in: dir,
                    expecting: .success
                )
                expectSameBytes(
                    decrypted.stdout,
                    plaintext,
                    "\(keying.what): seccli does not recover Python's plaintext"
                )
            }
        }
    }

    @Test(
        "--ttl 60 refuses a Python token dated 120 s ago (exit 1, 'expired'); without --ttl, or with a longer one, it decrypts"
    )
    func fernetTimeToLive() throws {
        try withScratch { dir in
            let key = fernetKey()
            let environment = ["FK": key]
            let plaintext = Array("transfer 100 to account 12345".utf8)
            let now = Int(Date().timeIntervalSince1970)
            try dir.write(
                "old.token",
                try InteropPeer.fernet.run(
                    ["encrypt", "--time", "\(now - 120)"],
                    stdin: plaintext,
                    environment: ["FERNET_KEY": key]
                ).stdout
            )
            let decrypt = ["decrypt", "--format", "fernet", "--key", "env:FK", "--in", "old.token"]
            let message = try expectRefused(
                decrypt + ["--ttl", "60"],
                environment: environment,
                in: dir,
                status: 1,
                mentions: ["expired"],
                sameMessage: false
            )  // "created 120 s ago", then 121
            #expect(message != Self.authenticationFailed)
            for accepted in [[], ["--ttl", "600"]] {
                let decrypted = try Tools.seccli(
                    decrypt + accepted,
                    environment: environment,
                    in: dir,
                    expecting: .success
                )
                #expect(decrypted.stdout == plaintext, "\(accepted)")
            }
        }
    }

    @Test(
        "two --key (old and new, either order) decrypt a token of either; Python's rotate output needs only the new one"
    )
    func fernetRotation() throws {
        try withScratch { dir in
            let old = fernetKey()
            let new = fernetKey()
            let environment = ["OLD": old, "NEW": new]
            let plaintext = randomBytes(100)
            let tokens = try [old, new].map { key in
                try InteropPeer.fernet.run(["encrypt"], stdin: plaintext, environment: ["FERNET_KEY": key]).stdout
            }
            for (index, token) in tokens.enumerated() {
                for keys in [["--key", "env:OLD", "--key", "env:NEW"], ["--key", "env:NEW", "--key", "env:OLD"]] {
                    let decrypted = try Tools.seccli(
                        ["decrypt", "--format", "fernet"] + keys,
                        stdin: token,
                        environment: environment,
                        expecting: .success
                    )
                    expectSameBytes(
                        decrypted.stdout,
                        plaintext,
                        "\(index == 0 ? "old" : "new") key's token with \(keys)"
                    )
                }
            }
            // Only the new key: the old token fails as any wrong key does.
            try dir.write("old.token", tokens[0])
            let message = try expectRefused(
                ["decrypt", "--format", "fernet", "--key", "env:NEW", "--in", "old.token"],
                environment: environment,
                in: dir,
                status: 1
            )
            #expect(message == Self.authenticationFailed)
            let rotated = try InteropPeer.fernet.run(
                ["rotate"],
                stdin: tokens[0],
                environment: ["FERNET_KEYS": "\(new),\(old)"]
            )
            let decrypted = try Tools.seccli(
                ["decrypt", "--format", "fernet", "--key", "env:NEW"],
                stdin: rotated.stdout,
                environment: environment,
                expecting: .success
            )
            expectSameBytes(decrypted.stdout, plaintext, "Python's rotated token")
        }
    }
}
