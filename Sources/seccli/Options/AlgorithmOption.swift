import ArgumentParser
import SecKit

extension HashAlgorithm: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(name: argument)
    }

    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

/// `--algorithm`, shared by `hash` and `hmac`.
struct AlgorithmOption: ParsableArguments {
    @Option(name: [.short, .long], help: "Hash function. md5 and sha1 are legacy, for interoperability only.")
    var algorithm: HashAlgorithm = .sha256
}
