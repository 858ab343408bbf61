import SecCrypto

/// Answers the Digest challenges of one protection space (RFC 7616): keeps the server's nonce and
/// the nonce count, makes a fresh client nonce for every request from OpenSSL's random generator,
/// and takes a `stale=true` challenge's new nonce without calling it a failure.
///
/// ```swift
/// var session = try DigestSession(challenge: chosen.challenge)
/// let value = try session.authorization(method: "GET", uri: "/dir/index.html", user: user, password: password)
/// // after a second 401:
/// if try session.handleRechallenge(newChallenge) == .retryWithFreshNonce { /* send again */ }
/// ```
///
/// A value type: keep one per protection space and serialize requests that use it (an actor or a
/// lock), so that every `nc` goes out once.
public struct DigestSession: Sendable {
    /// What a later 401/407 Digest challenge means for the session.
    public enum Rechallenge: Sendable, Equatable {
        /// `stale=true`: the nonce expired, the credentials were right; the session now holds the new
        /// nonce with its count reset. Retrying is not a failed attempt.
        case retryWithFreshNonce
        /// The server refused the credentials; the session is unchanged.
        case credentialsRejected
    }

    /// The challenge being answered (the latest nonce).
    public private(set) var challenge: DigestChallenge
    /// How many requests used the current nonce (`nc`).
    public private(set) var nonceCount: UInt32 = 0
    private let makeClientNonce: @Sendable () throws(HTTPAuthError) -> String
    private static let clientNonces = ClientNonceSource()
    private var kept = Kept()

    /// What the last request hashed that the next one on the same nonce repeats: H(user:realm:password)
    /// while the credential is the same, H(method:uri) while the target is (no auth-int body). A
    /// request on a kept nonce then hashes only its response.
    private struct Kept: Sendable {
        var credential: (user: String, password: SecureBytes, hash: SecureBytes)?
        var target: (method: String, uri: String, hash: String)?
    }

    /// A session for a Digest challenge (`HTTPAuthError.unusableChallenge` for one it cannot answer).
    ///
    /// - Parameter challenge: the Digest challenge to answer.
    /// - Throws: ``HTTPAuthError/unusableChallenge(_:)`` when `challenge` is not a Digest challenge
    ///   SecHTTPAuth can answer (as ``DigestChallenge/init(_:)`` reads it).
    public init(challenge: AuthenticationChallenge) throws(HTTPAuthError) {
        self.init(challenge: try DigestChallenge(challenge)) { () throws(HTTPAuthError) in
            try Self.clientNonces.next()
        }
    }

    /// A session with a chosen client nonce source: for known-answer tests.
    package init(challenge: DigestChallenge, clientNonce: @escaping @Sendable () throws(HTTPAuthError) -> String) {
        self.challenge = challenge
        self.makeClientNonce = clientNonce
    }

