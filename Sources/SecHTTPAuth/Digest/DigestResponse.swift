import SecCrypto

/// The `response` of RFC 7616 §3.4.1, from every input, the client nonce and count included.
struct DigestResponse {
    let algorithm: DigestAlgorithm
    let user: String
    let realm: String
    let nonce: String
    let clientNonce: String
    /// Eight lower-case hex digits.
    let nonceCount: String
    /// nil for the RFC 2069 form.
    let qualityOfProtection: DigestQualityOfProtection?
    let method: String
    let uri: String
    /// H(body), for `auth-int` only.
    let bodyHash: String?

    /// The lower-case hex response.
    func value(password: SecureBytes) -> String {
        // Each part goes to the hash as it is: no joined strings (this runs once per request).
        var hasher = DigestHasher(algorithm.hash)
        ha1(password: password).withUnsafeBytes { hasher.update(bufferPointer: $0) }
        hasher.update(strings: ":", nonce, ":")
        if let qualityOfProtection {
            hasher.update(strings: nonceCount, ":", clientNonce, ":", qualityOfProtection.rawValue, ":")
        }
        hasher.update(string: ha2)
        return hasher.finalizeLast().hexString
    }

    /// H(A1) in hex, in wiped memory: it lets anyone answer for this user in this realm.
    private func ha1(password: SecureBytes) -> SecureBytes {
        var hasher = DigestHasher(algorithm.hash)
        hasher.update(strings: user, ":", realm, ":")
        password.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        let inner = Hex.encodeSecret(hasher.finalizeLast())
        guard algorithm.isSession else { return inner }
        var session = DigestHasher(algorithm.hash)
        inner.withUnsafeBytes { session.update(bufferPointer: $0) }
        session.update(strings: ":", nonce, ":", clientNonce)
        return Hex.encodeSecret(session.finalizeLast())
    }

    /// H(A2): `method:uri`, and `:H(body)` for auth-int.
    private var ha2: String {
        var hasher = DigestHasher(algorithm.hash)
        hasher.update(strings: method, ":", uri)
        if qualityOfProtection == .authInt, let bodyHash { hasher.update(strings: ":", bodyHash) }
        return hasher.finalizeLast().hexString
    }
}

extension DigestHasher {
    fileprivate mutating func update(strings: String...) {
        for string in strings { update(string: string) }
    }
}
