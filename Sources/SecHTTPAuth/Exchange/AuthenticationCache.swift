import Synchronization

/// The answers sent per origin, shared by the exchanges of one client: a later request to an origin
/// answered with Digest goes out at once with the kept nonce's next count (no challenge round
/// trip), and with Basic when the policy says `preemptiveBasic`. An answer the server refuses is
/// forgotten. Keep one per client (or per user of a client): it holds credentials until released.
public final class AuthenticationCache: Sendable {
    private let answers = Mutex<[HTTPOrigin: KeptAnswer]>([:])

    /// An empty cache.
    public init() {}

    /// The `Authorization` value for a request to `origin` made from the answer kept there (which
    /// counts it, for Digest), nil when there is none or it is Basic and `preemptiveBasic` is off.
    func authorizeAhead(
        origin: HTTPOrigin,
        method: String,
        target: String,
        body: [UInt8]?,
        preemptiveBasic: Bool
    ) throws(HTTPAuthError) -> (answer: KeptAnswer, authorization: String)? {
        try answers.withLock { answers throws(HTTPAuthError) -> (answer: KeptAnswer, authorization: String)? in
            guard var answer = answers[origin], answer.digest != nil || preemptiveBasic else { return nil }
            let authorization = try answer.authorization(method: method, target: target, body: body)
            answer.isFresh = false
            answers[origin] = answer
            return (answer, authorization)
        }
    }

    func keep(_ answer: KeptAnswer, for origin: HTTPOrigin) {
        answers.withLock { $0[origin] = answer }
    }

    func forget(_ origin: HTTPOrigin) {
        _ = answers.withLock { $0.removeValue(forKey: origin) }
    }
}

/// A protection space answered, the credential, and for Digest the session (nonce and count).
struct KeptAnswer: Sendable {
    let space: ProtectionSpace
    let credential: HTTPCredential
    var digest: DigestSession?
    /// Taken from the provider in this exchange (saved once it works), not from an earlier one.
    var isFresh: Bool

    /// How well the answer guards the password, as `SupportedChallenge.strength`.
    var strength: Int { digest?.challenge.algorithm.strength ?? 0 }

    /// The `Authorization` value for a request with `method` to `target` (path and query, as on
    /// the request line); for Digest it counts the request in `nc`.
    mutating func authorization(method: String, target: String, body: [UInt8]?) throws(HTTPAuthError) -> String {
        guard var session = digest else {
            let basic = try BasicAuthorization.headerValue(user: credential.user, password: credential.password)
            return basic.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
        }
        let value = try session.authorization(
            method: method,
            uri: target,
            user: credential.user,
            password: credential.password,
            body: body
        )
        digest = session
        return value
    }
}
