import ArgumentParser
import SecKit

/// `--group` and the store options of every `sso` subcommand.
struct SSOOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The access group the tools share.", valueName: "name"))
    var group: String

    @OptionGroup var store: StoreOptions

    func singleSignOn() throws -> SingleSignOn {
        SingleSignOn(group: group, store: try store.open(), timeout: store.timeLimit)
    }
}

extension SSOOptions: HotReadable {
    static var hotOptions: [HotOption<Self>] {
        [.required("--group") { $0.group = $1 }, .group { $0.store = $1 }]
    }
}
