/// The quality of protection of a Digest response (RFC 7616 §3.3).
public enum DigestQualityOfProtection: String, Sendable, Hashable {
    /// The response covers the method and the request target.
    case auth
    /// The response also covers the request body.
    case authInt = "auth-int"
}

/// What a Digest challenge asks of the client (RFC 7616 §3.3), checked: a realm, a nonce, an
/// algorithm SecHTTPAuth implements, and the qop values it knows.
public struct DigestChallenge: Sendable, Hashable {
    public let realm: String
    public let nonce: String
    /// Returned unchanged in every answer.
    public let opaque: String?
    public let algorithm: DigestAlgorithm
    /// The qop values offered that SecHTTPAuth knows; empty when the challenge has no `qop` (the
    /// RFC 2069 form of old servers, answered without `nc` and `cnonce`).
    public let qualityOfProtection: [DigestQualityOfProtection]
    /// `stale=true`: the previous nonce expired but the credentials were right.
    public let isStale: Bool
    /// `userhash=true`: the server wants the user name hashed with the realm (RFC 7616 §3.4.4).
    public let userhash: Bool

    /// Reads a `Digest` challenge. Throws `HTTPAuthError.unusableChallenge` for another scheme, a
    /// missing realm or nonce, an algorithm SecHTTPAuth does not implement, or only unknown qop values.
    ///
    /// - Parameter challenge: a challenge of a `WWW-Authenticate` or `Proxy-Authenticate` header.
    /// - Throws: ``HTTPAuthError/unusableChallenge(_:)`` when the scheme is not Digest, the realm or
    ///   the nonce is missing, the algorithm is not one of ``DigestAlgorithm``'s, or a `qop` is given
    ///   whose values are all unknown.
    public init(_ challenge: AuthenticationChallenge) throws(HTTPAuthError) {
        guard challenge.hasScheme(AuthenticationMethod.digest.rawValue) else {
            throw .unusableChallenge("not a Digest challenge")
        }
        guard let realm = challenge.realm else { throw .unusableChallenge("Digest challenge without a realm") }
        guard let nonce = challenge[parameter: "nonce"] else {
            throw .unusableChallenge("Digest challenge without a nonce")
        }
        // RFC 7616 §3.3: no algorithm parameter means MD5.
        guard let algorithm = DigestAlgorithm(challengeValue: challenge[parameter: "algorithm"] ?? "MD5") else {
            throw .unusableChallenge("Digest algorithm not supported")
        }
        var offered: [DigestQualityOfProtection] = []
        if let qop = challenge[parameter: "qop"] {
            for value in qop.split(separator: ",") {
                let trimmed = value.filter { $0 != " " && $0 != "\t" }.lowercased()
                if let known = DigestQualityOfProtection(rawValue: trimmed), !offered.contains(known) {
                    offered.append(known)
                }
            }
            guard !offered.isEmpty else { throw .unusableChallenge("no Digest qop value SecHTTPAuth knows") }
        }
        self.realm = realm
        self.nonce = nonce
        self.opaque = challenge[parameter: "opaque"]
        self.algorithm = algorithm
        self.qualityOfProtection = offered
        self.isStale = challenge[parameter: "stale"]?.lowercased() == "true"
        self.userhash = challenge[parameter: "userhash"]?.lowercased() == "true"
    }
}
