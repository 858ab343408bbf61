import SecCrypto

/// JSON Web Encryption in the compact serialization (RFC 7516, algorithms of RFC 7518): a sealed,
/// authenticated payload that travels as one URL-safe line and opens in any JOSE library.
///
/// ```swift
/// let key = SymmetricKey(size: .bits256)
/// let token = try JWE.encrypt(payload, using: key)                     // dir + A256GCM
/// let opened = try JWE.decrypt(token, using: key)
///
/// let sealed = try JWE.encrypt(payload, password: password)          // PBES2-HS512+A256KW
/// let again = try JWE.decrypt(sealed, password: password)
/// ```
///
/// Decryption refuses `alg: none`, unknown algorithms, compression and unknown critical headers
/// with a clear error. Whatever the reason a token does not open — wrong key or password, or any
/// altered byte after the header — the error is the same `authenticationFailure`.
public enum JWE {
    /// Limits and allowed algorithms for decryption.
    public struct DecryptionPolicy: Sendable {
        /// The `alg` values accepted. All by default.
        public var keyManagementAlgorithms = Set(KeyManagementAlgorithm.allCases)
        /// The `enc` values accepted. All by default.
        public var contentEncryptionAlgorithms = Set(ContentEncryptionAlgorithm.allCases)
        /// Longer tokens are refused before any work: 96 MiB by default (the token of a 64 MiB payload
        /// is about 86 MiB).
        public var maximumTokenByteCount = 96 << 20
        /// A PBES2 header asking for more PBKDF2 iterations is refused, so that a hostile token cannot
        /// keep a server busy: 10,000,000 by default.
        public var maximumPBES2Iterations = 10_000_000
        /// Fewer PBES2 iterations are refused as too weak: 1,000 by default (RFC 7518 §4.8.1.2).
        public var minimumPBES2Iterations = 1_000

        /// The default policy: every algorithm SecEnvelope implements, and the limits above.
        public init() {}

        public static let `default` = DecryptionPolicy()
    }

    // MARK: Encryption

    /// Encrypts `plaintext` with a shared key. With `.direct` (the default) the key is the content
    /// key and must be `contentEncryption.keyByteCount` long (32 bytes for A256GCM); with
    /// `.a128KW`/`.a192KW`/`.a256KW` it wraps a fresh random content key and must be 16/24/32 bytes.
    ///
    /// - Parameters:
    ///   - plaintext: the payload; any length.
    ///   - key: the shared key: the content key for `.direct`, the key-encryption key for AES key wrap.
    ///   - keyManagement: `alg`: `.direct` (the default) or an AES key wrap; not a PBES2 algorithm.
    ///   - contentEncryption: `enc`: A256GCM by default.
    ///   - keyID: `kid`, the key's name for the recipient; nil (the default) for none.
    ///   - contentType: `cty`, the media type of the payload; nil (the default) for none.
    /// - Returns: the token in compact serialization (five base64url parts joined by dots).
    /// - Throws: `CryptoError.invalidParameter` when `keyManagement` takes a password;
    ///   `CryptoError.incorrectSize` when `key` is not the size `keyManagement` and `contentEncryption`
    ///   need; `CryptoError.randomGenerationFailed` when no content key or IV can be drawn;
    ///   `CryptoError.backendFailure` when OpenSSL fails.
    public static func encrypt(
        _ plaintext: some DataProtocol,
        using key: SymmetricKey,
        keyManagement: KeyManagementAlgorithm = .direct,
        contentEncryption: ContentEncryptionAlgorithm = .a256GCM,
        keyID: String? = nil,
        contentType: String? = nil
    ) throws(CryptoError) -> String {
        guard !keyManagement.usesPassword else {
            throw .invalidParameter("JWE \(keyManagement) takes a password, not a key")
        }
        let header = Header(
            keyManagement: keyManagement,
            contentEncryption: contentEncryption,
            keyID: keyID,
            contentType: contentType
        )
        guard let kekByteCount = keyManagement.keyWrapByteCount else {
            try key.withBytes { (key) throws(CryptoError) in try contentEncryption.checkDirectKey(key) }
            return try seal(plaintext, header: header, cek: key, encryptedKey: [])
        }
        let (cek, encryptedKey) = try key.withBytes { (key) throws(CryptoError) in
            try wrappedContentKey(for: header, secret: key, kekByteCount: kekByteCount)
        }
        return try seal(plaintext, header: header, cek: cek, encryptedKey: encryptedKey)
    }

