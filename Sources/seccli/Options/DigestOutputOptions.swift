import ArgumentParser
import SecKit

/// `--base64` and `--json` of `hash` and `hmac`.
struct DigestOutputOptions: ParsableArguments {
    @Flag(help: "Print digests in base64 instead of hex.")
    var base64 = false

    @Flag(help: "Print a JSON array of {name, algorithm, hex, base64} objects.")
    var json = false

    func validate() throws {
        try Self.applicability.validate(self)
    }

    /// --json prints hex and base64 both.
    static let applicability = OptionApplicability<Self>(
        rules: [.init("--base64", given: \.base64, appliesTo: { !$0.json }, "lines of digests")],
        describe: { _ in "--json (which prints hex and base64)" }
    )
}
