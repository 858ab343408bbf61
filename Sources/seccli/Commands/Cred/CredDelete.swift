import ArgumentParser
import SecKit

extension SecCLI.CredCommand {
    struct CredDelete: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete the item with this identity (every copy of it). Exits 10 when there is none."
        )

        @OptionGroup var credential: CredentialOptions
        @OptionGroup var store: StoreOptions

        func validate() throws {
            _ = try credential.identity()
        }

        func run() throws {
            try store.open().delete(try credential.identity(), timeout: store.timeLimit)
        }
    }
}
