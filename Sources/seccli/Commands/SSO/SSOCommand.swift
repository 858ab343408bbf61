import ArgumentParser
import SecKit

extension SecCLI {
    struct SSOCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sso",
            abstract: "Single sign-on for a family of tools sharing an access group: log in once, every tool finds the token.",
            discussion: """
                login stores the user name and a token in the group; token prints the token while it is \
                valid; user prints the user name; logout deletes the token and keeps the user name. \
                Every process of the same user can read the unlocked keyring: a group is a shared \
                namespace, not an isolation boundary.

                \(keychainExitCodes)
                """,
            subcommands: [SSOLogin.self, SSOToken.self, SSOUser.self, SSOLogout.self]
        )
    }
}

/// `--group` and the store options of every `sso` subcommand.
struct SSOOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The access group the tools share.", valueName: "name"))
    var group: String

    @OptionGroup var store: StoreOptions

    func singleSignOn() throws -> SingleSignOn {
        SingleSignOn(group: group, store: try store.open(), timeout: store.timeLimit)
    }

}

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

        @Option(help: ArgumentHelp("When the token stops being valid, ISO 8601 (2026-12-31T23:59:59Z or 2026-12-31).", valueName: "date"))
        var expires: ExpiryDate?

        @Option(help: ArgumentHelp("Where to read the token: env:VAR, file:PATH, fd:N or stdin, all of it. Default: all of standard input.", valueName: "source"))
        var token: String?

        @OptionGroup var sso: SSOOptions

        func validate() throws {
            if try tokenSource()?.readsStandardInput ?? true, sso.store.passwordReadsStandardInput {
                throw ValidationError("the token and --store-password cannot both come from standard input")
            }
        }

        func run() throws {
            let singleSignOn = try sso.singleSignOn()
            let bytes = try SecretInput.read(from: try tokenSource(), what: "Token", limit: sso.store.maximumSecretByteCount)
            try singleSignOn.login(user: user, token: bytes, expiresAt: expires?.date)
        }

        private func tokenSource() throws -> SecretSource? {
            try token.map { try secretSource($0, option: "--token") }
        }
    }

    struct SSOToken: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "token",
            abstract: "Print the group's token, byte for byte (a newline only on a terminal). Exits 10 when there is none, 11 when it expired."
        )

        @OptionGroup var sso: SSOOptions

        func run() throws {
            switch try sso.singleSignOn().tokenState() {
            case .valid(let token, _):
                try SecretOutput.write(token)
            case .expired(let date):
                throw Failure(
                    message: "the SSO token of group \(sso.group) expired at \(date.formatted(.iso8601)): log in again with 'seccli sso login'",
                    exitCode: .expired)
            case .absent:
                throw Failure(message: "no SSO token in group \(sso.group): log in with 'seccli sso login'", exitCode: .notFound)
            }
        }
    }

    struct SSOUser: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "user",
            abstract: "Print the user name of the group's last login (kept after logout). Exits 10 when nobody logged in."
        )

        @OptionGroup var sso: SSOOptions

        func run() throws {
            guard let user = try sso.singleSignOn().currentUser() else {
                throw Failure(message: "nobody has logged in to group \(sso.group)", exitCode: .notFound)
            }
            print(user)
        }
    }

    struct SSOLogout: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "logout",
            abstract: "Delete the group's token and keep the user name. Logging out twice is not an error."
        )

        @OptionGroup var sso: SSOOptions

        func run() throws {
            try sso.singleSignOn().logout()
        }
    }
}

extension SSOOptions {
    /// The options as `HotCommandLine` reads them (kept in step with the declarations above by seccliTests).
    static let hotNames = HotCommandLine.Names(options: ["--group"]) + StoreOptions.hotNames

    static func read(_ line: HotCommandLine) throws(HotCommandLine.Declined) -> Self {
        var options = Self()
        guard let group = line.value("--group") else { throw HotCommandLine.Declined() }
        options.group = group
        options.store = try StoreOptions.read(line)
        return options
    }
}

extension SecCLI.SSOCommand.SSOToken {
    /// The command as `HotCommandLine` reads `arguments` (the words after `sso token`), validated
    /// as ArgumentParser validates it; nil leaves the line to ArgumentParser.
    static func read(hotArguments arguments: ArraySlice<String>) -> Self? {
        guard let line = HotCommandLine(arguments, names: SSOOptions.hotNames) else { return nil }
        var command = Self()
        do {
            command.sso = try SSOOptions.read(line)
            try command.sso.validate()
            try command.sso.store.validate()
            try command.validate()
        } catch {
            return nil
        }
        return command
    }
}
