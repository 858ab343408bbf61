import SecCrypto

/// Writes the Digest `Authorization` value (RFC 7616 §3.4): quoted strings where the RFC quotes,
/// tokens where it does not (`algorithm`, `nc`, `qop`, `userhash`), and the user name in the form the
/// challenge and the name allow.
struct DigestAuthorizationHeader {
    let challenge: DigestChallenge
    let user: String
    let uri: String
    let qualityOfProtection: DigestQualityOfProtection?
    let nonceCount: String
    let clientNonce: String
    let response: String

    var value: String {
        var fields = [userField]
        fields.append("realm=\(Self.quoted(challenge.realm))")
        fields.append("uri=\(Self.quoted(uri))")
        fields.append("algorithm=\(challenge.algorithm.rawValue)")
        fields.append("nonce=\(Self.quoted(challenge.nonce))")
        if let qualityOfProtection {
            fields.append("nc=\(nonceCount)")
            fields.append("cnonce=\(Self.quoted(clientNonce))")
            fields.append("qop=\(qualityOfProtection.rawValue)")
        } else if challenge.algorithm.isSession {
            // The -sess H(A1) covers the client nonce, so the server needs it even without qop.
            fields.append("cnonce=\(Self.quoted(clientNonce))")
        }
        fields.append("response=\(Self.quoted(response))")
        if let opaque = challenge.opaque { fields.append("opaque=\(Self.quoted(opaque))") }
        if challenge.userhash { fields.append("userhash=true") }
        return "Digest " + fields.joined(separator: ", ")
    }

    /// `username="H(user:realm)"` when the server asked for userhash; `username="user"` for printable
    /// ASCII; otherwise `username*=UTF-8''…`, the RFC 8187 form §3.4.4 prescribes.
    private var userField: String {
        if challenge.userhash {
            let hashed = DigestHasher.hash(challenge.algorithm.hash, data: Array("\(user):\(challenge.realm)".utf8))
            return "username=\(Self.quoted(hashed.hexString))"
        }
        if user.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) { return "username=\(Self.quoted(user))" }
        return "username*=UTF-8''" + Self.percentEncoded(user)
    }

    /// A quoted-string: `"` and `\` escaped with `\` (RFC 9110 §5.6.4).
    static func quoted(_ text: String) -> String {
        // Nonces, hashes and most names hold neither: one append, not one per character.
        if !text.utf8.contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            return "\"" + text + "\""
        }
        var result = "\""
        for character in text {
            if character == "\"" || character == "\\" { result.append("\\") }
            result.append(character)
        }
        return result + "\""
    }

    /// RFC 8187 value-chars: attr-char as is, every other UTF-8 byte as `%XX`.
    private static func percentEncoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            if isAttributeCharacter(byte) {
                result.append(Character(Unicode.Scalar(byte)))
            } else {
                result += "%" + Hex.encode([byte], uppercase: true)
            }
        }
        return result
    }

    private static let attributeSymbols = Array("!#$&+-.^_`|~".utf8)

    private static func isAttributeCharacter(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || attributeSymbols.contains(byte)
    }
}
