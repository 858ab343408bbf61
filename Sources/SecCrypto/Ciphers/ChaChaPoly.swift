/// ChaCha20-Poly1305 authenticated encryption (RFC 8439), CryptoKit's second AEAD: a 256-bit key,
/// 12-byte nonces and 16-byte tags. As with `AES.GCM`, a wrong key or any altered byte of the nonce,
/// ciphertext, tag or associated data makes `open` fail, and a nonce must never be reused with the
/// same key: let `seal` draw a random one. Fast without AES hardware, and constant-time in software.
///
/// ```swift
/// let key = SymmetricKey(size: .bits256)
/// let box = try ChaChaPoly.seal(payload, using: key, authenticating: header)
/// send(box.combined)                       // nonce ‖ ciphertext ‖ tag
/// let opened = try ChaChaPoly.open(ChaChaPoly.SealedBox(combined: received), using: key, authenticating: header)
/// ```
public enum ChaChaPoly {
    /// The tag length in bytes.
    public static let tagByteCount = AEADMessage.tagByteCount

    /// A ChaCha20-Poly1305 nonce: always 12 bytes.
    public struct Nonce: ContiguousBytes, Sequence, Sendable, Equatable {
        /// The only nonce length.
        public static let byteCount = 12
        let bytes: [UInt8]

        /// A new random nonce from OpenSSL's CSPRNG.
        public init() {
            do {
                bytes = try SecureRandom.bytes(count: Self.byteCount)
            } catch {
                fatalError("SecKit: \(error)")
            }
        }

        /// A nonce from existing bytes, contiguous or not.
        ///
        /// - Parameter data: The nonce's bytes, copied.
        /// - Throws: `CryptoError.incorrectSize` unless `data` is 12 bytes.
        public init(data: some DataProtocol) throws(CryptoError) {
            guard data.count == Self.byteCount else {
                throw .incorrectSize(what: "ChaChaPoly nonce", expected: "12 bytes", actual: data.count)
            }
            bytes = [UInt8](data)
        }

        /// Calls `body` with the nonce's bytes, without copying them.
        ///
        /// - Parameter body: A closure that reads the bytes; the pointer is valid only during the call.
        /// - Returns: What `body` returns.
        /// - Throws: Whatever `body` throws; this method throws nothing of its own.
        public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
            try bytes.withUnsafeBytes(body)
        }

