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

extension SSOOptions {
    /// The options as `HotCommandLine` reads them (kept in step with the declarations above by seccliTests).
    static let hotNames = HotCommandLine.Names(options: ["--group"]) + StoreOptions.hotNames

    static func read(_ line: HotCommandLine) throws(HotCommandLine.Declined) -> Self {
        var options = Self()
        guard let group = line.value("--group") else { throw HotCommandLine.Declined() }
        options.group = group
        options.store = try StoreOptions.read(line)
        return options
    }
}
