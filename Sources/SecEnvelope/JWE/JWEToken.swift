import SecCrypto

#if canImport(Glibc)
import Glibc
#endif

extension JWE {
    /// A parsed compact JWE, before decryption: its header says which algorithms and which key
    /// (`kid`) it needs. Nothing in it is authentic until one of the `decrypt` methods succeeds.
    public struct Token: Sendable {
        /// The protected header (unverified until decryption succeeds).
        public let header: Header
        private let bytes: [UInt8]
        /// The byte ranges of the five dot-separated parts.
        private let parts: [Range<Int>]

        /// Splits and checks a compact JWE: five base64url parts, a protected header that names
        /// supported, allowed algorithms. White space around the token is ignored.
        ///
        /// - Parameters:
        ///   - compact: the token in compact serialization; white space around it is ignored.
        ///   - policy: the algorithms accepted and the limits (``JWE/DecryptionPolicy/default`` by
        ///     default).
        /// - Throws: `CryptoError.malformedInput` when the token is longer than
        ///   `policy.maximumTokenByteCount`, does not have five parts, or its header is not base64url
        ///   JSON with `alg` and `enc`; `CryptoError.unsupported` for `alg: none`, an algorithm
        ///   SecEnvelope does not implement or `policy` does not allow, compression (`zip`) or a
        ///   critical header (`crit`) it does not understand; `CryptoError.invalidParameter` for a
        ///   PBES2 iteration count outside `policy`'s bounds.
        public init(compact: String, policy: DecryptionPolicy = .default) throws(CryptoError) {
            let trimmed = trimmedTokenBytes(compact)
            guard trimmed.count <= policy.maximumTokenByteCount else {
                throw .malformedInput(
                    "JWE is \(trimmed.count) bytes, more than the limit of \(policy.maximumTokenByteCount)"
                )
            }
            bytes = trimmed
            let parts = Self.dotSeparatedParts(bytes)
            guard parts.count == 5 else {
                throw .malformedInput("not a compact JWE: expected 5 dot-separated parts, found \(parts.count)")
            }
            self.parts = parts
            let header = try Header.parse(encoded: bytes[parts[0]])
            guard policy.keyManagementAlgorithms.contains(header.keyManagement) else {
                throw .unsupported("JWE alg \"\(header.keyManagement)\" is not allowed here")
            }
            guard policy.contentEncryptionAlgorithms.contains(header.contentEncryption) else {
                throw .unsupported("JWE enc \"\(header.contentEncryption)\" is not allowed here")
            }
            if let iterations = header.pbes2Iterations {
                guard iterations <= policy.maximumPBES2Iterations else {
                    throw .invalidParameter(
                        "JWE p2c of \(iterations) PBKDF2 iterations is above the limit of \(policy.maximumPBES2Iterations)"
                    )
                }
                guard iterations >= policy.minimumPBES2Iterations else {
                    throw .invalidParameter(
                        "JWE p2c of \(iterations) PBKDF2 iterations is below the minimum of \(policy.minimumPBES2Iterations)"
                    )
                }
            }
            self.header = header
        }

        /// The ranges between the dots, found with `memchr` (the token is mostly one long part).
        private static func dotSeparatedParts(_ bytes: [UInt8]) -> [Range<Int>] {
            bytes.withUnsafeBytes { buffer in
                var parts: [Range<Int>] = []
                var start = 0
                while start < buffer.count,
                    let dot = memchr(buffer.baseAddress! + start, Int32(UInt8(ascii: ".")), buffer.count - start)
                {
                    let index = buffer.baseAddress!.distance(to: UnsafeRawPointer(dot))
                    parts.append(start..<index)
                    start = index + 1
                }
                parts.append(start..<buffer.count)
                return parts
            }
        }

        /// Decrypts with a shared key (`dir` or AES key wrap).
        ///
        /// - Parameter key: the shared key: the content key for `dir`, the key-encryption key for AES
        ///   key wrap.
        /// - Returns: the payload, once authenticated.
        /// - Throws: `CryptoError.invalidParameter` when the token's `alg` takes a password;
        ///   `CryptoError.incorrectSize` when `key` is not the size the algorithms need;
        ///   `CryptoError.authenticationFailure` when the token does not open with `key` (a wrong key,
        ///   or any altered byte: the one error for every such case).
        public func decrypt(using key: SymmetricKey) throws(CryptoError) -> Data {
            guard !header.keyManagement.usesPassword else {
                throw .invalidParameter("this JWE uses \(header.keyManagement), which needs a password, not a key")
            }
            guard let kekByteCount = header.keyManagement.keyWrapByteCount else {
                try key.withBytes { (key) throws(CryptoError) in try header.contentEncryption.checkDirectKey(key) }
                // dir: the encrypted key must be empty.
                guard parts[1].isEmpty else { throw .authenticationFailure }
                return try open(contentKey: key)
            }
            return try open(
                contentKey: try key.withBytes { (key) throws(CryptoError) in
                    try unwrappedContentKey(secret: key, kekByteCount: kekByteCount)
                }
            )
        }

