import SecCrypto
import SecHTTPAuth

// WWW-Authenticate / Proxy-Authenticate values: parsing throws or gives challenges whose parameters
// have lower-case names, and answering whatever is chosen never traps.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let lines = input.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard let challenges = try? AuthenticationChallenge.parse(headerValues: lines) else { return 0 }
    for challenge in challenges {
        require(challenge.parameters.allSatisfy { $0.name == $0.name.lowercased() }, "names are lower-cased")
    }
    if let chosen = SupportedChallenge.strongest(in: challenges), chosen.method == .digest,
        var session = try? DigestSession(challenge: chosen.challenge)
    {
        _ = try? session.authorization(method: "GET", uri: "/", user: "fuzz", password: SecureBytes([1, 2, 3]))
        _ = try? session.handleRechallenge(chosen.challenge)
    }
    return 0
}
