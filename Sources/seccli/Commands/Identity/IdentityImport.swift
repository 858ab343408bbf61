import ArgumentParser
import SecKit

extension SecCLI.IdentityCommand {
    struct IdentityImport: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Store a client identity from a PKCS#12 file or a PEM certificate chain and key.",
            discussion: """
                The identity is loaded and checked first (the key must belong to the certificate), then \
                stored, replacing an identity of the same name; its summary is printed as 'list' prints \
                it. Passphrases come from a source (env:VAR, file:PATH, fd:N, stdin); the stored key is \
                protected by the keychain, not by them.
                """
        )

        @OptionGroup var name: IdentityNameOptions
        @OptionGroup var files: ClientIdentityOptions
        @OptionGroup var store: IdentityStoreOptions

        func validate() throws {
            if files.p12 == nil && files.cert == nil {
                throw ValidationError("give --p12 FILE or --cert FILE [--key FILE] to import")
            }
        }

        func run() throws {
            guard let identity = try files.identity() else { return }
            let summary = try store.identityStore().save(identity, as: name.name)
            print(SecCLI.IdentityCommand.IdentityList.line(for: summary))
        }
    }
}
