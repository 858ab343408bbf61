import ArgumentParser
import SecKit

extension SecCLI {
    struct CredCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "cred",
            abstract: "Store, read, delete and list credentials in the Secret Service keyring or an encrypted file.",
            discussion: """
                Items are generic passwords (--service, --account) or internet passwords (--server, \
                --account, optional --protocol, --port, --path, --auth-type), each in an optional access \
                group (--group). An item stored with --service S --account A is the one \
                'secret-tool lookup service S account A' and Python's keyring.get_password(S, A) find.

                The secret never comes from the command line: set reads standard input (every byte \
                when piped, a prompt without echo on a terminal) or --secret SOURCE.

                \(keychainExitCodes)
                """,
            subcommands: [CredSet.self, CredGet.self, CredDelete.self, CredList.self]
        )
    }
}

/// The exit codes of `cred` and `sso`, for their --help.
let keychainExitCodes = """
    Exit codes: 0 success; 1 the store failed unexpectedly or a file could not be read or written; \
    2 bad data (secret too large, unreadable secret source, wrong store password, damaged store \
    file, invalid attribute); 10 no such item (or no SSO token); 11 expired; 12 keyring locked; \
    13 no D-Bus session bus or no Secret Service on it; 14 timeout; 15 several items match; 64 usage error.
    """
