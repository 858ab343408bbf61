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
                An item past its --expires date exits 11 unless --ignore-expiry is given. Without \
                --account, as 'secret-tool lookup service S' does, the item is the one that matches \
                the options given; when several different ones do, exits 15.
                """
        )

        @OptionGroup var credential: CredentialOptions

        @Flag(help: "Print the secret even when the item has expired.")
        var ignoreExpiry = false

        @OptionGroup var store: StoreOptions

        func validate() throws {
            if credential.account == nil, credential.service != nil || credential.server != nil { return }
            _ = try credential.identity()
        }

        func run() throws {
            let opened = try store.open()
            let stored =
                credential.account == nil
                ? try onlyMatch(in: opened)
                : try opened.expiringSecret(for: try credential.identity(), timeout: store.timeLimit)
            if let expiresAt = stored.expiresAt, stored.isExpired(), !ignoreExpiry {
                throw Failure(
                    message:
                        "the item expired at \(expiresAt.formatted(.iso8601)): store a new secret with 'seccli cred set' (or use --ignore-expiry)",
                    exitCode: .expired
                )
            }
            try SecretOutput.write(stored.secret)
        }

        /// The one item the options match, copies of it aside: several different items are
        /// `ambiguous` (exit 15), where secret-tool would print whichever it found first.
        private func onlyMatch(in opened: any CredentialStore) throws -> ExpiringSecret {
            var query = credential.search
            query.limit = .one
            query.includeSecrets = true
            let item = try opened.search(query, timeout: store.timeLimit)[0]
            return ExpiringSecret(secret: item.secret ?? SecureBytes([UInt8]()), expiresAt: item.expiresAt)
        }
    }
}

extension SecCLI.CredCommand.CredGet: HotReadable {
    static var hotOptions: [HotOption<Self>] {
        [.group { $0.credential = $1 }, .flag("--ignore-expiry") { $0.ignoreExpiry = $1 }, .group { $0.store = $1 }]
    }
}
