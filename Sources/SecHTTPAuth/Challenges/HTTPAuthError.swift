import SecIO

/// Why SecHTTPAuth refused a challenge header or could not answer it. Reasons name a position or a
/// limit, never more than a few bytes of the header: it is server-controlled input. A realm is shown
/// quoted, cut at 64 characters, its control and format characters escaped.
public enum HTTPAuthError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A `WWW-Authenticate` or `Proxy-Authenticate` value that is not RFC 9110 §11 syntax, or too large.
    case malformedChallenge(String)
    /// A challenge of a known scheme that lacks what answering it needs (a Digest nonce, a usable qop).
    case unusableChallenge(String)
    /// A user name or password the scheme cannot carry (a control character; for Basic, a colon in
    /// the user name).
    case invalidCredentials(String)
    /// A request target or method that cannot go into a Digest header (control characters, quotes).
    case invalidRequest(String)
    /// The random generator failed while making a client nonce.
    case randomGenerationFailed
    /// The server kept refusing: no credential left for the protection space (none kept, or every
    /// one it has was rejected), or the failures reached the limit. Names the realm and scheme.
    case authenticationFailed(realm: String?, method: AuthenticationMethod, failures: Int)
    /// A Basic challenge over cleartext `http://`: the password would cross the network readable.
    /// Answered only when the caller allows it explicitly.
    case cleartextBasicRefused(String)
    /// The server kept challenging: `answered` challenges were answered (the policy's
    /// `maximumRoundTrips`) and it asked again. Counts every kind: first challenges, stale nonces,
    /// refusals, new realms.
    case tooManyChallenges(answered: Int)

    public var description: String {
        switch self {
        case .malformedChallenge(let reason): "malformed authentication challenge: \(reason)"
        case .unusableChallenge(let reason): "authentication challenge cannot be answered: \(reason)"
        case .invalidCredentials(let reason): "invalid credentials: \(reason)"
        case .invalidRequest(let reason): "request cannot be authenticated: \(reason)"
        case .randomGenerationFailed: "the random generator failed"
        case .authenticationFailed(let realm, let method, let failures):
            "authentication failed: \(method)\(realm.map { " realm \(UntrustedText.quoted($0, maximumLength: 64))" } ?? "")"
                + (failures == 0 ? ", no credential for it" : ", \(failures) credential(s) refused")
        case .cleartextBasicRefused(let space):
            "refusing to send a Basic password over cleartext HTTP to \(space) (allow it explicitly, or use https)"
        case .tooManyChallenges(let answered):
            "authentication failed: the server challenged again after \(answered) answered challenge(s)"
        }
    }
}
