import ArgumentParser
import SecKit

extension SecCLI {
    struct DecryptCommand: CipherCommand {
        static let configuration = CommandConfiguration(
            commandName: "decrypt",
            abstract: "Decrypt what 'seccli encrypt', 'openssl enc', a JOSE library or Fernet wrote.",
            discussion: """
                Takes the same options as encrypt. A wrong key or password, a truncated file or any \
                altered byte fails with one message that says no more (no padding oracle), exit code 1, \
                and no output: --out is renamed into place only after the padding, MAC or tag verified, \
                and standard output is written only then.

                jwe: the token names its algorithms; --alg/--enc, when given, are the only ones accepted. \
                Give several --key (or a JWK Set) to decrypt with the key the token's kid names, or with \
                each in turn. fernet: several --key are tried in turn; --ttl refuses older tokens. \
                legacy-json: --mac-fields must match what the sender MACed.
                """
        )

        static var direction: CipherStream.Direction { .decrypt }

        @OptionGroup var options: CipherOptions

        func validate() throws { try options.validate(for: Self.direction) }

        func run() throws { try runCipher() }
    }
}
