import ArgumentParser
import SecKit

extension SecCLI {
    struct Encrypt: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Encrypt a file or stream, interoperable with 'openssl enc'.",
            discussion: """
                --password SOURCE writes the 'openssl enc -pbkdf2' format (Salted__ header), which \
                'openssl enc -d -<cipher> -pbkdf2 -iter N -md sha256' decrypts. --key SOURCE --iv HEX \
                writes raw ciphertext, identical to 'openssl enc -<cipher> -K <hex> -iv <hex>'; for GCM \
                the output is ciphertext followed by the 16-byte tag. CBC is not authenticated: prefer \
                aes-256-gcm for new data, and never reuse an IV or nonce with the same key.
                """
        )

        @OptionGroup var options: CipherOptions

        func run() throws { try options.run(.encrypt) }
    }

    struct Decrypt: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Decrypt what 'seccli encrypt' or 'openssl enc' wrote.",
            discussion: """
                Takes the same options as encrypt. A wrong key or password, a truncated file or any \
                altered byte fails with one message that says no more (no padding oracle), exit code 1, \
                and no output: --out is renamed into place only after the padding or GCM tag verified, \
                and standard output is written only then.
                """
        )

        @OptionGroup var options: CipherOptions

        func run() throws { try options.run(.decrypt) }
    }
}