    /// Encrypts `plaintext` with a JWK, naming it in the header with its `kid`.
    ///
    /// - Parameters:
    ///   - plaintext: the payload; any length.
    ///   - key: the JWK; its `keyID` becomes the header's `kid`.
    ///   - keyManagement: `alg`: `.direct` (the default) or an AES key wrap; not a PBES2 algorithm.
    ///   - contentEncryption: `enc`: A256GCM by default.
    ///   - contentType: `cty`, the media type of the payload; nil (the default) for none.
    /// - Returns: the token in compact serialization.
    /// - Throws: as ``JWE/encrypt(_:using:keyManagement:contentEncryption:keyID:contentType:)`` does:
    ///   `CryptoError.invalidParameter`, `CryptoError.incorrectSize`,
    ///   `CryptoError.randomGenerationFailed` or `CryptoError.backendFailure`.
    public static func encrypt(
        _ plaintext: some DataProtocol,
        using key: JSONWebKey,
        keyManagement: KeyManagementAlgorithm = .direct,
        contentEncryption: ContentEncryptionAlgorithm = .a256GCM,
        contentType: String? = nil
    ) throws(CryptoError) -> String {
        try encrypt(
            plaintext,
            using: key.key,
            keyManagement: keyManagement,
            contentEncryption: contentEncryption,
            keyID: key.keyID,
            contentType: contentType
        )
    }

    /// Encrypts `plaintext` with a password (PBES2, RFC 7518 §4.8): PBKDF2 with a random 16-byte salt
    /// derives the key that wraps a random content key. `iterations` defaults to
    /// `keyManagement.recommendedIterations` (210,000 for the default PBES2-HS512+A256KW) and must be
    /// between 1,000 and 10,000,000.
    ///
    /// - Parameters:
    ///   - plaintext: the payload; any length.
    ///   - password: the password's bytes (UTF-8 text, typically).
    ///   - keyManagement: `alg`: a PBES2 algorithm, PBES2-HS512+A256KW by default.
    ///   - contentEncryption: `enc`: A256GCM by default.
    ///   - iterations: the PBKDF2 iteration count (`p2c`); nil (the default) for
    ///     `keyManagement.recommendedIterations`.
    ///   - keyID: `kid`, the password's name for the recipient; nil (the default) for none.
    ///   - contentType: `cty`, the media type of the payload; nil (the default) for none.
    /// - Returns: the token in compact serialization.
    /// - Throws: `CryptoError.invalidParameter` when `keyManagement` is not a PBES2 algorithm or
    ///   `iterations` is outside 1,000 to 10,000,000; `CryptoError.randomGenerationFailed` when no
    ///   salt, content key or IV can be drawn; `CryptoError.backendFailure` when OpenSSL fails.
    public static func encrypt(
        _ plaintext: some DataProtocol,
        password: some ContiguousBytes,
        keyManagement: KeyManagementAlgorithm = .pbes2HS512A256KW,
        contentEncryption: ContentEncryptionAlgorithm = .a256GCM,
        iterations: Int? = nil,
        keyID: String? = nil,
        contentType: String? = nil
    ) throws(CryptoError) -> String {
        guard let recommended = keyManagement.recommendedIterations,
            let kekByteCount = keyManagement.keyWrapByteCount
        else {
            throw .invalidParameter("JWE \(keyManagement) takes a key, not a password")
        }
        let iterations = iterations ?? recommended
        let limits = DecryptionPolicy.default
        guard (limits.minimumPBES2Iterations...limits.maximumPBES2Iterations).contains(iterations) else {
            throw .invalidParameter(
                "JWE PBES2 iterations must be between \(limits.minimumPBES2Iterations) and \(limits.maximumPBES2Iterations), got \(iterations)"
            )
        }
        var header = Header(
            keyManagement: keyManagement,
            contentEncryption: contentEncryption,
            keyID: keyID,
            contentType: contentType
        )
        header.pbes2SaltInput = try SecureRandom.bytes(count: 16)
        header.pbes2Iterations = iterations
        let (cek, encryptedKey) = try password.withBytes { (password) throws(CryptoError) in
            try wrappedContentKey(for: header, secret: password, kekByteCount: kekByteCount)
        }
        return try seal(plaintext, header: header, cek: cek, encryptedKey: encryptedKey)
    }

