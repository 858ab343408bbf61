import ArgumentParser
import SecKit

/// The FILE... arguments: no file or `-` means standard input.
struct InputFiles: ParsableArguments {
    @Argument(help: "Files to read; none or '-' reads standard input.")
    var files: [String] = []

    /// The arguments, `-` when there are none.
    var arguments: [String] { files.isEmpty ? ["-"] : files }

    var inputs: [FileInput] { arguments.map(Self.input(for:)) }

    /// `inputs` in the form `DigestListing` takes, where a failure can also stand in an input's place.
    var listing: [Result<FileInput, CryptoError>] { inputs.map { .success($0) } }

    var readsStandardInput: Bool { arguments.contains("-") }

    /// What an argument reads: `-` is standard input, anything else a path.
    static func input(for argument: String) -> FileInput {
        argument == "-" ? .standardInput : .path(argument)
    }
}
