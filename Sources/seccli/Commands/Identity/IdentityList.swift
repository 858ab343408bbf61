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
                read, never a private key. --json prints an array of objects instead. An item of the \
                identities' service whose summary cannot be read (another tool wrote it, or it was \
                altered) is reported on standard error after the list, and the exit code is then 1.
                """
        )

        @Flag(help: "Print a JSON array of {name, subject, issuer, notAfter, expired, expiresSoon, pin} objects.")
        var json = false

        @OptionGroup var store: IdentityStoreOptions

        func run() throws {
            let list = try store.identityStore().list()
            if json {
                print(try Self.json(list.identities))
            } else {
                for identity in list.identities { print(Self.line(for: identity)) }
            }
            for item in list.unreadable {
                Diagnostics.error("identity \(UntrustedText.quoted(item.name)) not listed: \(item.error)")
            }
            if !list.unreadable.isEmpty { throw Failure(message: nil, exitCode: .checkFailed) }
        }
    }
}
