import SecCrypto

/// Fernet tokens (github.com/fernet/spec), as Python's `cryptography.fernet` makes them:
/// base64url(0x80 ‖ timestamp ‖ IV ‖ AES-128-CBC ciphertext ‖ HMAC-SHA256), under one 32-byte key
/// (the first half signs, the second half encrypts).
///
/// ```swift
/// let fernet = try Fernet(key: "cw_0x689RpI-jtRR7oE8h_eQsKImvJapLeSbXpwF4e4=")
/// let token = try fernet.encrypt(Data("hello".utf8))
/// let plaintext = try fernet.decrypt(token, timeToLive: 300)   // refuse tokens older than 5 minutes
/// ```
///
/// The MAC is checked, in constant time, before anything else is believed: any altered, truncated
/// or foreign token fails with `authenticationFailure`. Only an authentic token can be `expired`.
public struct Fernet: Sendable {
    /// Tokens dated more than this many seconds in the future are refused (as in `cryptography`).
    public static let maximumClockSkew: Int64 = 60
    private static let version: UInt8 = 0x80
    /// version ‖ timestamp ‖ IV.
    private static let headerByteCount = 1 + 8 + 16
    private static let macByteCount = 32

    /// HMAC-SHA256 keyed with the signing key once; each MAC works on a copy (copying a keyed
    /// context is cheaper than keying a new one).
    private let signing: MACContext
    private let encryptionKey: SymmetricKey

    /// A key from its text form: base64url of 32 bytes (what `Fernet.generate_key()` prints).
    ///
    /// - Parameter key: the key's text: base64url of 32 bytes, padded.
    /// - Throws: `CryptoError.invalidEncoding` when `key` is not base64url, `CryptoError.incorrectSize`
    ///   when it does not decode to 32 bytes.
    public init(key: String) throws(CryptoError) {
        let bytes: [UInt8]
        do {
            bytes = try Base64.decode(key, alphabet: .url)
        } catch {
            throw .invalidEncoding("Fernet key is not base64url")
        }
        try self.init(key: SymmetricKey(data: bytes))
    }

    /// A key from 32 raw bytes.
    ///
    /// - Parameter key: the 32 bytes: the signing key, then the encryption key.
    /// - Throws: `CryptoError.incorrectSize` when `key` is not 32 bytes.
    public init(key: SymmetricKey) throws(CryptoError) {
        guard key.bitCount == 256 else {
            throw .incorrectSize(
                what: "Fernet key",
                expected: "32 bytes (44 base64url characters)",
                actual: key.bitCount / 8
            )
        }
        (signing, encryptionKey) = key.withUnsafeBytes {
            (
                MACContext(algorithm: .sha256, key: UnsafeRawBufferPointer(rebasing: $0[..<16])),
                SymmetricKey(data: UnsafeRawBufferPointer(rebasing: $0[16...]))
            )
        }
    }

    /// A new random key in text form.
    ///
    /// - Returns: 32 bytes from OpenSSL's CSPRNG as padded base64url, what `Fernet(key:)` reads.
    /// - Throws: `CryptoError.randomGenerationFailed` when the CSPRNG fails.
    public static func generateKey() throws(CryptoError) -> String {
        Base64.encode(try SecureRandom.bytes(count: 32), alphabet: .url)
    }

    /// Encrypts `plaintext` into a token dated `date`.
    ///
    /// - Parameters:
    ///   - plaintext: the bytes to encrypt; any length, empty included.
    ///   - date: the token's timestamp, in whole seconds (now by default).
    /// - Returns: the token: padded base64url, as `cryptography.fernet` makes it.
    /// - Throws: `CryptoError.randomGenerationFailed` when no IV can be drawn,
    ///   `CryptoError.backendFailure` when OpenSSL fails.
    public func encrypt(_ plaintext: some DataProtocol, at date: Date = Date()) throws(CryptoError) -> String {
        try encrypt(
            plaintext,
            timestamp: Int64(date.timeIntervalSince1970.rounded(.down)),
            iv: try SecureRandom.bytes(count: 16)
        )
    }

