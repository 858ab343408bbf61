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
        var fields = FieldWriter(
            capacity: 160 + challenge.realm.utf8.count + uri.utf8.count + challenge.nonce.utf8.count
                + user.utf8.count + clientNonce.utf8.count + response.utf8.count + (challenge.opaque?.utf8.count ?? 0)
        )
        writeUserField(to: &fields)
        fields.add("realm", quoted: challenge.realm)
        fields.add("uri", quoted: uri)
        fields.add("algorithm", token: challenge.algorithm.rawValue)
        fields.add("nonce", quoted: challenge.nonce)
        if let qualityOfProtection {
            fields.add("nc", token: nonceCount)
            fields.add("cnonce", quoted: clientNonce)
            fields.add("qop", token: qualityOfProtection.rawValue)
        } else if challenge.algorithm.isSession {
            // The -sess H(A1) covers the client nonce, so the server needs it even without qop.
            fields.add("cnonce", quoted: clientNonce)
        }
        fields.add("response", quoted: response)
        if let opaque = challenge.opaque { fields.add("opaque", quoted: opaque) }
        if challenge.userhash { fields.add("userhash", token: "true") }
        return fields.header
    }

    /// `username="H(user:realm)"` when the server asked for userhash; `username="user"` for printable
    /// ASCII; otherwise `username*=UTF-8''…`, the RFC 8187 form §3.4.4 prescribes.
    private func writeUserField(to fields: inout FieldWriter) {
        if challenge.userhash {
            let hashed = DigestHasher.hash(challenge.algorithm.hash, data: Array("\(user):\(challenge.realm)".utf8))
            fields.add("username", quoted: hashed.hexString)
        } else if user.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) {
            fields.add("username", quoted: user)
        } else {
            fields.add("username*", token: "UTF-8''" + Self.percentEncoded(user))
        }
    }

    /// Appends `name=value` fields, comma-separated, to one byte buffer reserved up front: the
    /// header is made once per request on a kept nonce, so no field becomes a string of its own.
    private struct FieldWriter {
        private var bytes = Array("Digest ".utf8)
        private var isFirst = true

        init(capacity: Int) { bytes.reserveCapacity(capacity) }

        var header: String { String(decoding: bytes, as: UTF8.self) }

        mutating func add(_ name: String, token: String) {
            startField(name)
            bytes += token.utf8
        }

        /// A quoted-string: `"` and `\` escaped with `\` (RFC 9110 §5.6.4).
        mutating func add(_ name: String, quoted text: String) {
            startField(name)
            bytes.append(UInt8(ascii: "\""))
            for byte in text.utf8 {
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { bytes.append(UInt8(ascii: "\\")) }
                bytes.append(byte)
            }
            bytes.append(UInt8(ascii: "\""))
        }

        private mutating func startField(_ name: String) {
            if !isFirst { bytes += ", ".utf8 }
            isFirst = false
            bytes += name.utf8
            bytes.append(UInt8(ascii: "="))
        }
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
