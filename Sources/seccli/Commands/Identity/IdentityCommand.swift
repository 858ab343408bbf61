import ArgumentParser
import SecKit

extension SecCLI {
    struct IdentityCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "identity",
            abstract: "Import, list and delete client identities (certificate and private key) kept in the keychain.",
            discussion: """
                An identity is stored under a name as one keychain item (service 'seckit-identity', the \
                name as account): its secret holds the certificate chain and the private key, its \
                attributes only the certificate's subject, issuer, expiry and key pin. \
                'seccli pin HOST --identity NAME' logs in with it (mutual TLS).

                \(ExitStatus.help(for: "identity"))
                """,
            subcommands: [IdentityImport.self, IdentityList.self, IdentityDelete.self]
        )
    }
}

/// `--name` of `identity import` and `identity delete`.
struct IdentityNameOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The name the identity is stored under.", valueName: "name"))
    var name: String

    func validate() throws {
        if name.isEmpty { throw ValidationError("--name must not be empty") }
    }
}

extension StoreOptionGroup {
    /// The identities kept in the store these options name.
    func identityStore() throws -> IdentityStore {
        IdentityStore(store: try open(), timeout: timeLimit)
    }
}
