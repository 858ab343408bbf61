import ArgumentParser
import SecKit

extension SecCLI {
    struct CredCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "cred",
            abstract: "Store, read, delete and list credentials in the Secret Service keyring or an encrypted file.",
            discussion: """
                Items are generic passwords (--service, --account) or internet passwords (--server, \
                --account, optional --protocol, --port, --path, --auth-type, --realm), each in an optional \
                access group (--group). An item stored with --service S --account A is the one \
                'secret-tool lookup service S account A' and Python's keyring.get_password(S, A) find.

                The secret never comes from the command line: set reads standard input (every byte \
                when piped, a prompt without echo on a terminal) or --secret SOURCE.

                \(ExitStatus.help(for: "cred"))
                """,
            subcommands: [CredSet.self, CredGet.self, CredDelete.self, CredList.self, CredGitHelper.self]
        )
    }
}
