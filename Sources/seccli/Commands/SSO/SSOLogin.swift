import ArgumentParser
import SecKit

extension SecCLI.SSOCommand {
    struct SSOLogin: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "login",
            abstract: "Store the user name and a token for every tool of the group.",
            discussion: """
                The token is read from standard input (every byte when piped, a prompt without echo on a \
                terminal) or from --token SOURCE.
                """
        )

        @Option(help: ArgumentHelp("The user name (kept after logout).", valueName: "name"))
        var user: String

        @Option(
            help: ArgumentHelp(
                "When the token stops being valid, ISO 8601 (2026-12-31T23:59:59Z or 2026-12-31).",
                valueName: "date"
            )
        )
        var expires: ExpiryDate?

        @Option(
            help: ArgumentHelp(
                "Where to read the token: env:VAR, file:PATH, fd:N, stdin or keyring:SERVICE/ACCOUNT, all of it. Default: all of standard input.",
                valueName: "source"
            )
        )
        var token: String?

        @OptionGroup var sso: SSOOptions

        func validate() throws {
            try tokenInput.validate(with: sso.store)
        }

        func run() throws {
            let expiresAt = try expires?.date()  // a bad --expires is refused before the token is read
            let singleSignOn = try sso.singleSignOn()
            let bytes = try tokenInput.read(limit: sso.store.maximumSecretByteCount)
            try singleSignOn.login(user: user, token: bytes, expiresAt: expiresAt)
        }

        private var tokenInput: SecretInput { SecretInput(what: "Token", option: "--token", text: token) }
    }
}
