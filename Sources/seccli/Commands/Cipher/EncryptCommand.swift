import ArgumentParser
import SecKit

extension SecCLI {
    struct EncryptCommand: CipherCommand {
        static let configuration = CommandConfiguration(
            commandName: "encrypt",
            abstract: "Encrypt a file or stream: openssl enc, raw, JWE, Fernet or the legacy JSON envelope.",
            discussion: """
                --format openssl (the default with --password) writes the 'openssl enc -pbkdf2' format \
                (Salted__ header), which 'openssl enc -d -<cipher> -pbkdf2 -iter N -md sha256' decrypts. \
                --format raw (the default with --key SOURCE --iv HEX) writes raw ciphertext, identical to \
                'openssl enc -<cipher> -K <hex> -iv <hex>'; for GCM, ciphertext followed by the 16-byte tag. \
                CBC is not authenticated: prefer aes-256-gcm for new data, and never reuse an IV or nonce \
                with the same key.

                Sealed payloads for other programs (one line of text, held in memory, up to 64 MiB): \
                --format jwe writes a compact JWE (RFC 7516) with --key (a JWK by default; --alg dir or \
                A128KW/A192KW/A256KW) or --password (PBES2, 210000 iterations by default); --enc picks \
                the content encryption (A256GCM by default). --format fernet writes a Fernet token with \
                --key (base64url, as Python prints it). --format legacy-json writes the legacy \
                {"iv","mac","payload"} envelope with --key and --mac-key: for old servers only (it MACs \
                the plaintext, not the ciphertext). 'seccli keygen' makes keys for all of them.
                """
        )

        static var direction: CipherStream.Direction { .encrypt }

        @OptionGroup var options: CipherOptions

        func validate() throws { try options.validate(for: Self.direction) }

        func run() throws { try runCipher() }
    }
}
