import SecCrypto
import SecHTTPAuth

// The response sequence an HTTP authentication client consumes, through AuthenticationExchange:
// two requests on one cache, each driven until it delivers, throws or the input runs out.
//
// Input: one byte of options (bit 0 https, bit 1 a request body, bit 2 preemptive Basic, bit 3
// Basic over http allowed, bits 4-5 the provider: one credential, a new one each look-up, one then
// none, none), then responses separated by a blank line. A response is a line
// `STATUS [HOST [TARGET]]` (HOST a.example unless given: a redirect) and its WWW-Authenticate lines.
//
// Properties: every answer within the round-trip bound, no more failures than allowed, and no Basic
// answer in a realm of an origin after a Digest answer there in the same exchange.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let options = input.choose(among: 256)
    let scheme = options & 1 == 0 ? "http" : "https"
    let policy = AuthenticationExchange.Policy(
        maximumFailures: 3,
        maximumRoundTrips: 5,
        allowsBasicOverCleartext: options & 8 != 0,
        preemptiveBasic: options & 4 != 0
    )
    var responses = input.text.split(separator: "\n\n", omittingEmptySubsequences: false).prefix(64)
        .map { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }[...]
    let cache = AuthenticationCache()
    var lookups = 0
    for _ in 0..<2 {
        var exchange = AuthenticationExchange(
            method: "POST",
            origin: HTTPOrigin(scheme: scheme, host: "a.example"),
            target: "/",
            body: options & 2 == 0 ? nil : [1, 2, 3],
            policy: policy,
            cache: cache
        )
        var sends = 0
        var space: ProtectionSpace?  // of the answer about to go out, when the provider was asked
        var digestRealms: Set<String> = []  // "origin realm" of the Digest answers sent
        do {
            var action = try exchange.start()
            driving: while true {
                switch action {
                case .send(let authorization):
                    sends += 1
                    require(sends <= 1 + policy.maximumRoundTrips, "\(sends) requests")
                    if let space, let authorization {
                        let key = "\(space.origin) \(space.realm ?? "")"
                        if authorization.hasPrefix("Digest ") { digestRealms.insert(key) }
                        require(
                            !(authorization.hasPrefix("Basic ") && digestRealms.contains(key)),
                            "Basic after Digest in \(key)"
                        )
                    }
                    space = nil
                    guard let response = responses.popFirst() else { break driving }
                    let head = (response.first ?? "").split(separator: " ").map(String.init)
                    action = try exchange.receive(
                        status: head.first.flatMap { Int($0) } ?? 401,
                        challenges: Array(response.dropFirst()),
                        from: HTTPOrigin(scheme: scheme, host: head.count > 1 ? head[1] : "a.example"),
                        target: head.count > 2 ? head[2] : "/"
                    )
                case .findCredential(let asked):
                    space = asked
                    lookups += 1
                    let credential: HTTPCredential?
                    switch (options >> 4) & 3 {
                    case 0: credential = HTTPCredential(user: "fuzz", password: SecureBytes([1, 2, 3]))
                    case 1: credential = HTTPCredential(user: "fuzz\(lookups)", password: SecureBytes([UInt8(lookups)]))
                    case 2: credential = lookups == 1 ? HTTPCredential(user: "fuzz", password: SecureBytes([1])) : nil
                    default: credential = nil
                    }
                    action = try exchange.provide(credential)
                case .deliver:
                    break driving
                }
            }
        } catch {
            // Typed: every way an exchange ends is an HTTPAuthError.
        }
        require(exchange.roundTrips <= policy.maximumRoundTrips, "\(exchange.roundTrips) round trips")
        require(exchange.failures <= policy.maximumFailures, "\(exchange.failures) failures")
    }
    return 0
}
