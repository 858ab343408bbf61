import ArgumentParser
import SecKit

/// `--expect PIN`, repeatable, in any notation `Pin(parsing:)` reads.
struct ExpectedPinOptions: ParsableArguments {
    @Option(
        name: .customLong("expect"),
        help: ArgumentHelp(
            "A pin the chain must satisfy (repeatable; any one matching is enough): sha256/<base64>, sha256//<base64>, "
                + "pin-sha256=\"<base64>\", 44 base64 characters, or a certificate's SHA-1/SHA-256 fingerprint in hex.",
            valueName: "pin"
        )
    )
    var texts: [String] = []

    /// The parsed pins, in the order given; a pin that does not parse is a usage error naming it by position.
    func pins() throws -> [Pin] {
        try texts.enumerated().map { index, text in
            do { return try Pin(parsing: text) } catch {
                throw ValidationError("--expect\(texts.count > 1 ? " #\(index + 1)" : ""): \(error)")
            }
        }
    }

    func validate() throws { _ = try pins() }
}
