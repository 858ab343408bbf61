import ArgumentParser
import SecKit

extension SecCLI {
    struct HashCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "hash",
            abstract: "Print or check message digests, in the format of sha256sum.",
            discussion: """
                Each output line is '<digest>  <name>' ('-' for standard input), so 'sha256sum -c' \
                accepts the sha256 lines. A file that cannot be read is reported on standard error \
                and the others are still hashed; the exit code is then 1.
                Several files are hashed at once, one per processor; the lines still come in the \
                order the files were given (or listed, with --check).
                """
        )

        @OptionGroup var algorithmOption: AlgorithmOption
        @OptionGroup var output: DigestOutputOptions

        @Option(
            name: [.short, .long],
            help: ArgumentHelp(
                "Read '<hex>  <name>' lines from LISTFILE ('-' for standard input) and check each file.",
                valueName: "listfile"
            )
        )
        var check: String?

        @Flag(name: .long, help: "With --check: do not print OK for each verified file.")
        var quiet = false

        @Flag(
            name: [.short, .long],
            help: "Hash the regular files below each directory argument, in sorted order (see docs/seccli.md)."
        )
        var recursive = false

        @Flag(name: .long, help: "With --recursive: follow symbolic links found inside directories.")
        var followSymlinks = false

        @OptionGroup var input: InputFiles

        func validate() throws {
            if check != nil {
                guard input.files.isEmpty else {
                    throw ValidationError("--check takes the list file only, not FILE arguments")
                }
                guard !output.base64, !output.json, !recursive else {
                    throw ValidationError("--check cannot be combined with --base64, --json or --recursive")
                }
            } else if quiet {
                throw ValidationError("--quiet only applies to --check")
            }
            if followSymlinks, !recursive {
                throw ValidationError("--follow-symlinks only applies to --recursive")
            }
        }

        func run() throws {
            let algorithm = algorithmOption.algorithm
            if let check {
                try verify(listFile: check)
                return
            }
            let digest: @Sendable (FileInput) throws(FileError) -> [UInt8] = { input in
                try DigestHasher.hash(algorithm, contentsOf: input).bytes
            }
            let inputs: any Sequence<Result<FileInput, FileError>> =
                recursive ? FileTreeWalk(arguments: input.arguments, followsSymlinks: followSymlinks) : input.listing
            try DigestListing.emit(inputs, label: algorithm.rawValue, format: output, compute: digest)
        }
    }
}