    /// Encrypts with a given IV: for the specification's test vectors only.
    package func encrypt(_ plaintext: some DataProtocol, timestamp: Int64, iv: [UInt8]) throws(CryptoError) -> String {
        let plaintext = [UInt8](plaintext)
        let capacity = Self.headerByteCount + plaintext.count + 16 + Self.macByteCount
        var token = [UInt8](repeating: 0, count: capacity)
        let count = try token.withUnsafeMutableBufferPointer { (token) throws(CryptoError) -> Int in
            let token = UnsafeMutableRawBufferPointer(token)
            token[0] = Self.version
            withUnsafeBytes(of: UInt64(bitPattern: timestamp).bigEndian) {
                token.baseAddress!.advanced(by: 1).copyMemory(from: $0.baseAddress!, byteCount: 8)
            }
            iv.withUnsafeBytes { token.baseAddress!.advanced(by: 9).copyMemory(from: $0.baseAddress!, byteCount: 16) }
            let ciphertextCount = try encryptionKey.withBytes { (key) throws(CryptoError) in
                let context = try CipherContext(
                    .aes128CBC,
                    encrypting: true,
                    key: key,
                    iv: UnsafeRawBufferPointer(rebasing: token[9..<25]),
                    padding: true
                )
                let output = UnsafeMutableRawBufferPointer(rebasing: token[Self.headerByteCount...])
                let count = plaintext.withUnsafeBytes { context.update($0, into: output) }
                return count + (try context.finish(into: UnsafeMutableRawBufferPointer(rebasing: output[count...])))
            }
            let signed = Self.headerByteCount + ciphertextCount
            let mac = mac(UnsafeRawBufferPointer(rebasing: token[..<signed]))
            mac.bytes.withUnsafeBytes {
                token.baseAddress!.advanced(by: signed).copyMemory(from: $0.baseAddress!, byteCount: Self.macByteCount)
            }
            return signed + Self.macByteCount
        }
        return Base64.encode(token[..<count], alphabet: .url)
    }

    /// Verifies and decrypts `token` (white space around it is ignored). With `timeToLive` (seconds), tokens older than that are
    /// refused as `expired`; tokens dated more than `maximumClockSkew` seconds after `now` always are.
    ///
    /// - Parameters:
    ///   - token: the token's text.
    ///   - timeToLive: the greatest age accepted, in seconds; nil (the default) accepts any age.
    ///   - now: the time the age and the clock skew are measured at (now by default).
    /// - Returns: the plaintext.
    /// - Throws: `CryptoError.authenticationFailure` when the token is not base64url, is truncated, was
    ///   made with another key or was altered (its MAC is checked first, in constant time);
    ///   `CryptoError.expired` when an authentic token is older than `timeToLive` or dated more than
    ///   ``Fernet/maximumClockSkew`` seconds after `now`; `CryptoError.backendFailure` when OpenSSL
    ///   fails.
    public func decrypt(_ token: String, timeToLive: Int64? = nil, now: Date = Date()) throws(CryptoError) -> Data {
        try verify(token, timeToLive: timeToLive, now: now).plaintext
    }

    /// The creation time of an authentic token (without checking its age).
    ///
    /// - Parameter token: the token's text.
    /// - Returns: the time the token says it was made, in whole seconds.
    /// - Throws: `CryptoError.authenticationFailure` when the token is not authentic under this key
    ///   (malformed, truncated, another key's, or altered); `CryptoError.backendFailure` when OpenSSL
    ///   fails.
    public func timestamp(of token: String) throws(CryptoError) -> Date {
        Date(timeIntervalSince1970: TimeInterval(try verify(token, timeToLive: nil, now: nil).timestamp))
    }

    /// Checks the MAC, then the age, then decrypts.
    func verify(
        _ token: String,
        timeToLive: Int64?,
        now: Date?
    ) throws(CryptoError) -> (plaintext: Data, timestamp: Int64) {
        let text = trimmedTokenBytes(token)
        guard let raw = text.withUnsafeBytes({ try? Base64.decodeCanonical($0, alphabet: .url, padded: true) }) else {
            throw .authenticationFailure
        }
        let ciphertextCount = raw.count - Self.headerByteCount - Self.macByteCount
        guard raw.first == Self.version, ciphertextCount >= 16, ciphertextCount % 16 == 0 else {
            throw .authenticationFailure
        }
        return try raw.withUnsafeBufferPointer { (raw) throws(CryptoError) in
            let raw = UnsafeRawBufferPointer(raw)
            let signed = raw.count - Self.macByteCount
            let expected = mac(UnsafeRawBufferPointer(rebasing: raw[..<signed]))
            guard
                expected.bytes.withUnsafeBytes({
                    constantTimeEquals($0, UnsafeRawBufferPointer(rebasing: raw[signed...]))
                })
            else {
                throw .authenticationFailure
            }
            let timestamp = Int64(bitPattern: raw.loadUnaligned(fromByteOffset: 1, as: UInt64.self).bigEndian)
            if let now {
                let current = Int64(now.timeIntervalSince1970.rounded(.down))
                if let timeToLive, timestamp + timeToLive < current {
                    throw .expired(
                        "Fernet token expired: created \(current - timestamp) s ago, time-to-live \(timeToLive) s"
                    )
                }
                if timestamp > current + Self.maximumClockSkew {
                    throw .expired(
                        "Fernet token is dated \(timestamp - current) s in the future (clock skew limit \(Self.maximumClockSkew) s)"
                    )
                }
            }
            // The MAC verified, so bad padding means a sender bug or a broken key: still one error.
            let plaintext = try encryptionKey.withBytes { (key) throws(CryptoError) in
                let context = try CipherContext(
                    .aes128CBC,
                    encrypting: false,
                    key: key,
                    iv: UnsafeRawBufferPointer(rebasing: raw[9..<25]),
                    padding: true
                )
                var plaintext = Data(count: ciphertextCount + 16)
                let count = try plaintext.withMutableBytes { (output) throws(CryptoError) in
                    let count = context.update(
                        UnsafeRawBufferPointer(rebasing: raw[Self.headerByteCount..<signed]),
                        into: output
                    )
                    do {
                        return count
                            + (try context.finish(into: UnsafeMutableRawBufferPointer(rebasing: output[count...])))
                    } catch {
                        throw .authenticationFailure
                    }
                }
                plaintext.count = count
                return plaintext
            }
            return (plaintext, timestamp)
        }
    }

