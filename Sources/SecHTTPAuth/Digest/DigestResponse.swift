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
        let sessionKey = ha1(password: password)
        var data = nonce + ":"
        if let qualityOfProtection {
            data += "\(nonceCount):\(clientNonce):\(qualityOfProtection.rawValue):"
        }
        data += ha2
        return keyedDigest(sessionKey, data)
    }

    /// H(A1) in hex, in wiped memory: it lets anyone answer for this user in this realm.
    private func ha1(password: SecureBytes) -> SecureBytes {
        var hasher = DigestHasher(algorithm.hash)
        hasher.update(data: Array("\(user):\(realm):".utf8))
        password.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        let inner = Hex.encodeSecret(hasher.finalize())
        guard algorithm.isSession else { return inner }
        return Hex.encodeSecret(Self.digest(algorithm.hash, inner, ":\(nonce):\(clientNonce)"))
    }

    /// H(A2): `method:uri`, and `:H(body)` for auth-int.
    private var ha2: String {
        var a2 = "\(method):\(uri)"
        if qualityOfProtection == .authInt, let bodyHash { a2 += ":\(bodyHash)" }
        return DigestHasher.hash(algorithm.hash, data: Array(a2.utf8)).hexString
    }

    /// KD(secret, data) = H(secret ":" data).
    private func keyedDigest(_ secret: SecureBytes, _ data: String) -> String {
        Self.digest(algorithm.hash, secret, ":\(data)").hexString
    }

    /// H(secret ‖ suffix) without copying the secret out of its wiped memory.
    private static func digest(_ hash: HashAlgorithm, _ secret: SecureBytes, _ suffix: String) -> Digest {
        var hasher = DigestHasher(hash)
        secret.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        hasher.update(data: Array(suffix.utf8))
        return hasher.finalize()
    }
}
