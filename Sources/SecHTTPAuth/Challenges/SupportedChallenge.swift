/// A challenge SecHTTPAuth can answer, with how: the choice among the challenges of a 401 or 407.
public struct SupportedChallenge: Sendable, Hashable {
    public let challenge: AuthenticationChallenge
    public let method: AuthenticationMethod
    /// The Digest algorithm; nil for Basic.
    public let digestAlgorithm: DigestAlgorithm?

    /// The strongest challenge SecHTTPAuth can answer: Digest with SHA-512-256, then SHA-256, then
    /// MD5, then Basic; the server's order among equals. Unknown schemes, Digest with an unknown
    /// algorithm or without a nonce, are skipped. Nil when nothing is left.
    ///
    /// - Parameter challenges: the challenges of one response, in the server's order.
    /// - Returns: the strongest one SecHTTPAuth can answer, with its method and Digest algorithm, or
    ///   nil when there is none.
    public static func strongest(in challenges: [AuthenticationChallenge]) -> SupportedChallenge? {
        var best: SupportedChallenge?
        for challenge in challenges {
            let candidate: SupportedChallenge
            if challenge.hasScheme(AuthenticationMethod.digest.rawValue),
                let digest = try? DigestChallenge(challenge)
            {
                candidate = SupportedChallenge(challenge: challenge, method: .digest, digestAlgorithm: digest.algorithm)
            } else if challenge.hasScheme(AuthenticationMethod.basic.rawValue) {
                candidate = SupportedChallenge(challenge: challenge, method: .basic, digestAlgorithm: nil)
            } else {
                continue
            }
            if best == nil || candidate.strength > best!.strength { best = candidate }
        }
        return best
    }

    /// How well the answer guards the password: Basic 0 (readable), then Digest by its hash (MD5 1,
    /// SHA-256 2, SHA-512-256 3).
    var strength: Int { digestAlgorithm?.strength ?? 0 }
}
