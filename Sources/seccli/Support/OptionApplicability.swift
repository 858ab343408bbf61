import ArgumentParser

/// A command's table of the options that apply to some of its uses only (a format, a direction, a
/// backend): an option given where it does not apply is refused with one line naming the option
/// and the use (exit 64), never silently ignored. `Use` is what the command line asks for.
struct OptionApplicability<Use>: Sendable {
    struct Rule: Sendable {
        let option: String
        let isGiven: @Sendable (Use) -> Bool
        let applies: @Sendable (Use) -> Bool
        /// Where the option applies, as the message says it.
        let goesWith: String
    }

    let rules: [Rule]
    /// How a message names the use ("encrypt --format jwe --key").
    let describe: @Sendable (Use) -> String

    /// Throws for the first option of the table that is given where it does not apply.
    func validate(_ use: Use) throws {
        guard let rule = rules.first(where: { $0.isGiven(use) && !$0.applies(use) }) else { return }
        throw ValidationError("\(rule.option) does not apply to \(describe(use)): it goes with \(rule.goesWith)")
    }
}

extension OptionApplicability.Rule {
    init(
        _ option: String,
        given: @escaping @Sendable (Use) -> Bool,
        appliesTo applies: @escaping @Sendable (Use) -> Bool,
        _ goesWith: String
    ) {
        self.init(option: option, isGiven: given, applies: applies, goesWith: goesWith)
    }
}
