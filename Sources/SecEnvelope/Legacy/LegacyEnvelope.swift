import SecCrypto

/// **Legacy.** The `{"iv", "mac", "payload"}` JSON envelope of *Professional iOS Network
/// Programming* (ch. 6): AES-CBC with PKCS#7 padding and a random IV (`iv`, `payload`: base64),
/// and a separate HMAC-SHA256 (`mac`: lowercase hex) over the **plaintext** or over a canonical
/// string built from it.
///
/// Use it only to talk to servers that already speak it. Because the MAC covers the plaintext, the
/// receiver must decrypt before it can authenticate (MAC-then-encrypt), which is how padding-oracle
/// attacks begin; the IV is not authenticated at all. `open` therefore never says whether the
/// padding, the MAC or the canonical fields failed: there is one `authenticationFailure`, reached
/// after the same work in every case. New designs use `JWE` (or `Fernet`), which authenticate the
/// ciphertext before decrypting.
///
/// ```swift
/// let envelope = try LegacyEnvelope(encryptionKey: key, macKey: macKey)
/// let request = try envelope.seal(transferJSON, macInput: .fields(["toAccount", "fromAccount", "amount", "transferDate"]))
/// let reply = try envelope.open(responseJSON)            // MAC over the plaintext
/// ```
public struct LegacyEnvelope: Sendable {
    /// What the `mac` covers.
    public enum MACInput: Sendable {
        /// The plaintext bytes (the book's response path).
        case plaintext
        /// The named string members of the plaintext (a JSON object), concatenated with nothing
        /// between them (the book's request path: `toAccount . fromAccount . amount . transferDate`).
        case fields([String])
    }

    private let encryptionKey: SymmetricKey
    private let macKey: SymmetricKey

    /// `encryptionKey`: 16, 24 or 32 bytes (the book used 32-character strings as AES-256 keys);
    /// `macKey`: any non-empty length.
    ///
    /// - Parameters:
    ///   - encryptionKey: the AES-CBC key: 16, 24 or 32 bytes.
    ///   - macKey: the HMAC-SHA256 key; not empty.
    /// - Throws: `CryptoError.incorrectSize` when `encryptionKey` is not 16, 24 or 32 bytes;
    ///   `CryptoError.invalidParameter` when `macKey` is empty.
    public init(encryptionKey: SymmetricKey, macKey: SymmetricKey) throws(CryptoError) {
        _ = try AES.algorithm(gcm: false, keyByteCount: encryptionKey.bitCount / 8)
        guard macKey.bitCount > 0 else { throw .invalidParameter("the legacy envelope's MAC key must not be empty") }
        self.encryptionKey = encryptionKey
        self.macKey = macKey
    }

    /// Encrypts `plaintext` with a random IV and returns the envelope as compact JSON
    /// (`{"iv":…,"mac":…,"payload":…}`).
    ///
    /// - Parameters:
    ///   - plaintext: the bytes to encrypt; with `.fields`, a JSON object holding those string members.
    ///   - macInput: what the MAC covers: the plaintext (the default) or the named fields.
    /// - Returns: the envelope's compact JSON, in UTF-8.
    /// - Throws: `CryptoError.invalidParameter` when `macInput` is `.fields` and `plaintext` is not a
    ///   JSON object with those string members; `CryptoError.randomGenerationFailed` when no IV can be
    ///   drawn; `CryptoError.backendFailure` when OpenSSL fails.
    public func seal(_ plaintext: some DataProtocol, macInput: MACInput = .plaintext) throws(CryptoError) -> Data {
        let plaintext = Data(plaintext)
        guard let authenticated = Self.authenticatedBytes(of: plaintext, macInput) else {
            throw .invalidParameter("the plaintext is not a JSON object with string members \(Self.names(macInput))")
        }
        let iv = try SecureRandom.bytes(count: AES.CBC.ivByteCount)
        let payload = try AES.CBC.encrypt(plaintext, using: encryptionKey, iv: iv)
        let mac = HMAC<SHA256>.authenticationCode(for: authenticated, using: macKey)
        var writer = JSONWriter()
        writer.object { envelope in
            envelope.member("iv", .string(Base64.encode(iv)))
            envelope.member("mac", .string(mac.hexString))
            envelope.member("payload", .string(Base64.encode(payload)))
        }
        return Data(writer.bytes)
    }