        /// Decrypts with the key the `kid` header names, or, without a `kid`, with each key in turn
        /// (keys of the wrong size for the token's algorithms are skipped).
        ///
        /// - Parameter keys: the keys to choose from.
        /// - Returns: the payload, once authenticated.
        /// - Throws: `CryptoError.invalidParameter` when the token's `alg` takes a password;
        ///   `CryptoError.keyNotFound` when no key has the token's `kid` or, without one, the size its
        ///   algorithms need; `CryptoError.incorrectSize` when the key with that `kid` is not that
        ///   size; `CryptoError.authenticationFailure` when the token does not open with the key its
        ///   `kid` names or, without one, with any key of that size.
        public func decrypt(using keys: JSONWebKeySet) throws(CryptoError) -> Data {
            guard !header.keyManagement.usesPassword else {
                throw .invalidParameter("this JWE uses \(header.keyManagement), which needs a password, not a key")
            }
            if let keyID = header.keyID {
                guard let match = keys.keys.first(where: { $0.keyID == keyID }) else {
                    throw .keyNotFound("no key with kid \"\(keyID)\" for this JWE")
                }
                return try decrypt(using: match.key)
            }
            let wanted = header.keyManagement.keyWrapByteCount ?? header.contentEncryption.keyByteCount
            let candidates = keys.keys.filter { $0.key.bitCount == wanted * 8 }
            guard !candidates.isEmpty else {
                throw .keyNotFound(
                    "no key of \(wanted) bytes for this \(header.keyManagement)/\(header.contentEncryption) JWE"
                )
            }
            for candidate in candidates {
                if let plaintext = try? decrypt(using: candidate.key) { return plaintext }
            }
            throw .authenticationFailure
        }

        /// Decrypts with a password (PBES2).
        ///
        /// - Parameter password: the password's bytes.
        /// - Returns: the payload, once authenticated.
        /// - Throws: `CryptoError.invalidParameter` when the token's `alg` is not PBES2;
        ///   `CryptoError.authenticationFailure` when the token does not open with `password` (a wrong
        ///   password, or any altered byte).
        public func decrypt(password: some ContiguousBytes) throws(CryptoError) -> Data {
            guard header.keyManagement.usesPassword, let kekByteCount = header.keyManagement.keyWrapByteCount else {
                throw .invalidParameter("this JWE uses \(header.keyManagement), which needs a key, not a password")
            }
            return try open(
                contentKey: try password.withBytes { (password) throws(CryptoError) in
                    try unwrappedContentKey(secret: password, kekByteCount: kekByteCount)
                }
            )
        }

        private func open(contentKey cek: SymmetricKey) throws(CryptoError) -> Data {
            let enc = header.contentEncryption
            guard let iv = part(2), let ciphertext = part(3), let tag = part(4) else {
                throw .authenticationFailure
            }
            var plaintext = [UInt8](repeating: 0, count: ciphertext.count + 16)
            let count = try withBytes(of: bytes, iv, ciphertext, tag) {
                (token, iv, ciphertext, tag) throws(CryptoError) in
                let aad = UnsafeRawBufferPointer(rebasing: token[parts[0]])
                return try plaintext.withUnsafeMutableBufferPointer { (plaintext) throws(CryptoError) in
                    try enc.open(
                        ciphertext,
                        cek: cek,
                        iv: iv,
                        aad: aad,
                        tag: tag,
                        into: UnsafeMutableRawBufferPointer(plaintext)
                    )
                }
            }
            return Data(plaintext[..<count])
        }

        /// The bytes of part `index`, or nil when it is not canonical base64url.
        private func part(_ index: Int) -> [UInt8]? { Self.decode(bytes, parts[index]) }

        private static func decode(_ bytes: [UInt8], _ range: Range<Int>) -> [UInt8]? {
            bytes.withUnsafeBytes {
                try? Base64.decodeCanonical(UnsafeRawBufferPointer(rebasing: $0[range]), alphabet: .url, padded: false)
            }
        }

        /// The unwrapped content key. A wrong key or password, an altered wrapped key or one of the
        /// wrong length all fail as `authenticationFailure`; only a key of the wrong size for the
        /// algorithm is named as such.
        private func unwrappedContentKey(
            secret: UnsafeRawBufferPointer,
            kekByteCount: Int
        ) throws(CryptoError) -> SymmetricKey {
            let kek = try JWE.keyEncryptionKey(for: header, secret: secret, byteCount: kekByteCount)
            guard let encryptedKey = part(1), encryptedKey.count == header.contentEncryption.keyByteCount + 8 else {
                throw .authenticationFailure
            }
            return try AES.KeyWrap.unwrap(encryptedKey, using: kek)
        }
    }
}
