import ArgumentParser
import SecKit

extension SecCLI.SSOCommand {
    struct SSOLogout: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "logout",
            abstract: "Delete the group's token and keep the user name. Logging out twice is not an error."
        )

        @OptionGroup var sso: SSOOptions

        func run() throws {
            try sso.singleSignOn().logout()
        }
    }
}