    private func mac(_ bytes: UnsafeRawBufferPointer) -> AuthenticationCode {
        let context = signing.copy()
        context.update(bytes)
        return context.finish()
    }
}

/// Several Fernet keys for rotation, like Python's `MultiFernet`: encrypts with the first, decrypts
/// with any, and `rotate` re-encrypts a token under the first key, keeping its timestamp.
public struct MultiFernet: Sendable {
    public let fernets: [Fernet]

    /// `fernets` in order of preference; the first encrypts. At least one.
    ///
    /// - Parameter fernets: the keys, the preferred one first; a precondition failure when empty.
    public init(_ fernets: [Fernet]) {
        precondition(!fernets.isEmpty, "MultiFernet needs at least one key")
        self.fernets = fernets
    }

    /// Encrypts with the first key.
    ///
    /// - Parameters:
    ///   - plaintext: the bytes to encrypt.
    ///   - date: the token's timestamp, in whole seconds (now by default).
    /// - Returns: the token, under the first key.
    /// - Throws: `CryptoError.randomGenerationFailed` when no IV can be drawn,
    ///   `CryptoError.backendFailure` when OpenSSL fails.
    public func encrypt(_ plaintext: some DataProtocol, at date: Date = Date()) throws(CryptoError) -> String {
        try fernets[0].encrypt(plaintext, at: date)
    }

    /// Decrypts with whichever key the token opens with.
    ///
    /// - Parameters:
    ///   - token: the token's text.
    ///   - timeToLive: the greatest age accepted, in seconds; nil (the default) accepts any age.
    ///   - now: the time the age and the clock skew are measured at (now by default).
    /// - Returns: the plaintext.
    /// - Throws: `CryptoError.authenticationFailure` when no key authenticates the token;
    ///   `CryptoError.expired` when the key that does finds it older than `timeToLive` or dated more
    ///   than ``Fernet/maximumClockSkew`` seconds after `now`; `CryptoError.backendFailure` when
    ///   OpenSSL fails.
    public func decrypt(_ token: String, timeToLive: Int64? = nil, now: Date = Date()) throws(CryptoError) -> Data {
        try verify(token, timeToLive: timeToLive, now: now).plaintext
    }

    /// Re-encrypts an authentic token under the first key, with the same timestamp.
    ///
    /// - Parameter token: a token made under any of the keys; its age is not checked.
    /// - Returns: a new token of the same plaintext and timestamp, under the first key.
    /// - Throws: `CryptoError.authenticationFailure` when no key authenticates the token;
    ///   `CryptoError.randomGenerationFailed` when no IV can be drawn; `CryptoError.backendFailure`
    ///   when OpenSSL fails.
    public func rotate(_ token: String) throws(CryptoError) -> String {
        let (plaintext, timestamp) = try verify(token, timeToLive: nil, now: nil)
        return try fernets[0].encrypt(plaintext, timestamp: timestamp, iv: try SecureRandom.bytes(count: 16))
    }

    private func verify(
        _ token: String,
        timeToLive: Int64?,
        now: Date?
    ) throws(CryptoError) -> (plaintext: Data, timestamp: Int64) {
        for fernet in fernets {
            do {
                return try fernet.verify(token, timeToLive: timeToLive, now: now)
            } catch .authenticationFailure {
                continue
            }
        }
        throw .authenticationFailure
    }
}
