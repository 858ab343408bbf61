import ArgumentParser
import SecKit

/// The FILE... arguments: no file or `-` means standard input.
struct InputFiles: ParsableArguments {
    @Argument(help: "Files to read; none or '-' reads standard input.")
    var files: [String] = []

    /// The arguments as the bytes given (file names need not be UTF-8), `-` when there are none.
    var arguments: [[UInt8]] { files.isEmpty ? [Self.standardInputName] : RawArguments.bytes(ofOrdered: files) }

    var inputs: [FileInput] { arguments.map(Self.input(for:)) }

    /// `inputs` in the form `DigestListing` takes, where a failure can also stand in an input's place.
    var listing: [Result<FileInput, FileError>] { inputs.map { .success($0) } }

    var readsStandardInput: Bool { files.isEmpty || files.contains("-") }

    private static let standardInputName = Array("-".utf8)

    /// What an argument (or a name in a checksum list) reads: `-` is standard input, anything else a path.
    static func input(for argument: [UInt8]) -> FileInput {
        argument == standardInputName ? .standardInput : .path(bytes: argument)
    }
}