        /// The nonce's bytes, in order.
        ///
        /// - Returns: An iterator over the 12 bytes, first to last.
        public func makeIterator() -> Array<UInt8>.Iterator { bytes.makeIterator() }
    }

    /// The result of `seal`: nonce, ciphertext and tag in one buffer, `combined`, laid out as nonce ‖
    /// ciphertext ‖ tag. `ciphertext` and `tag` are slices of it: their indices start where they
    /// start in that buffer, so read them with `first`, `prefix` or a loop rather than from 0.
    public struct SealedBox: Sendable {
        let storage: AEADBoxStorage

        /// nonce ‖ ciphertext ‖ tag.
        public var combined: Data { storage.bytes }

        /// The nonce the box was sealed with.
        public var nonce: Nonce {
            // The storage always starts with the 12 bytes of a nonce.
            do { return try Nonce(data: storage.nonce) } catch { fatalError("SecKit: \(error)") }
        }

        /// The encrypted message.
        public var ciphertext: Data { storage.ciphertext }

        /// The 16-byte authentication tag.
        public var tag: Data { storage.tag }

        /// Parses the combined form nonce(12) ‖ ciphertext ‖ tag(16).
        ///
        /// - Parameter combined: The box as `combined` gives it: the 12-byte nonce, the ciphertext and
        ///   the 16-byte tag, in that order. The bytes are copied.
        /// - Throws: `CryptoError.incorrectSize` when `combined` is shorter than 28 bytes.
        public init(combined: some DataProtocol) throws(CryptoError) {
            storage = try AEADBoxStorage(name: "ChaChaPoly", combined: combined, nonceByteCount: Nonce.byteCount)
        }

        /// Assembles a box from its parts.
        ///
        /// - Parameters:
        ///   - nonce: The nonce the message was sealed with.
        ///   - ciphertext: The encrypted message.
        ///   - tag: The authentication tag, 16 bytes.
        /// - Throws: `CryptoError.incorrectSize` unless the tag is 16 bytes.
        public init(nonce: Nonce, ciphertext: some DataProtocol, tag: some DataProtocol) throws(CryptoError) {
            storage = try AEADBoxStorage(name: "ChaChaPoly", nonce: nonce.bytes, ciphertext: ciphertext, tag: tag)
        }

        init(storage: Data) {
            self.storage = AEADBoxStorage(bytes: storage, nonceByteCount: Nonce.byteCount)
        }
    }

    /// Encrypts and authenticates `message`, and authenticates `associatedData` (sent in clear). The
    /// key keeps one OpenSSL context for its messages, as with `AES.GCM`.
    ///
    /// - Parameters:
    ///   - message: The plaintext.
    ///   - key: A 256-bit key.
    ///   - nonce: Never reused with the same key; nil (the default) draws a random one.
    ///   - associatedData: Bytes authenticated but not encrypted.
    /// - Returns: The sealed box.
    /// - Throws: `CryptoError.incorrectSize` for a key that is not 32 bytes.
    @inlinable
    public static func seal(
        _ message: some DataProtocol,
        using key: SymmetricKey,
        nonce: Nonce? = nil,
        authenticating associatedData: some DataProtocol
    ) throws(CryptoError) -> SealedBox {
        try message.withContiguousBytes { (message) throws(CryptoError) in
            try associatedData.withContiguousBytes { (associatedData) throws(CryptoError) in
                try sealedBox(message, using: key, nonce: nonce ?? Nonce(), authenticating: associatedData)
            }
        }
    }

    /// Encrypts and authenticates `message`.
    ///
    /// - Parameters:
    ///   - message: The plaintext.
    ///   - key: A 256-bit key.
    ///   - nonce: Never reused with the same key; nil (the default) draws a random one.
    /// - Returns: The sealed box.
    /// - Throws: `CryptoError.incorrectSize` for a key that is not 32 bytes.
    public static func seal(
        _ message: some DataProtocol,
        using key: SymmetricKey,
        nonce: Nonce? = nil
    ) throws(CryptoError) -> SealedBox {
        try seal(message, using: key, nonce: nonce, authenticating: Data())
    }

    /// `seal` of contiguous bytes: the whole box in one allocation.
    @usableFromInline
    static func sealedBox(
        _ message: UnsafeRawBufferPointer,
        using key: SymmetricKey,
        nonce: Nonce,
        authenticating associatedData: UnsafeRawBufferPointer
    ) throws(CryptoError) -> SealedBox {
        SealedBox(
            storage: try AEADMessage.sealedStorage(
                .chaChaPoly,
                name: "ChaChaPoly",
                message,
                using: key,
                nonce: nonce.bytes,
                isRandomNonce: false,
                authenticating: associatedData
            )
        )
    }

    /// Seals into buffers the caller owns, for messages framed by the caller: `ciphertext` must be
    /// exactly `message.count` bytes and `tag` `tagByteCount` bytes. Nothing is allocated.
    ///
    /// - Parameters:
    ///   - message: The plaintext.
    ///   - key: A 256-bit key.
    ///   - nonce: Never reused with the same key; `Nonce()` draws a random one.
    ///   - associatedData: Bytes authenticated but not encrypted (may be empty).
    ///   - ciphertext: Receives the ciphertext; exactly `message.count` bytes.
    ///   - tag: Receives the authentication tag; exactly ``tagByteCount`` bytes.
    /// - Throws: `CryptoError.incorrectSize` for a `ciphertext` or `tag` buffer or a key of the wrong
    ///   size; nothing is written then.
    public static func seal(
        _ message: UnsafeRawBufferPointer,
        using key: SymmetricKey,
        nonce: Nonce,
        authenticating associatedData: UnsafeRawBufferPointer,
        into ciphertext: UnsafeMutableRawBufferPointer,
        tag: UnsafeMutableRawBufferPointer
    ) throws(CryptoError) {
        try nonce.bytes.withUnsafeBufferPointer { (nonce) throws(CryptoError) in
            try AEADMessage.seal(
                .chaChaPoly,
                name: "ChaChaPoly",
                message,
                using: key,
                nonce: UnsafeRawBufferPointer(nonce),
                isRandomNonce: false,
                authenticating: associatedData,
                into: ciphertext,
                tag: tag
            )
        }
    }

    /// Verifies and decrypts into a buffer the caller owns, exactly `ciphertext.count` bytes. If the
    /// tag does not verify, `plaintext` is wiped and `authenticationFailure` thrown: use its bytes
    /// only after this returns.
    ///
    /// - Parameters:
    ///   - ciphertext: The encrypted message.
    ///   - key: The key it was sealed with.
    ///   - nonce: The nonce it was sealed with.
    ///   - tag: The authentication tag, 16 bytes.
    ///   - associatedData: The associated data it was sealed with (may be empty).
    ///   - plaintext: Receives the plaintext; exactly `ciphertext.count` bytes.
    /// - Throws: `CryptoError.authenticationFailure` for a wrong key, nonce or associated data or any
    ///   altered byte, after wiping `plaintext`; `incorrectSize` for a `plaintext` buffer, a tag or a
    ///   key of the wrong size.
    public static func open(
        _ ciphertext: UnsafeRawBufferPointer,
        using key: SymmetricKey,
        nonce: Nonce,
        tag: UnsafeRawBufferPointer,
        authenticating associatedData: UnsafeRawBufferPointer,
        into plaintext: UnsafeMutableRawBufferPointer
    ) throws(CryptoError) {
        try nonce.bytes.withUnsafeBufferPointer { (nonce) throws(CryptoError) in
            try AEADMessage.open(
                .chaChaPoly,
                name: "ChaChaPoly",
                ciphertext,
                using: key,
                nonce: UnsafeRawBufferPointer(nonce),
                tag: tag,
                authenticating: associatedData,
                into: plaintext
            )
        }
    }

    /// Verifies and decrypts. Any alteration, or the wrong key or associated data, throws
    /// `authenticationFailure`; no plaintext is returned unless the tag verifies.
    ///
    /// - Parameters:
    ///   - box: The sealed box.
    ///   - key: The key it was sealed with.
    ///   - associatedData: The bytes it was sealed with.
    /// - Returns: The plaintext.
    /// - Throws: `CryptoError.authenticationFailure`, or `incorrectSize` for a key that is not 32 bytes.
    @inlinable
    public static func open(
        _ box: SealedBox,
        using key: SymmetricKey,
        authenticating associatedData: some DataProtocol
    ) throws(CryptoError) -> Data {
        try associatedData.withContiguousBytes { (associatedData) throws(CryptoError) in
            try openedData(box, using: key, authenticating: associatedData)
        }
    }

    /// Verifies and decrypts a box sealed without associated data.
    ///
    /// - Parameters:
    ///   - box: The sealed box.
    ///   - key: The key it was sealed with.
    /// - Returns: The plaintext.
    /// - Throws: `CryptoError.authenticationFailure`, or `incorrectSize` for a key that is not 32 bytes.
    public static func open(_ box: SealedBox, using key: SymmetricKey) throws(CryptoError) -> Data {
        try open(box, using: key, authenticating: Data())
    }

    /// `open` with contiguous associated data: the plaintext in one allocation.
    @usableFromInline
    static func openedData(
        _ box: SealedBox,
        using key: SymmetricKey,
        authenticating associatedData: UnsafeRawBufferPointer
    ) throws(CryptoError) -> Data {
        try AEADMessage.openedData(
            .chaChaPoly,
            name: "ChaChaPoly",
            box.storage,
            using: key,
            nonce: [UInt8](box.storage.nonce),
            authenticating: associatedData
        )
    }
}
