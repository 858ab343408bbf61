import ArgumentParser
import SecKit

extension SecCLI.CredCommand {
    struct CredGet: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "get",
            abstract: "Write an item's secret to standard output, byte for byte.",
            discussion: """
                A newline follows the secret only when standard output is a terminal, so \
                'seccli cred get … > file' or '$(seccli cred get …)' gets exactly the stored bytes. \
                An item past its --expires date exits 11 unless --ignore-expiry is given.
                """
        )

        @OptionGroup var credential: CredentialOptions

        @Flag(help: "Print the secret even when the item has expired.")
        var ignoreExpiry = false

        @OptionGroup var store: StoreOptions

        func validate() throws {
            _ = try credential.identity()
        }

        func run() throws {
            let stored = try store.open().expiringSecret(for: try credential.identity(), timeout: store.timeLimit)
            if let expiresAt = stored.expiresAt, stored.isExpired(), !ignoreExpiry {
                throw Failure(
                    message:
                        "the item expired at \(expiresAt.formatted(.iso8601)): store a new secret with 'seccli cred set' (or use --ignore-expiry)",
                    exitCode: .expired
                )
            }
            try SecretOutput.write(stored.secret)
        }
    }
}

extension SecCLI.CredCommand.CredGet: HotReadable {
    static var hotOptions: [HotOption<Self>] {
        [.group { $0.credential = $1 }, .flag("--ignore-expiry") { $0.ignoreExpiry = $1 }, .group { $0.store = $1 }]
    }
}
