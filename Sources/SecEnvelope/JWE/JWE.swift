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

        public init() {}

        public static let `default` = DecryptionPolicy()
    }

    // MARK: Encryption

    /// Encrypts `plaintext` with a shared key. With `.direct` (the default) the key is the content
    /// key and must be `contentEncryption.keyByteCount` long (32 bytes for A256GCM); with
    /// `.a128KW`/`.a192KW`/`.a256KW` it wraps a fresh random content key and must be 16/24/32 bytes.
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
        return try key.withBytes { (key) throws(CryptoError) in try seal(plaintext, header: header, secret: key) }
    }

    /// Encrypts `plaintext` with a JWK, naming it in the header with its `kid`.
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
    public static func encrypt(
        _ plaintext: some DataProtocol,
        password: some ContiguousBytes,
        keyManagement: KeyManagementAlgorithm = .pbes2HS512A256KW,
        contentEncryption: ContentEncryptionAlgorithm = .a256GCM,
        iterations: Int? = nil,
        keyID: String? = nil,
        contentType: String? = nil
    ) throws(CryptoError) -> String {
        guard let recommended = keyManagement.recommendedIterations else {
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
        return try password.withBytes { (password) throws(CryptoError) in
            try seal(plaintext, header: header, secret: password)
        }
    }

    // MARK: Decryption

    /// Decrypts a token sealed with a shared key (`dir` or AES key wrap).
    public static func decrypt(
        _ compact: String,
        using key: SymmetricKey,
        policy: DecryptionPolicy = .default
    ) throws(CryptoError) -> Data {
        try Token(compact: compact, policy: policy).decrypt(using: key)
    }

    /// Decrypts a token with the key its `kid` names, or, when it names none, with each key in turn.
    public static func decrypt(
        _ compact: String,
        using keys: JSONWebKeySet,
        policy: DecryptionPolicy = .default
    ) throws(CryptoError) -> Data {
        try Token(compact: compact, policy: policy).decrypt(using: keys)
    }

    /// Decrypts a token sealed with a password (PBES2).
    public static func decrypt(
        _ compact: String,
        password: some ContiguousBytes,
        policy: DecryptionPolicy = .default
    ) throws(CryptoError) -> Data {
        try Token(compact: compact, policy: policy).decrypt(password: password)
    }

    // MARK: Sealing

    /// Seals with `secret` (a key, or a password for PBES2) as `header` says.
    private static func seal(
        _ plaintext: some DataProtocol,
        header: Header,
        secret: UnsafeRawBufferPointer
    ) throws(CryptoError) -> String {
        let enc = header.contentEncryption
        let (cek, encryptedKey) = try contentKey(for: header, secret: secret)
        let encodedHeader = header.json.withUnsafeBytes { Base64.encode($0, alphabet: .url, padding: false) }
        if let sealed = try plaintext.withContiguousBytesIfAvailable({ (plaintext) throws(CryptoError) in
            try seal(plaintext, encodedHeader: encodedHeader, cek: cek, encryptedKey: encryptedKey, enc: enc)
        }) {
            return sealed
        }
        return try Array(plaintext).withUnsafeBufferPointer { (plaintext) throws(CryptoError) in
            try seal(
                UnsafeRawBufferPointer(plaintext),
                encodedHeader: encodedHeader,
                cek: cek,
                encryptedKey: encryptedKey,
                enc: enc
            )
        }
    }

    private static func seal(
        _ plaintext: UnsafeRawBufferPointer,
        encodedHeader: String,
        cek: SecureBytes,
        encryptedKey: [UInt8],
        enc: ContentEncryptionAlgorithm
    ) throws(CryptoError) -> String {
        var encodedHeader = encodedHeader
        return try encodedHeader.withUTF8Bytes { (aad) throws(CryptoError) in
            let iv = try SecureRandom.bytes(count: enc.ivByteCount)
            var tag = [UInt8](repeating: 0, count: enc.tagByteCount)
            var ciphertext = [UInt8](repeating: 0, count: enc.ciphertextCapacity(plaintextCount: plaintext.count))
            let count = try cek.withBytes { (cek) throws(CryptoError) in
                try iv.withUnsafeBufferPointer { (iv) throws(CryptoError) in
                    try ciphertext.withUnsafeMutableBufferPointer { (ciphertext) throws(CryptoError) in
                        try tag.withUnsafeMutableBufferPointer { (tag) throws(CryptoError) in
                            try enc.seal(
                                plaintext,
                                cek: cek,
                                iv: UnsafeRawBufferPointer(iv),
                                aad: aad,
                                ciphertext: UnsafeMutableRawBufferPointer(ciphertext),
                                tag: UnsafeMutableRawBufferPointer(tag)
                            )
                        }
                    }
                }
            }
            ciphertext.removeLast(ciphertext.count - count)
            return compactSerialization(encodedHeader: aad, parts: [encryptedKey, iv, ciphertext, tag])
        }
    }

    /// A fresh content key and its encrypted form for `header` (for `dir`, the key itself and nothing).
    private static func contentKey(
        for header: Header,
        secret: UnsafeRawBufferPointer
    ) throws(CryptoError) -> (SecureBytes, [UInt8]) {
        let enc = header.contentEncryption
        guard let kekByteCount = header.keyManagement.keyWrapByteCount else {
            try enc.checkDirectKey(secret)
            return (SecureBytes(secret), [])
        }
        let kek = try keyEncryptionKey(for: header, secret: secret, byteCount: kekByteCount)
        let cek = try SecureBytes(count: enc.keyByteCount) { (bytes) throws(CryptoError) in try SecureRandom.fill(bytes)
        }
        let wrapped = try AES.KeyWrap.wrap(SymmetricKey(cek), using: kek)
        return (cek, [UInt8](wrapped))
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
