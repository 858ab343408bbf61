import ArgumentParser
import SecKit

extension SecCLI.SSOCommand {
    struct SSOToken: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "token",
            abstract:
                "Print the group's token, byte for byte (a newline only on a terminal). Exits 10 when there is none, 11 when it expired."
        )

        @OptionGroup var sso: SSOOptions

        func run() throws {
            switch try sso.singleSignOn().tokenState() {
            case .valid(let token, _):
                try SecretOutput.write(token)
            case .expired(let date):
                throw Failure(
                    message:
                        "the SSO token of group \(sso.group) expired at \(date.formatted(.iso8601)): log in again with 'seccli sso login'",
                    exitCode: .expired
                )
            case .absent:
                throw Failure(
                    message: "no SSO token in group \(sso.group): log in with 'seccli sso login'",
                    exitCode: .notFound
                )
            }
        }
    }
}

extension SecCLI.SSOCommand.SSOToken: HotReadable {
    static var hotOptions: [HotOption<Self>] {
        [.group { $0.sso = $1 }]
    }
}