    // MARK: Decryption

    /// Decrypts a token sealed with a shared key (`dir` or AES key wrap).
    ///
    /// - Parameters:
    ///   - compact: the token in compact serialization; white space around it is ignored.
    ///   - key: the shared key.
    ///   - policy: the algorithms accepted and the limits (``JWE/DecryptionPolicy/default`` by
    ///     default).
    /// - Returns: the payload, once authenticated.
    /// - Throws: what ``JWE/Token/init(compact:policy:)`` throws for a token that cannot be parsed or
    ///   that `policy` refuses, then what `JWE.Token.decrypt(using:)` throws for a `SymmetricKey`:
    ///   `CryptoError.invalidParameter` when the token's `alg` takes a password,
    ///   `CryptoError.incorrectSize` when `key` is not the size its algorithms need,
    ///   `CryptoError.authenticationFailure` when the token does not open with `key`.
    public static func decrypt(
        _ compact: String,
        using key: SymmetricKey,
        policy: DecryptionPolicy = .default
    ) throws(CryptoError) -> Data {
        try Token(compact: compact, policy: policy).decrypt(using: key)
    }

    /// Decrypts a token with the key its `kid` names, or, when it names none, with each key in turn.
    ///
    /// - Parameters:
    ///   - compact: the token in compact serialization; white space around it is ignored.
    ///   - keys: the keys to choose from.
    ///   - policy: the algorithms accepted and the limits (``JWE/DecryptionPolicy/default`` by
    ///     default).
    /// - Returns: the payload, once authenticated.
    /// - Throws: what ``JWE/Token/init(compact:policy:)`` throws for a token that cannot be parsed or
    ///   that `policy` refuses; `CryptoError.keyNotFound` when no key has the token's `kid` (or,
    ///   without one, the size its algorithms need); `CryptoError.authenticationFailure` when the token
    ///   does not open with the key.
    public static func decrypt(
        _ compact: String,
        using keys: JSONWebKeySet,
        policy: DecryptionPolicy = .default
    ) throws(CryptoError) -> Data {
        try Token(compact: compact, policy: policy).decrypt(using: keys)
    }

    /// Decrypts a token sealed with a password (PBES2).
    ///
    /// - Parameters:
    ///   - compact: the token in compact serialization; white space around it is ignored.
    ///   - password: the password's bytes.
    ///   - policy: the algorithms accepted and the limits, the PBES2 iteration bounds among them
    ///     (``JWE/DecryptionPolicy/default`` by default).
    /// - Returns: the payload, once authenticated.
    /// - Throws: what ``JWE/Token/init(compact:policy:)`` throws for a token that cannot be parsed or
    ///   that `policy` refuses; `CryptoError.invalidParameter` when the token's `alg` is not PBES2;
    ///   `CryptoError.authenticationFailure` when the token does not open with `password`.
    public static func decrypt(
        _ compact: String,
        password: some ContiguousBytes,
        policy: DecryptionPolicy = .default
    ) throws(CryptoError) -> Data {
        try Token(compact: compact, policy: policy).decrypt(password: password)
    }

    // MARK: Sealing

