import ArgumentParser

/// The command line of `cred get` or `sso token` read without ArgumentParser's reflection (about
/// 4 ms of CPU per process, docs/performance.md): these are the commands tools run once per use.
///
/// Only well-formed lines of known long options are read here: `--name value`, `--name=value`
/// and flags, each at most once. Anything else (help, `--version`, an unknown or repeated option, a
/// missing value, `--name=` or a value starting with `-`, a value the option's type refuses) gives nil, and
/// the line goes to ArgumentParser, which answers or reports it as for every other command.
/// seccliTests check that both readers know the same options and agree on every line read here.
struct HotCommandLine {
    /// The long options (`--name`) that take a value, and the flags.
    struct Names {
        var options: Set<String> = []
        var flags: Set<String> = []

        static func + (lhs: Names, rhs: Names) -> Names {
            Names(options: lhs.options.union(rhs.options), flags: lhs.flags.union(rhs.flags))
        }
    }

    /// A line left to ArgumentParser: a required option is missing, or a value its type refuses.
    struct Declined: Error {}

    private var values: [String: String] = [:]
    private var flags: Set<String> = []

    init?(_ arguments: ArraySlice<String>, names: Names) {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            guard argument.hasPrefix("--") else { return nil }
            if names.flags.contains(argument) {
                guard flags.insert(argument).inserted else { return nil }
                continue
            }
            let name: String, value: String
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                value = String(argument[argument.index(after: equals)...])
                guard !value.isEmpty else { return nil }
            } else {
                guard let next = remaining.popFirst(), !next.hasPrefix("-") else { return nil }
                name = argument
                value = next
            }
            guard names.options.contains(name), values.updateValue(value, forKey: name) == nil else { return nil }
        }
    }

    /// The value given to the option `name`, if any.
    func value(_ name: String) -> String? {
        values[name]
    }

    /// The value given to `name`, converted as ArgumentParser converts it; `Declined` when the
    /// type refuses it.
    func value<Value: ExpressibleByArgument>(_ name: String, as _: Value.Type) throws(Declined) -> Value? {
        guard let text = values[name] else { return nil }
        guard let value = Value(argument: text) else { throw Declined() }
        return value
    }

    /// Whether the flag `name` was given.
    func isSet(_ name: String) -> Bool {
        flags.contains(name)
    }
}