    /// The `Authorization` (or `Proxy-Authorization`) value for one request, counting it in `nc`.
    ///
    /// - Parameters:
    ///   - method: the request method (`GET`), an HTTP token.
    ///   - uri: the request target exactly as on the request line (`/dir/index.html?x=1`).
    ///   - user: the user name: quoted, in `username*` (RFC 8187) when not printable ASCII, or hashed
    ///     when the challenge asks for `userhash`.
    ///   - password: the password, hashed from its `SecureBytes` without a copy.
    ///   - body: the request body; when given and the server offers `auth-int`, the response covers it.
    ///     Without it, `auth` is used, and a server that offers only `auth-int` cannot be answered.
    /// - Throws: `HTTPAuthError.invalidRequest` for a method that is not a token or a target outside
    ///   visible ASCII, `.invalidCredentials` for control characters in the user name,
    ///   `.unusableChallenge` when no offered qop fits.
    /// - Returns: the header value: `Digest username=…, realm=…, nonce=…, uri=…, response=…`.
    public mutating func authorization(
        method: String,
        uri: String,
        user: String,
        password: SecureBytes,
        body: [UInt8]? = nil
    ) throws(HTTPAuthError) -> String {
        let qualityOfProtection = try chooseQualityOfProtection(hasBody: body != nil)
        let algorithm = challenge.algorithm
        let targetHash: String
        if qualityOfProtection != .authInt, let kept = kept.target, kept.method == method, kept.uri == uri {
            targetHash = kept.hash
        } else {
            guard !method.isEmpty, method.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") })
            else { throw .invalidRequest("the method is not an HTTP token") }
            guard !uri.isEmpty, uri.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") }) else {
                throw .invalidRequest("the request target has a character outside visible ASCII or a quote")
            }
            var bodyHash: String?
            if qualityOfProtection == .authInt, let body {
                bodyHash = DigestHasher.hash(algorithm.hash, data: body).hexString
            }
            targetHash = DigestResponse.targetHash(algorithm, method: method, uri: uri, bodyHash: bodyHash)
            // auth-int's H(A2) covers the body: never kept.
            if bodyHash == nil { kept.target = (method, uri, targetHash) }
        }
        let credentialHash: SecureBytes
        if let kept = kept.credential, kept.user == user, kept.password == password {
            credentialHash = kept.hash
        } else {
            guard !user.utf8.contains(where: isControlCharacter) else {
                throw .invalidCredentials("control character in the user name")
            }
            credentialHash = DigestResponse.credentialHash(
                algorithm,
                user: user,
                realm: challenge.realm,
                password: password
            )
            kept.credential = (user, password, credentialHash)
        }
        guard nonceCount < UInt32.max else { throw .unusableChallenge("nonce count exhausted; a new nonce is needed") }
        nonceCount += 1
        let count = Self.eightHexDigits(nonceCount)
        let clientNonce = try makeClientNonce()
        let response = DigestResponse.value(
            algorithm,
            sessionKey: DigestResponse.sessionKey(
                algorithm,
                credentialHash: credentialHash,
                nonce: challenge.nonce,
                clientNonce: clientNonce
            ),
            nonce: challenge.nonce,
            nonceCount: count,
            clientNonce: clientNonce,
            qualityOfProtection: qualityOfProtection,
            targetHash: targetHash
        )
        return DigestAuthorizationHeader(
            challenge: challenge,
            user: user,
            uri: uri,
            qualityOfProtection: qualityOfProtection,
            nonceCount: count,
            clientNonce: clientNonce,
            response: response
        ).value
    }

    /// Takes the Digest challenge of a response to an answered request. `stale=true` replaces the
    /// nonce and resets `nc`; anything else means the credentials were refused.
    ///
    /// - Parameter challenge: the Digest challenge of the response (a 401 or 407) to a request this
    ///   session answered.
    /// - Returns: ``DigestSession/Rechallenge/retryWithFreshNonce`` for `stale=true` (the session now
    ///   answers the new nonce), ``DigestSession/Rechallenge/credentialsRejected`` otherwise (the
    ///   session is unchanged).
    /// - Throws: ``HTTPAuthError/unusableChallenge(_:)`` when `challenge` is not a Digest challenge
    ///   SecHTTPAuth can answer; the session is then unchanged.
    public mutating func handleRechallenge(_ challenge: AuthenticationChallenge) throws(HTTPAuthError) -> Rechallenge {
        let next = try DigestChallenge(challenge)
        guard next.isStale else { return .credentialsRejected }
        self.challenge = next
        nonceCount = 0
        kept = Kept()
        return .retryWithFreshNonce
    }

    /// auth-int when the server offers it and the body is known, else auth; nil for RFC 2069 servers.
    private func chooseQualityOfProtection(hasBody: Bool) throws(HTTPAuthError) -> DigestQualityOfProtection? {
        let offered = challenge.qualityOfProtection
        if offered.isEmpty { return nil }
        if hasBody, offered.contains(.authInt) { return .authInt }
        guard offered.contains(.auth) else {
            throw .unusableChallenge("the server offers only qop=auth-int and the request body is not given")
        }
        return .auth
    }

    /// `nc`: eight lower-case hex digits.
    private static func eightHexDigits(_ value: UInt32) -> String {
        withUnsafeBytes(of: value.bigEndian) { Hex.encode($0) }
    }
}
