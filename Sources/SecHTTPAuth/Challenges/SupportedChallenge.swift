/// A challenge SecHTTPAuth can answer, with how: the choice among the challenges of a 401 or 407.
public struct SupportedChallenge: Sendable, Hashable {
    public let challenge: AuthenticationChallenge
    public let method: AuthenticationMethod
    /// The Digest algorithm; nil for Basic.
    public let digestAlgorithm: DigestAlgorithm?

    /// The strongest challenge SecHTTPAuth can answer: Digest with SHA-512-256, then SHA-256, then
    /// MD5, then Basic; the server's order among equals. Unknown schemes, Digest with an unknown
    /// algorithm or without a nonce, are skipped. Nil when nothing is left.
    public static func strongest(in challenges: [AuthenticationChallenge]) -> SupportedChallenge? {
        var best: (choice: SupportedChallenge, rank: Int)?
        for challenge in challenges {
            let candidate: (choice: SupportedChallenge, rank: Int)
            if challenge.hasScheme(AuthenticationMethod.digest.rawValue),
                let digest = try? DigestChallenge(challenge)
            {
                candidate = (
                    SupportedChallenge(challenge: challenge, method: .digest, digestAlgorithm: digest.algorithm),
                    digest.algorithm.strength
                )
            } else if challenge.hasScheme(AuthenticationMethod.basic.rawValue) {
                candidate = (SupportedChallenge(challenge: challenge, method: .basic, digestAlgorithm: nil), 0)
            } else {
                continue
            }
            if best == nil || candidate.rank > best!.rank { best = candidate }
        }
        return best?.choice
    }
}
