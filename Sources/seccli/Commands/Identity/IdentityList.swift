import ArgumentParser
import SecKit

extension SecCLI.IdentityCommand {
    struct IdentityList: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the stored identities: name, subject, issuer, expiry and key pin. Never prints secrets.",
            discussion: """
                One line per identity, by name; an identity whose certificate expires within 30 days is \
                marked 'expires soon', one that has expired 'EXPIRED'. Only the items' attributes are \
                read, never a private key. --json prints an array of objects instead.
                """
        )

        @Flag(help: "Print a JSON array of {name, subject, issuer, notAfter, expired, expiresSoon, pin} objects.")
        var json = false

        @OptionGroup var store: StoreOptions

        func run() throws {
            let identities = try store.identityStore().identities()
            if json {
                print(try Self.json(identities))
            } else {
                for identity in identities { print(Self.line(for: identity)) }
            }
        }
    }
}
