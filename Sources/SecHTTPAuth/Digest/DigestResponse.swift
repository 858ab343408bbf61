import SecCrypto

/// The hashes behind the `response` of RFC 7616 §3.4.1. Each part goes to the hash as it is, with no
/// joined strings: they run once per request on a kept nonce.
enum DigestResponse {
    /// H(user ":" realm ":" password) in hex, in wiped memory: it lets anyone answer for this user
    /// in this realm.
    static func credentialHash(
        _ algorithm: DigestAlgorithm,
        user: String,
        realm: String,
        password: SecureBytes
    ) -> SecureBytes {
        var hasher = DigestHasher(algorithm.hash)
        hasher.update(strings: user, ":", realm, ":")
        password.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        return Hex.encodeSecret(hasher.finalizeLast())
    }

    /// H(A1): the credential hash, or for the `-sess` forms H(credential hash ":" nonce ":" cnonce).
    static func sessionKey(
        _ algorithm: DigestAlgorithm,
        credentialHash: SecureBytes,
        nonce: String,
        clientNonce: String
    ) -> SecureBytes {
        guard algorithm.isSession else { return credentialHash }
        var hasher = DigestHasher(algorithm.hash)
        credentialHash.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        hasher.update(strings: ":", nonce, ":", clientNonce)
        return Hex.encodeSecret(hasher.finalizeLast())
    }

    /// H(A2): `method:uri`, and `:H(body)` when `bodyHash` is given (auth-int).
    static func targetHash(_ algorithm: DigestAlgorithm, method: String, uri: String, bodyHash: String?) -> String {
        var hasher = DigestHasher(algorithm.hash)
        hasher.update(strings: method, ":", uri)
        if let bodyHash { hasher.update(strings: ":", bodyHash) }
        return hasher.finalizeLast().hexString
    }

    /// The lower-case hex response: KD(H(A1), nonce ":" nc ":" cnonce ":" qop ":" H(A2)), or
    /// KD(H(A1), nonce ":" H(A2)) for the RFC 2069 form (no qop).
    static func value(
        _ algorithm: DigestAlgorithm,
        sessionKey: SecureBytes,
        nonce: String,
        nonceCount: String,
        clientNonce: String,
        qualityOfProtection: DigestQualityOfProtection?,
        targetHash: String
    ) -> String {
        var hasher = DigestHasher(algorithm.hash)
        sessionKey.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        hasher.update(strings: ":", nonce, ":")
        if let qualityOfProtection {
            hasher.update(strings: nonceCount, ":", clientNonce, ":", qualityOfProtection.rawValue, ":")
        }
        hasher.update(string: targetHash)
        return hasher.finalizeLast().hexString
    }
}

extension DigestHasher {
    fileprivate mutating func update(strings: String...) {
        for string in strings { update(string: string) }
    }
}
