import ArgumentParser
import SecKit

/// The FILE... arguments: no file or `-` means standard input.
struct InputFiles: ParsableArguments {
    @Argument(help: "Files to read; none or '-' reads standard input.")
    var files: [String] = []

    var inputs: [FileInput] {
        files.isEmpty ? [.standardInput] : files.map { $0 == "-" ? .standardInput : .path($0) }
    }

    var readsStandardInput: Bool { files.isEmpty || files.contains("-") }
}
