import ArgumentParser
import SecKit

extension HashAlgorithm: ExpressibleByArgument {
    /// The algorithm a command-line argument names, spelled as `HashAlgorithm(name:)` reads it.
    ///
    /// - Parameter argument: the argument's text: `sha256`, `SHA-256`, `sha_256`, `SHA-512/256`.
    public init?(argument: String) {
        self.init(name: argument)
    }

    /// The names `--help` lists: each algorithm's lower-case name (`sha256`).
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

/// `--algorithm`, shared by `hash` and `hmac`.
struct AlgorithmOption: ParsableArguments {
    @Option(name: [.short, .long], help: "Hash function. md5 and sha1 are legacy, for interoperability only.")
    var algorithm: HashAlgorithm = .sha256
}

/// A hash offered as PBKDF2's PRF (`--md`, `--prf`): SHA-1 and SHA-2, not MD5.
struct PBKDF2Hash: ExpressibleByArgument {
    let algorithm: HashAlgorithm

    static let sha256 = PBKDF2Hash(algorithm: .sha256)

    private init(algorithm: HashAlgorithm) {
        self.algorithm = algorithm
    }

    init?(argument: String) {
        guard let algorithm = HashAlgorithm(name: argument), KDF.PBKDF2.supportedPRFs.contains(algorithm) else {
            return nil
        }
        self.algorithm = algorithm
    }

    static var allValueStrings: [String] { KDF.PBKDF2.supportedPRFs.map(\.rawValue) }

    var defaultValueDescription: String { algorithm.rawValue }
}
