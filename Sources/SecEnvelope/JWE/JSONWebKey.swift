import SecCrypto

/// A symmetric JSON Web Key (RFC 7517 `kty: "oct"`): a shared key with an optional key ID (`kid`)
/// that JWE headers name, so that a recipient holding several keys knows which one to use.
///
/// ```swift
/// let jwk = JSONWebKey(key: SymmetricKey(size: .bits256), keyID: "2026-11")
/// let text = jwk.exportedJSON()          // {"kty":"oct","k":"…","kid":"2026-11"}: a secret
/// let again = try JSONWebKey(json: text)
/// ```
public struct JSONWebKey: Sendable, Equatable, CustomStringConvertible {
    /// The key bytes (`k`).
    public var key: SymmetricKey
    /// The key ID (`kid`), if any.
    public var keyID: String?

    /// A JWK of `key`.
    ///
    /// - Parameters:
    ///   - key: the key bytes (`k`).
    ///   - keyID: the key ID (`kid`) that JWE headers name it by; nil (the default) for none.
    public init(key: SymmetricKey, keyID: String? = nil) {
        self.key = key
        self.keyID = keyID
    }

    /// Parses `{"kty":"oct","k":"<base64url>", "kid": …}`. Other key types are refused.
    ///
    /// - Parameter json: the JWK's JSON text.
    /// - Throws: `CryptoError.malformedInput` when `json` is not a JSON object, has no `kty` or `k`,
    ///   `k` is empty, or `kid` is not a string; `CryptoError.unsupported` when `kty` is not `oct`;
    ///   `CryptoError.invalidEncoding` when `k` is not base64url.
    public init(json: String) throws(CryptoError) {
        try self.init(object: try Self.parseObject(json, what: "JWK"))
    }

    init(object: [String: JSONValue]) throws(CryptoError) {
        guard let kty = object["kty"]?.string else { throw .malformedInput("JWK has no \"kty\"") }
        guard kty == "oct" else {
            // The value is not quoted: it comes from a key file.
            throw .unsupported(
                "JWK key type (\"kty\", \(kty.utf8.count) bytes) is not \"oct\": only symmetric keys are supported"
            )
        }
        guard let k = object["k"]?.string else { throw .malformedInput("JWK has no \"k\"") }
        guard let bytes = try? Base64.decodeCanonical(k, alphabet: .url, padded: false) else {
            throw .invalidEncoding("JWK \"k\" is not base64url")
        }
        guard !bytes.isEmpty else { throw .malformedInput("JWK \"k\" is empty") }
        if let kid = object["kid"], kid.string == nil { throw .malformedInput("JWK \"kid\" must be a string") }
        self.init(key: SymmetricKey(data: bytes), keyID: object["kid"]?.string)
    }

    /// The JWK as compact JSON, key included: treat the text as the secret it is.
    ///
    /// - Returns: `{"kty":"oct","k":"…"}`, with `"kid"` when the key has an ID.
    public func exportedJSON() -> String {
        exportedJSONBytes().withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// `exportedJSON()` in memory that is wiped on release, for writing the key out without leaving
    /// copies of it in `String`s.
    ///
    /// - Returns: the UTF-8 bytes of ``JSONWebKey/exportedJSON()``, in memory that is wiped on release.
    public func exportedJSONBytes() -> SecureBytes {
        // {"kty":"oct","k":"<base64url>"[,"kid":<JSON string>]}, assembled in one wiped buffer;
        // only the kid, which is not secret, goes through the JSON writer.
        let head = Array(#"{"kty":"oct","k":""#.utf8)
        var tail = Array(#"""#.utf8)
        if let keyID {
            var writer = JSONWriter()
            writer.string(keyID)
            tail += Array(#","kid":"#.utf8) + writer.bytes
        }
        tail.append(UInt8(ascii: "}"))
        let k = Base64.encodeSecret(key, alphabet: .url, padding: false)
        return SecureBytes(count: head.count + k.count + tail.count) { (output: UnsafeMutableRawBufferPointer) in
            var written = 0
            func append(_ bytes: UnsafeRawBufferPointer) {
                UnsafeMutableRawBufferPointer(rebasing: output[written..<(written + bytes.count)]).copyMemory(
                    from: bytes
                )
                written += bytes.count
            }
            head.withUnsafeBytes(append)
            k.withUnsafeBytes(append)
            tail.withUnsafeBytes(append)
        }
    }

    /// Never shows the key.
    public var description: String { "JSONWebKey(\(key.bitCount) bits\(keyID.map { ", kid \"\($0)\"" } ?? ""))" }

    static func parseObject(_ json: String, what: String) throws(CryptoError) -> [String: JSONValue] {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: json.utf8)
        } catch {
            throw .malformedInput("\(what): \(error)")
        }
        guard let object = value.object else { throw .malformedInput("\(what) is not a JSON object") }
        return object
    }
}

/// Several symmetric JWKs, for key rotation: a JWE names its key with `kid`, or, without one, each
/// key is tried in turn.
public struct JSONWebKeySet: Sendable, Equatable {
    public var keys: [JSONWebKey]

    /// A set of `keys`.
    ///
    /// - Parameter keys: the keys, in the order they are tried when a token names none.
    public init(_ keys: [JSONWebKey]) {
        self.keys = keys
    }

    /// Parses a JWK Set (`{"keys":[…]}`, RFC 7517 §5) or a single JWK.
    ///
    /// - Parameter json: a JWK Set's JSON text, or a single JWK's.
    /// - Throws: `CryptoError.malformedInput` when `json` is not a JSON object, or its `keys` is not a
    ///   non-empty array of objects; any error of ``JSONWebKey/init(json:)`` for a key of the set.
    public init(json: String) throws(CryptoError) {
        let object = try JSONWebKey.parseObject(json, what: "JWK set")
        guard let keys = object["keys"] else {
            self.init([try JSONWebKey(object: object)])
            return
        }
        guard let elements = keys.array, !elements.isEmpty else {
            throw .malformedInput("JWK set \"keys\" must be a non-empty array")
        }
        var parsed: [JSONWebKey] = []
        for element in elements {
            guard let member = element.object else {
                throw .malformedInput("JWK set holds something that is not a JWK")
            }
            parsed.append(try JSONWebKey(object: member))
        }
        self.init(parsed)
    }
}
