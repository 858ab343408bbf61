import ArgumentParser
import SecKit

extension SecCLI.SSOCommand {
    struct SSOUser: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "user",
            abstract:
                "Print the user name of the group's last login (kept after logout). Exits 10 when nobody logged in."
        )

        @OptionGroup var sso: SSOOptions

        func run() throws {
            guard let user = try sso.singleSignOn().currentUser() else {
                throw Failure(message: "nobody has logged in to group \(sso.group)", exitCode: .notFound)
            }
            print(user)
        }
    }
}
