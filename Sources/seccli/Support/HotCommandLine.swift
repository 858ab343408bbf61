import ArgumentParser

/// The command line of `cred get` or `sso token` read without ArgumentParser's reflection, whose
/// set-up would be a large part of these commands' start-up (docs/performance-journal.md), and tools run
/// them once per use. What each command reads is its `HotReadable` table.
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
            let name: String
            let value: String
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

/// A command or option group the hot reader reads: `hotOptions` is the one list of its options,
/// from which both the names `HotCommandLine` accepts and the reading come.
protocol HotReadable: ParsableArguments {
    /// Every option, flag and option group the type declares, each once.
    static var hotOptions: [HotOption<Self>] { get }
}

extension HotReadable {
    static var hotNames: HotCommandLine.Names {
        hotOptions.reduce(HotCommandLine.Names()) { $0 + $1.names }
    }

    /// The value `line` gives, validated as ArgumentParser validates it.
    static func read(_ line: HotCommandLine) throws -> Self {
        var value = Self()
        for option in hotOptions { try option.read(&value, line) }
        try value.validate()
        return value
    }

    /// The command `arguments` (the words after its name) give; nil leaves them to ArgumentParser.
    static func read(hotArguments arguments: ArraySlice<String>) -> Self? {
        guard let line = HotCommandLine(arguments, names: hotNames) else { return nil }
        return try? read(line)
    }
}

/// One entry of a `HotReadable` table: the names it reads and how it stores them. Each entry
/// assigns its property whether or not the option was given, because an ArgumentParser property
/// that was never assigned holds its declaration, which cannot be read. The entries assign in
/// closures, not through key paths, since a write through a key path reads the property first.
struct HotOption<Root> {
    let names: HotCommandLine.Names
    let read: (inout Root, HotCommandLine) throws -> Void

    /// `--name value` of an optional property; nil when not given.
    static func option<Value: ExpressibleByArgument>(
        _ name: String,
        _ assign: @escaping (inout Root, Value?) -> Void
    ) -> Self {
        Self(names: HotCommandLine.Names(options: [name])) { root, line in
            assign(&root, try line.value(name, as: Value.self))
        }
    }

    /// `--name value` of a property declared with `defaultValue`.
    static func option<Value: ExpressibleByArgument>(
        _ name: String,
        default defaultValue: Value,
        _ assign: @escaping (inout Root, Value) -> Void
    ) -> Self {
        Self(names: HotCommandLine.Names(options: [name])) { root, line in
            assign(&root, try line.value(name, as: Value.self) ?? defaultValue)
        }
    }

    /// A required `--name value`; a line without it is left to ArgumentParser, which reports it.
    static func required<Value: ExpressibleByArgument>(
        _ name: String,
        _ assign: @escaping (inout Root, Value) -> Void
    ) -> Self {
        Self(names: HotCommandLine.Names(options: [name])) { root, line in
            guard let value = try line.value(name, as: Value.self) else { throw HotCommandLine.Declined() }
            assign(&root, value)
        }
    }

    /// A repeatable `--name value` (an array property); the hot reader takes it once at most (a
    /// repeated option leaves the line to ArgumentParser).
    static func repeatable(_ name: String, _ assign: @escaping (inout Root, [String]) -> Void) -> Self {
        Self(names: HotCommandLine.Names(options: [name])) { root, line in
            assign(&root, try line.value(name, as: String.self).map { [$0] } ?? [])
        }
    }

    /// A flag: true when given.
    static func flag(_ name: String, _ assign: @escaping (inout Root, Bool) -> Void) -> Self {
        Self(names: HotCommandLine.Names(flags: [name])) { root, line in
            assign(&root, line.isSet(name))
        }
    }

    /// An `@OptionGroup`, read and validated by its own table.
    static func group<Group: HotReadable>(_ assign: @escaping (inout Root, Group) -> Void) -> Self {
        Self(names: Group.hotNames) { root, line in
            assign(&root, try Group.read(line))
        }
    }
}
