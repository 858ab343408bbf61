import ArgumentParser
import SecKit

extension SecCLI.CredCommand {
    struct CredSet: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Store a secret, replacing the item with the same identity (exactly one is kept).",
            discussion: """
                The secret is read from standard input: every byte as it is when piped (NUL bytes and \
                a final newline included, as 'secret-tool store'), or one line behind a prompt without \
                echo on a terminal. --secret SOURCE reads it from env:VAR, file:PATH or fd:N instead \
                (all of it, newlines and NUL bytes included). Up to 1 MiB; more is refused, never cut. \
                --session keeps the item in the Secret Service's session collection, which ends with \
                the user's session (a copy in the login keyring is replaced); get, list and delete \
                find it as any other.
                """
        )

        @OptionGroup var credential: CredentialOptions
        @OptionGroup var attributes: CredentialAttributeOptions

        @Option(
            help: ArgumentHelp(
                "Where to read the secret: env:VAR, file:PATH, fd:N, stdin or keyring:SERVICE/ACCOUNT, all of it. Default: all of standard input.",
                valueName: "source"
            )
        )
        var secret: String?

        @Flag(help: "Keep the item only for this login session (the Secret Service's session collection).")
        var session = false

        @OptionGroup var store: StoreOptions

        func validate() throws {
            _ = try credential.identity()
            try secretInput.validate(with: store)
            if session { try store.requireSecretService(for: "--session") }
        }

        func run() throws {
            let attributes = try attributes.attributes()  // a bad --expires is refused before the secret is read
            let keychain = try store.open(collection: session ? .session : .default)
            let bytes = try secretInput.read(limit: store.maximumSecretByteCount)
            try keychain.upsert(
                try credential.identity(),
                secret: bytes,
                attributes: attributes,
                timeout: store.timeLimit
            )
        }

        private var secretInput: SecretInput { SecretInput(what: "Secret", option: "--secret", text: secret) }
    }
}