    /// Decrypts and authenticates an envelope. A wrong key, an altered IV, payload or MAC, bad
    /// padding, or (with `.fields`) a plaintext without those fields all throw the same
    /// `authenticationFailure`; an envelope that is not JSON with the three string members is
    /// `malformedInput`.
    ///
    /// - Parameters:
    ///   - envelope: the envelope's JSON.
    ///   - macInput: what the MAC covers, as the sender computed it: the plaintext (the default) or the
    ///     named fields.
    /// - Returns: the plaintext, once its padding and MAC are verified.
    /// - Throws: `CryptoError.malformedInput` when `envelope` is not a JSON object with `iv`, `mac` and
    ///   `payload` strings; `CryptoError.authenticationFailure` for everything else that fails: a wrong
    ///   key, an IV, payload or MAC that is not in canonical form or was altered, bad padding, or (with
    ///   `.fields`) a plaintext without those fields.
    public func open(_ envelope: some DataProtocol, macInput: MACInput = .plaintext) throws(CryptoError) -> Data {
        let parsed: JSONValue
        do {
            parsed = try JSONValue(parsing: Array(envelope))
        } catch {
            throw .malformedInput("legacy envelope: \(error)")
        }
        guard let object = parsed.object else { throw .malformedInput("legacy envelope is not a JSON object") }
        func member(_ name: String) throws(CryptoError) -> String {
            guard let value = object[name]?.string else {
                throw .malformedInput("legacy envelope has no string \"\(name)\"")
            }
            return value
        }
        let ivText = try member("iv")
        let macText = try member("mac")
        let payloadText = try member("payload")
        // Only the canonical spellings (padded base64, lower-case hex, as PHP and the book write
        // them), so that no altered envelope text opens like the original.
        guard let iv = try? Base64.decodeCanonical(ivText, alphabet: .standard, padded: true),
            iv.count == AES.CBC.ivByteCount,
            let payload = try? Base64.decodeCanonical(payloadText, alphabet: .standard, padded: true),
            !payload.isEmpty, payload.count % 16 == 0,
            macText.utf8.count == 64,
            macText.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }),
            let mac = try? Hex.decode(macText)
        else { throw .authenticationFailure }
        // Decrypt without padding removal, then check padding and MAC together, so that every
        // failure takes the same path and says the same thing.
        var padded = (try? AES.CBC.decrypt(payload, using: encryptionKey, iv: iv, padding: .none)) ?? Data()
        defer { padded.withUnsafeMutableBytes { secureZero($0) } }
        let (paddingLength, paddingValid) = Self.pkcs7PaddingLength(padded)
        let plaintext = padded.prefix(padded.count - paddingLength)
        let authenticated = Self.authenticatedBytes(of: plaintext, macInput)
        let macValid = HMAC<SHA256>.isValidAuthenticationCode(
            mac,
            authenticating: authenticated ?? [UInt8](plaintext),
            using: macKey
        )
        guard macValid, paddingValid, authenticated != nil else { throw .authenticationFailure }
        return Data(plaintext)
    }

    /// The PKCS#7 padding length, examined without branching on the padding bytes; an invalid
    /// padding reports length 0 and `false`.
    private static func pkcs7PaddingLength(_ block: Data) -> (Int, Bool) {
        guard let last = block.last else { return (0, false) }
        let length = Int(last)
        var bad = UInt8(length == 0 || length > 16 ? 1 : 0)
        for offset in 1...16 where offset <= block.count {
            let byte = block[block.index(block.endIndex, offsetBy: -offset)]
            let inPadding: UInt8 = offset <= length ? 0xff : 0
            bad |= (byte ^ last) & inPadding
        }
        return bad == 0 ? (length, true) : (0, false)
    }

    /// The bytes the MAC covers, or nil when `.fields` cannot be built from `plaintext`.
    private static func authenticatedBytes(of plaintext: some DataProtocol, _ macInput: MACInput) -> [UInt8]? {
        switch macInput {
        case .plaintext:
            return [UInt8](plaintext)
        case .fields(let names):
            guard let object = (try? JSONValue(parsing: [UInt8](plaintext)))?.object else { return nil }
            var bytes: [UInt8] = []
            for name in names {
                guard let value = object[name]?.string else { return nil }
                bytes.append(contentsOf: value.utf8)
            }
            return bytes
        }
    }

    private static func names(_ macInput: MACInput) -> String {
        guard case .fields(let names) = macInput else { return "" }
        return names.map { "\"\($0)\"" }.joined(separator: ", ")
    }
}
