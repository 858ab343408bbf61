import ArgumentParser
import SecKit

/// `--base64` and `--json` of `hash` and `hmac`.
struct DigestOutputOptions: ParsableArguments {
    @Flag(help: "Print digests in base64 instead of hex.")
    var base64 = false

    @Flag(help: "Print a JSON array of {name, algorithm, hex, base64} objects.")
    var json = false
}