    /// Seals under the content key `cek`; `encryptedKey` is its wrapped form (empty for `dir`).
    private static func seal(
        _ plaintext: some DataProtocol,
        header: Header,
        cek: SymmetricKey,
        encryptedKey: [UInt8]
    ) throws(CryptoError) -> String {
        let enc = header.contentEncryption
        var encodedHeader = header.json.withUnsafeBytes { Base64.encode($0, alphabet: .url, padding: false) }
        return try plaintext.withContiguousBytes { (plaintext) throws(CryptoError) in
            try encodedHeader.withUTF8Bytes { (aad) throws(CryptoError) in
                var tag = [UInt8](repeating: 0, count: enc.tagByteCount)
                let capacity = enc.ciphertextCapacity(plaintextCount: plaintext.count)
                var iv: [UInt8] = []
                let ciphertext = try [UInt8](unsafeUninitializedCapacity: capacity) {
                    (ciphertext, initializedCount) throws(CryptoError) in
                    try tag.withUnsafeMutableBufferPointer { (tag) throws(CryptoError) in
                        (iv, initializedCount) = try enc.seal(
                            plaintext,
                            cek: cek,
                            aad: aad,
                            ciphertext: UnsafeMutableRawBufferPointer(ciphertext),
                            tag: UnsafeMutableRawBufferPointer(tag)
                        )
                    }
                }
                return compactSerialization(encodedHeader: aad, parts: [encryptedKey, iv, ciphertext, tag])
            }
        }
    }

    /// A fresh random content key and its form wrapped under the key-encryption key that `secret`
    /// (a shared key, or a password for PBES2) gives.
    private static func wrappedContentKey(
        for header: Header,
        secret: UnsafeRawBufferPointer,
        kekByteCount: Int
    ) throws(CryptoError) -> (SymmetricKey, [UInt8]) {
        let kek = try keyEncryptionKey(for: header, secret: secret, byteCount: kekByteCount)
        let cek = SymmetricKey(
            try SecureBytes(count: header.contentEncryption.keyByteCount) { (bytes) throws(CryptoError) in
                try SecureRandom.fill(bytes)
            }
        )
        return (cek, [UInt8](try AES.KeyWrap.wrap(cek, using: kek)))
    }

    /// The AES key-wrap key: the shared key itself, or PBKDF2 of the password (RFC 7518 §4.8.1.1:
    /// salt = UTF8(alg) ‖ 0x00 ‖ p2s).
    static func keyEncryptionKey(
        for header: Header,
        secret: UnsafeRawBufferPointer,
        byteCount: Int
    ) throws(CryptoError) -> SymmetricKey {
        let alg = header.keyManagement
        guard let prf = alg.pbes2PRF, let saltInput = header.pbes2SaltInput, let iterations = header.pbes2Iterations
        else {
            guard secret.count == byteCount else {
                throw .incorrectSize(what: "JWE \(alg) key", expected: "\(byteCount) bytes", actual: secret.count)
            }
            return SymmetricKey(data: secret)
        }
        let salt = Array(alg.rawValue.utf8) + [0] + saltInput
        return try KDF.PBKDF2.deriveKey(
            from: secret,
            salt: salt,
            using: prf,
            unsafeUncheckedIterations: iterations,
            outputByteCount: byteCount
        )
    }

    /// header ‖ '.' ‖ base64url(part) for each part, written in one buffer.
    private static func compactSerialization(encodedHeader: UnsafeRawBufferPointer, parts: [[UInt8]]) -> String {
        let count = parts.reduce(encodedHeader.count) {
            $0 + 1 + Base64.encodedCount(byteCount: $1.count, padding: false)
        }
        return String(unsafeUninitializedCapacity: count) { output in
            let output = UnsafeMutableRawBufferPointer(output)
            output.copyMemory(from: encodedHeader)
            var written = encodedHeader.count
            for part in parts {
                output[written] = UInt8(ascii: ".")
                written += 1
                written += part.withUnsafeBytes {
                    Base64.encode(
                        $0,
                        into: UnsafeMutableRawBufferPointer(rebasing: output[written...]),
                        alphabet: .url,
                        padding: false
                    )
                }
            }
            return written
        }
    }
}
