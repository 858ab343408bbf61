import ArgumentParser
import SecKit

extension SecCLI {
    struct SSOCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sso",
            abstract:
                "Single sign-on for a family of tools sharing an access group: log in once, every tool finds the token.",
            discussion: """
                login stores the user name and a token in the group; token prints the token while it is \
                valid; user prints the user name; logout deletes the token and keeps the user name. \
                Every process of the same user can read the unlocked keyring: a group is a shared \
                namespace, not an isolation boundary.

                \(ExitStatus.help(for: "sso"))
                """,
            subcommands: [SSOLogin.self, SSOToken.self, SSOUser.self, SSOLogout.self]
        )
    }
}
