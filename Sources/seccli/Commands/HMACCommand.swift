import ArgumentParser
import SecKit

extension SecCLI {
    struct HMACCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "hmac",
            abstract: "Compute or verify HMACs (RFC 2104) of files, in the format of sha256sum.",
            discussion: """
                The key comes from a secret source, never from the command line. --key-format raw \
                matches 'openssl dgst -hmac KEY'; hex matches '-mac HMAC -macopt hexkey:HEX'.
                With --verify, the exit code is 0 when the MAC matches and 1 otherwise (compared in \
                constant time).
                """
        )

        @OptionGroup var algorithmOption: AlgorithmOption
        @OptionGroup var keyOptions: KeyOptions
        @OptionGroup var output: DigestOutputOptions

        @Option(help: ArgumentHelp("Expected MAC, hex or base64: check it instead of printing.", valueName: "mac"))
        var verify: String?

        @OptionGroup var input: InputFiles

        func validate() throws {
            if try keyOptions.source().readsStandardInput && input.readsStandardInput {
                throw ValidationError("--key stdin cannot be used while the input is also standard input")
            }
            try Self.applicability.validate(self)
            if verify != nil {
                guard input.inputs.count == 1 else { throw ValidationError("--verify checks exactly one input") }
                _ = try expectedMAC()
            }
        }

        /// The output options, which --verify (it prints nothing) leaves unused.
        static let applicability = OptionApplicability<Self>(
            rules: [
                .init("--base64", given: { $0.output.base64 }, appliesTo: { $0.verify == nil }, "hmac printing MACs"),
                .init("--json", given: { $0.output.json }, appliesTo: { $0.verify == nil }, "hmac printing MACs"),
            ],
            describe: { _ in "hmac --verify" }
        )

        func run() throws {
            let algorithm = algorithmOption.algorithm
            let key = try keyOptions.readKey()
            if verify != nil {
                let expected = try expectedMAC()
                guard try isValid(expected, algorithm.hashFunction, of: input.inputs[0], key: key) else {
                    throw Failure(message: "MAC mismatch", exitCode: .checkFailed)
                }
                return
            }
            let code: @Sendable (FileInput) throws(FileError) -> [UInt8] = { input in
                try Self.authenticationCode(algorithm.hashFunction, of: input, key: key)
            }
            try DigestListing.emit(input.listing, label: "hmac-\(algorithm)", format: output, compute: code)
        }

        private static func authenticationCode<H: HashFunction>(
            _: H.Type,
            of input: FileInput,
            key: SymmetricKey
        ) throws(FileError) -> [UInt8] {
            try HMAC<H>.authenticationCode(for: input, using: key).bytes
        }

        private func isValid<H: HashFunction>(
            _ expected: [UInt8],
            _: H.Type,
            of input: FileInput,
            key: SymmetricKey
        ) throws -> Bool {
            try HMAC<H>.isValidAuthenticationCode(expected, authenticating: input, using: key)
        }

        /// The --verify value as bytes: hex, or else base64, of exactly the digest length.
        private func expectedMAC() throws -> [UInt8] {
            let length = algorithmOption.algorithm.byteCount
            guard let text = verify else { return [] }
            if let bytes = try? Hex.decode(text), bytes.count == length { return bytes }
            if let bytes = try? Base64.decode(text), bytes.count == length { return bytes }
            throw ValidationError("--verify expects a \(length)-byte \(algorithmOption.algorithm) MAC in hex or base64")
        }
    }
}
