import ArgumentParser
import SecKit

extension SecCLI.IdentityCommand {
    struct IdentityDelete: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete the identity stored under this name. Exits 10 when there is none."
        )

        @OptionGroup var name: IdentityNameOptions
        @OptionGroup var store: IdentityStoreOptions

        func run() throws {
            try store.identityStore().delete(named: name.name)
        }
    }
}
