import SecCrypto

/// The file format of `openssl enc -pbkdf2`: `Salted__` ‖ 8-byte salt ‖ CBC ciphertext, with key
/// and IV derived together by PBKDF2 from the password and salt. The iteration count and digest
/// are not stored in the file: both sides must agree on them (`-iter`, `-md`).
///
/// Compose with `Base64EncodingSink` / `Base64DecodingSink` for `-a` armour.
public enum OpenSSLEncFormat {
    /// The 8 bytes every such file starts with.
    public static let magic = Array("Salted__".utf8)
    /// Salt length in bytes.
    public static let saltByteCount = 8
    /// `openssl enc -pbkdf2`'s default iteration count.
    public static let defaultIterations = 10_000

    /// What both sides must agree on.
    public struct Parameters: Sendable, Equatable {
        /// A CBC cipher: `openssl enc` does not support AEAD modes.
        public var cipher: CipherAlgorithm
        /// `-iter`.
        public var iterations: Int
        /// `-md`.
        public var digest: HashAlgorithm

        /// The parameters of `openssl enc -pbkdf2` with `-iter` and `-md` as given.
        ///
        /// - Parameters:
        ///   - cipher: the cipher; AES-256-CBC by default.
        ///   - iterations: `-iter`; `defaultIterations` (10,000) by default.
        ///   - digest: `-md`; SHA-256 by default.
        public init(
            cipher: CipherAlgorithm = .aes256CBC,
            iterations: Int = OpenSSLEncFormat.defaultIterations,
            digest: HashAlgorithm = .sha256
        ) {
            self.cipher = cipher
            self.iterations = iterations
            self.digest = digest
        }
    }

    /// A sink that writes the header and then the ciphertext of what it is given to `next`.
    /// The salt comes from OpenSSL's CSPRNG unless given (for known-answer tests).
    ///
    /// - Parameters:
    ///   - password: the password.
    ///   - parameters: the cipher, iteration count and digest.
    ///   - saltOverride: the 8-byte salt, for known-answer tests; nil (the default) draws a random one.
    ///   - next: the sink that receives the file: the header, then the ciphertext.
    /// - Returns: the sink to write the plaintext to; its `finish()` writes the last block and finishes
    ///   `next`.
    /// - Throws: `CryptoError.incorrectSize` when `saltOverride` is not 8 bytes;
    ///   `CryptoError.invalidParameter` for a GCM cipher or an iteration count below 1;
    ///   `CryptoError.randomGenerationFailed` when no salt can be drawn; `CryptoError.backendFailure`
    ///   when OpenSSL fails.
    public static func encryptingSink(
        password: SecureBytes,
        parameters: Parameters,
        salt saltOverride: [UInt8]? = nil,
        next: ByteSink
    ) throws(CryptoError) -> ByteSink {
        let salt: [UInt8]
        if let given = saltOverride { salt = given } else { salt = try SecureRandom.bytes(count: saltByteCount) }
        guard salt.count == saltByteCount else {
            throw .incorrectSize(what: "openssl enc salt", expected: "\(saltByteCount) bytes", actual: salt.count)
        }
        let stream = try cipherStream(.encrypt, password: password, salt: salt, parameters: parameters)
        // The header goes out with the first ciphertext, so an input that cannot be read leaves no output.
        return CipherSink(stream, next: PrefixingSink(prefix: magic + salt, next: next))
    }

    /// A sink that reads the header from its input, then decrypts the rest into `next`.
    ///
    /// - Parameters:
    ///   - password: the password.
    ///   - parameters: the cipher, iteration count and digest the file was written with.
    ///   - next: the sink that receives the plaintext.
    /// - Returns: the sink to write the file to. Its `write` throws `CryptoError.malformedInput` when
    ///   the input does not start with `Salted__`, and `CryptoError.invalidParameter` for an iteration
    ///   count below 1; its `finish()` throws `CryptoError.malformedInput` for input shorter than the
    ///   16-byte header, and `CryptoError.decryptionFailed` for a wrong password, iteration count or
    ///   digest, or altered or truncated input.
    /// - Throws: `CryptoError.invalidParameter` for a GCM cipher.
    public static func decryptingSink(
        password: SecureBytes,
        parameters: Parameters,
        next: ByteSink
    ) throws(CryptoError) -> ByteSink {
        try checkCipher(parameters)
        return HeaderReadingSink(password: password, parameters: parameters, next: next)
    }

