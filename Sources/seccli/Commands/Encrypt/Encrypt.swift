import ArgumentParser
import SecKit

extension SecCLI {
    struct Encrypt: CipherCommand {
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

    struct Decrypt: CipherCommand {
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

/// `encrypt` and `decrypt`: the same options and the same work, in one direction or the other.
protocol CipherCommand: ParsableCommand {
    static var direction: CipherStream.Direction { get }
    var options: CipherOptions { get }
}

extension CipherCommand {
    func runCipher() throws {
        if options.resolvedFormat.isEnvelope {
            try runSealed()
        } else {
            try runStream()
        }
    }

    /// Where the output goes. A regular (or new) --out file, or the file a link names, is replaced
    /// atomically (`atomic`); anything else (standard output, a device such as /dev/null, a FIFO,
    /// /dev/fd/N) is written in place.
    func destination() throws -> (sink: ByteSink, atomic: Bool) {
        guard let outputPath = options.outputPath else { return (DescriptorOutput.standardOutput(), false) }
        let sink = try FileDestination.open(outputPath)
        return (sink, sink is AtomicFileOutput)
    }
}
