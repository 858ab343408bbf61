#if canImport(Glibc)
import Glibc
#endif

/// The command line's arguments as the bytes the process was given. ArgumentParser sees Swift
/// strings, in which bytes that are not UTF-8 became U+FFFD; a file name is bytes on Linux, so the
/// values that name files are looked up here in their exact form.
///
/// A value is found by its text: the first argument that decodes to it (after the arguments already
/// looked up, for values given in order). Two arguments that decode alike but differ in their bytes
/// (one an option's value, one a file) are told apart only by this order.
enum RawArguments {
    /// Every argument after the program's name.
    private static let all: [(text: String, bytes: [UInt8])] = (1..<Int(CommandLine.argc)).map { index in
        let argument = CommandLine.unsafeArgv[index]!
        let bytes = Array(UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
        return (String(decoding: bytes, as: UTF8.self), bytes)
    }

    /// The bytes of `values`, arguments given in this order (positional arguments); a value not found
    /// (one that a test or another caller built) is its own UTF-8.
    static func bytes(ofOrdered values: [String]) -> [[UInt8]] {
        var next = all.startIndex
        return values.map { value in
            guard let found = all[next...].firstIndex(where: { $0.text == value }) else { return Array(value.utf8) }
            next = found + 1
            return all[found].bytes
        }
    }

    /// The bytes of an option's value, given on its own (`--name VALUE`) or after one of `prefixes`
    /// (`--name=VALUE`).
    static func bytes(ofOptionValue value: String, spelledAfter prefixes: [String]) -> [UInt8] {
        for argument in all {
            for prefix in [""] + prefixes where argument.text == prefix + value {
                return Array(argument.bytes.dropFirst(prefix.utf8.count))
            }
        }
        return Array(value.utf8)
    }
}