    /// One-shot encryption.
    ///
    /// The one-shot forms run the streaming sinks, whose protocol throws any error (a sink may
    /// write a file); over a `DataSink`, what they throw is a `CryptoError`.
    ///
    /// - Parameters:
    ///   - plaintext: the bytes to encrypt.
    ///   - password: the password.
    ///   - parameters: the cipher, iteration count and digest (`openssl enc -pbkdf2`'s defaults by
    ///     default).
    /// - Returns: the file: `Salted__`, the salt, the ciphertext.
    /// - Throws: `CryptoError.invalidParameter` for a GCM cipher or an iteration count below 1;
    ///   `CryptoError.randomGenerationFailed` when no salt can be drawn; `CryptoError.backendFailure`
    ///   when OpenSSL fails.
    public static func encrypt(
        _ plaintext: some DataProtocol,
        password: SecureBytes,
        parameters: Parameters = Parameters()
    ) throws -> Data {
        try DataSink.collect(plaintext) { (next) throws(CryptoError) in
            try encryptingSink(password: password, parameters: parameters, next: next)
        }
    }

    /// One-shot decryption. A wrong password, a wrong iteration count or digest, or altered input
    /// all throw `decryptionFailed`.
    ///
    /// - Parameters:
    ///   - file: the file's bytes, without base64 armour.
    ///   - password: the password.
    ///   - parameters: the cipher, iteration count and digest it was written with (`openssl enc
    ///     -pbkdf2`'s defaults by default).
    /// - Returns: the plaintext.
    /// - Throws: `CryptoError.invalidParameter` for a GCM cipher or an iteration count below 1;
    ///   `CryptoError.malformedInput` when `file` does not start with the 16-byte `Salted__` header;
    ///   `CryptoError.decryptionFailed` for a wrong password, iteration count or digest, or altered or
    ///   truncated input.
    public static func decrypt(
        _ file: some DataProtocol,
        password: SecureBytes,
        parameters: Parameters = Parameters()
    ) throws -> Data {
        try DataSink.collect(file) { (next) throws(CryptoError) in
            try decryptingSink(password: password, parameters: parameters, next: next)
        }
    }

    private static func checkCipher(_ parameters: Parameters) throws(CryptoError) {
        guard !parameters.cipher.isGCM else {
            throw .invalidParameter(
                "the openssl enc format has no authentication tag, so it cannot carry \(parameters.cipher); use a CBC cipher, or a key and nonce"
            )
        }
    }

    fileprivate static func cipherStream(
        _ direction: CipherStream.Direction,
        password: SecureBytes,
        salt: [UInt8],
        parameters: Parameters
    ) throws(CryptoError) -> CipherStream {
        try checkCipher(parameters)
        let cipher = parameters.cipher
        let material = try KDF.PBKDF2.deriveKey(
            from: password,
            salt: salt,
            using: parameters.digest,
            unsafeUncheckedIterations: parameters.iterations,
            outputByteCount: cipher.keyByteCount + cipher.ivByteCount
        )
        return try material.withBytes { (bytes) throws(CryptoError) in
            let key = SymmetricKey(data: UnsafeRawBufferPointer(rebasing: bytes.prefix(cipher.keyByteCount)))
            let iv = UnsafeRawBufferPointer(rebasing: bytes.suffix(cipher.ivByteCount))
            return try CipherStream(cipher, direction, key: key, iv: iv)
        }
    }
}

/// Writes `prefix` before the first bytes (or at the end, for empty input).
private final class PrefixingSink: ByteSink {
    private var prefix: [UInt8]?
    private let next: ByteSink

    init(prefix: [UInt8], next: ByteSink) {
        self.prefix = prefix
        self.next = next
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        try flushPrefix()
        try next.write(bytes)
    }

    func finish() throws {
        try flushPrefix()
        try next.finish()
    }

    private func flushPrefix() throws {
        guard let pending = prefix else { return }
        prefix = nil
        try next.write(data: pending)
    }
}

/// Collects the 16-byte header, derives key and IV, then decrypts everything after it.
private final class HeaderReadingSink: ByteSink {
    private let password: SecureBytes
    private let parameters: OpenSSLEncFormat.Parameters
    private let next: ByteSink
    private var header: [UInt8] = []
    private var cipher: CipherSink?

    init(password: SecureBytes, parameters: OpenSSLEncFormat.Parameters, next: ByteSink) {
        self.password = password
        self.parameters = parameters
        self.next = next
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        if let cipher { return try cipher.write(bytes) }
        let headerCount = OpenSSLEncFormat.magic.count + OpenSSLEncFormat.saltByteCount
        let needed = headerCount - header.count
        header.append(contentsOf: bytes.prefix(needed))
        guard header.count == headerCount else { return }
        guard header.starts(with: OpenSSLEncFormat.magic) else {
            throw CryptoError.malformedInput("input is not in the openssl enc format (no Salted__ header)")
        }
        let stream = try OpenSSLEncFormat.cipherStream(
            .decrypt,
            password: password,
            salt: Array(header.suffix(OpenSSLEncFormat.saltByteCount)),
            parameters: parameters
        )
        let sink = CipherSink(stream, next: next)
        cipher = sink
        try sink.write(UnsafeRawBufferPointer(rebasing: bytes.dropFirst(needed)))
    }

    func finish() throws {
        guard let cipher else {
            throw CryptoError.malformedInput("input is too short for the openssl enc format (16-byte header)")
        }
        try cipher.finish()
    }
}
