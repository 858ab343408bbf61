import ArgumentParser
import SecKit

extension SecCLI.CredCommand {
    struct CredList: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the items matching every option given (all items without options). Never prints secrets.",
            discussion: """
                One line per item, most recently modified first: its identity, then label and expiry; \
                --json prints an array of objects instead. No match is not an error (an empty list).
                """
        )

        @OptionGroup var credential: CredentialOptions

        @Flag(
            help: """
                Print a JSON array of {class, service, server, protocol, port, path, authType, realm, account, group, \
                label, comment, expires, created, modified} objects.
                """
        )
        var json = false

        @OptionGroup var store: StoreOptions

        func run() throws {
            let items = try store.open().search(credential.search, timeout: store.timeLimit)
            if json {
                print(try Self.json(items))
            } else {
                for item in items { print(Self.line(for: item)) }
            }
        }
    }
}
