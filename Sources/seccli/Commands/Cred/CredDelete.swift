import ArgumentParser
import SecKit

extension SecCLI.CredCommand {
    struct CredDelete: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete the item with this identity (every copy of it). Exits 10 when there is none.",
            discussion: """
                With --all, deletes every item the options match, in every group unless --group is \
                given (as 'cred list' with the same options lists them), and prints 'removed N items'. \
                --all needs a scope: --group, --service or --server (or several of them).
                """
        )

        @OptionGroup var credential: CredentialOptions

        @Flag(help: "Delete every item the options match; needs --group, --service or --server.")
        var all = false

        @OptionGroup var store: StoreOptions

        func validate() throws {
            guard all else {
                _ = try credential.identity()
                return
            }
            guard credential.group != nil || credential.service != nil || credential.server != nil else {
                throw ValidationError("--all needs a scope: --group G, --service S or --server H")
            }
        }

        func run() throws {
            let keychain = try store.open()
            guard all else {
                try keychain.delete(try credential.identity(), timeout: store.timeLimit)
                return
            }
            let removed = try keychain.deleteAll(matching: credential.search, timeout: store.timeLimit)
            print("removed \(removed) item\(removed == 1 ? "" : "s")")
        }
    }
}
