extension AES {
    /// AES-GCM authenticated encryption (NIST SP 800-38D): the recommended default for new payloads.
    /// It encrypts and authenticates in one step, so a wrong key or any altered byte of the nonce,
    /// ciphertext, tag or associated data makes `open` fail. Tags are always 16 bytes; shorter tags
    /// are refused. Never reuse a nonce with the same key: let `seal` draw a random one.
    ///
    /// ```swift
    /// let key = SymmetricKey(size: .bits256)
    /// let box = try AES.GCM.seal(payload, using: key, authenticating: header)
    /// send(box.combined)                       // nonce ‖ ciphertext ‖ tag
    /// let opened = try AES.GCM.open(AES.GCM.SealedBox(combined: received), using: key, authenticating: header)
    /// ```
    public enum GCM {
        /// The tag length in bytes.
        public static let tagByteCount = 16

        /// A GCM nonce (IV). 12 bytes unless interoperability demands otherwise.
        public struct Nonce: ContiguousBytes, Sequence, Sendable, Equatable {
            /// The default and recommended nonce length.
            public static let defaultByteCount = 12
            let bytes: [UInt8]
            /// Drawn by `init()`: seals with such nonces count against the key's limit.
            let isRandom: Bool

            /// A new random 12-byte nonce from OpenSSL's CSPRNG.
            public init() {
                do {
                    bytes = try SecureRandom.bytes(count: Self.defaultByteCount)
                } catch {
                    fatalError("SecKit: \(error)")
                }
                isRandom = true
            }

            /// A nonce from existing bytes: 1 to 128 bytes (OpenSSL's limit; 12 recommended).
            ///
            /// - Parameter data: The nonce's bytes, copied.
            /// - Throws: `CryptoError.incorrectSize` for any other length.
            public init(data: some ContiguousBytes) throws(CryptoError) {
                try self.init(bytes: data.withUnsafeBytes { [UInt8]($0) })
            }

            /// A nonce from any bytes, contiguous or not (`DispatchData`): 1 to 128 bytes.
            ///
            /// - Parameter data: The nonce's bytes, copied.
            /// - Throws: `CryptoError.incorrectSize` for any other length.
            public init(data: some DataProtocol) throws(CryptoError) {
                try self.init(bytes: [UInt8](data))
            }

            /// A nonce from bytes that are both (`Data`, `[UInt8]`): 1 to 128 bytes.
            ///
            /// - Parameter data: The nonce's bytes, copied.
            /// - Throws: `CryptoError.incorrectSize` for any other length.
            public init(data: some DataProtocol & ContiguousBytes) throws(CryptoError) {
                try self.init(bytes: data.withUnsafeBytes { [UInt8]($0) })
            }

            private init(bytes: [UInt8]) throws(CryptoError) {
                guard CipherContext.gcmIVRange.contains(bytes.count) else {
                    throw .incorrectSize(
                        what: "GCM nonce",
                        expected: "1 to 128 bytes (12 recommended)",
                        actual: bytes.count
                    )
                }
                self.bytes = bytes
                isRandom = false
            }

            /// Nonces are equal when their bytes are.
            ///
            /// - Parameters:
            ///   - lhs: A nonce.
            ///   - rhs: Another nonce.
            /// - Returns: `true` when both have the same length and bytes.
            public static func == (lhs: Nonce, rhs: Nonce) -> Bool { lhs.bytes == rhs.bytes }

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
            /// - Returns: An iterator over the nonce's bytes, first to last.
            public func makeIterator() -> Array<UInt8>.Iterator { bytes.makeIterator() }
        }

        /// The result of `seal`: nonce, ciphertext and tag, held in one buffer laid out as nonce ‖
        /// ciphertext ‖ tag (as CryptoKit's). `ciphertext` and `tag` are slices of it: their indices
        /// start where they start in that buffer, so read them with `first`, `prefix` or a loop, or
        /// copy them into an array, rather than subscripting from 0.
        public struct SealedBox: Sendable {
            public let nonce: Nonce
            let storage: AEADBoxStorage

            /// The encrypted message.
            public var ciphertext: Data { storage.ciphertext }

            /// The 16-byte authentication tag.
            public var tag: Data { storage.tag }

            /// Assembles a box from its parts.
            ///
            /// - Parameters:
            ///   - nonce: The nonce the message was sealed with.
            ///   - ciphertext: The encrypted message.
            ///   - tag: The authentication tag, 16 bytes.
            /// - Throws: `CryptoError.incorrectSize` unless the tag is 16 bytes.
            public init(nonce: Nonce, ciphertext: some DataProtocol, tag: some DataProtocol) throws(CryptoError) {
                self.nonce = nonce
                storage = try AEADBoxStorage(name: "GCM", nonce: nonce.bytes, ciphertext: ciphertext, tag: tag)
            }

            init(nonce: Nonce, storage: Data) {
                self.nonce = nonce
                self.storage = AEADBoxStorage(bytes: storage, nonceByteCount: nonce.bytes.count)
            }

            /// Parses the combined form nonce(12) ‖ ciphertext ‖ tag(16).
            ///
            /// - Parameter combined: The box as `combined` gives it: a 12-byte nonce, the ciphertext
            ///   and the 16-byte tag, in that order. The bytes are copied.
            /// - Throws: `CryptoError.incorrectSize` when `combined` is shorter than 28 bytes.
            public init(combined: some DataProtocol) throws(CryptoError) {
                storage = try AEADBoxStorage(name: "GCM", combined: combined, nonceByteCount: Nonce.defaultByteCount)
                nonce = try Nonce(data: storage.nonce)
            }

            /// nonce ‖ ciphertext ‖ tag; nil when the nonce is not 12 bytes (the form cannot say its length).
            public var combined: Data? { nonce.bytes.count == Nonce.defaultByteCount ? storage.bytes : nil }
        }

        /// Encrypts and authenticates `message`, and authenticates `associatedData` (sent in clear).
        ///
        /// The key keeps one OpenSSL context for all its messages, so sealing many messages under one
        /// key only sets a new nonce each time. With random nonces (the default) a key seals at most
        /// 2^32 messages (NIST SP 800-38D §8.3); past that, `keyUsageLimitReached`.
        ///
        /// - Parameters:
        ///   - message: The plaintext.
        ///   - key: A 128-, 192- or 256-bit key.
        ///   - nonce: Never reused with the same key; nil (the default) draws a random one.
        ///   - associatedData: Bytes authenticated but not encrypted.
        /// - Returns: The sealed box.
        /// - Throws: `CryptoError.incorrectSize` for a key of another size, `keyUsageLimitReached`.
        @inlinable
        public static func seal(
            _ message: some DataProtocol,
            using key: SymmetricKey,
            nonce: Nonce? = nil,
            authenticating associatedData: some DataProtocol
        ) throws(CryptoError) -> SealedBox {
            // Inlined, so the caller's specialization reaches the bytes without generic look-ups.
            try message.withContiguousBytes { (message) throws(CryptoError) in
                try associatedData.withContiguousBytes { (associatedData) throws(CryptoError) in
                    try sealedBox(message, using: key, nonce: nonce ?? Nonce(), authenticating: associatedData)
                }
            }
        }

        /// `seal` of contiguous bytes: the whole box (nonce ‖ ciphertext ‖ tag) in one allocation.
        @usableFromInline
        static func sealedBox(
            _ message: UnsafeRawBufferPointer,
            using key: SymmetricKey,
            nonce: Nonce,
            authenticating associatedData: UnsafeRawBufferPointer
        ) throws(CryptoError) -> SealedBox {
            let storage = try AEADMessage.sealedStorage(
                .aesGCM,
                name: "GCM",
                message,
                using: key,
                nonce: nonce.bytes,
                isRandomNonce: nonce.isRandom,
                authenticating: associatedData
            )
            return SealedBox(nonce: nonce, storage: storage)
        }

        /// Encrypts and authenticates `message`.
        ///
        /// - Parameters:
        ///   - message: The plaintext.
        ///   - key: A 128-, 192- or 256-bit key.
        ///   - nonce: Never reused with the same key; nil (the default) draws a random one.
        /// - Returns: The sealed box.
        /// - Throws: `CryptoError.incorrectSize` for a key of another size, `keyUsageLimitReached`.
        public static func seal(
            _ message: some DataProtocol,
            using key: SymmetricKey,
            nonce: Nonce? = nil
        ) throws(CryptoError) -> SealedBox {
            try seal(message, using: key, nonce: nonce, authenticating: Data())
        }

        /// Seals into buffers the caller owns, for messages framed by the caller: `ciphertext` must be
        /// exactly `message.count` bytes and `tag` `tagByteCount` bytes. Nothing is allocated.
        ///
        /// - Parameters:
        ///   - message: The plaintext.
        ///   - key: A 128-, 192- or 256-bit key.
        ///   - nonce: Never reused with the same key: `Nonce()` draws a random one, which counts
        ///     against the key's limit of 2^32 random-nonce seals.
        ///   - associatedData: Bytes authenticated but not encrypted (may be empty).
        ///   - ciphertext: Receives the ciphertext; exactly `message.count` bytes.
        ///   - tag: Receives the authentication tag; exactly ``tagByteCount`` bytes.
        /// - Throws: ``CryptoError/incorrectSize(what:expected:actual:)`` for a `ciphertext` or `tag`
        ///   buffer or a key of another size; ``CryptoError/keyUsageLimitReached(_:)`` when the key has
        ///   already sealed 2^32 messages with random nonces. Nothing is written then.
        public static func seal(
            _ message: UnsafeRawBufferPointer,
            using key: SymmetricKey,
            nonce: Nonce,
            authenticating associatedData: UnsafeRawBufferPointer,
            into ciphertext: UnsafeMutableRawBufferPointer,
            tag: UnsafeMutableRawBufferPointer
        ) throws(CryptoError) {
            try nonce.bytes.withUnsafeBufferPointer { (nonceBytes) throws(CryptoError) in
                try AEADMessage.seal(
                    .aesGCM,
                    name: "GCM",
                    message,
                    using: key,
                    nonce: UnsafeRawBufferPointer(nonceBytes),
                    isRandomNonce: nonce.isRandom,
                    authenticating: associatedData,
                    into: ciphertext,
                    tag: tag
                )
            }
        }

        /// Verifies and decrypts. Any alteration, or the wrong key or associated data, throws
        /// `authenticationFailure`; no plaintext is returned unless the tag verifies.
        ///
        /// - Parameters:
        ///   - box: The sealed box.
        ///   - key: The key it was sealed with.
        ///   - associatedData: The associated data it was sealed with.
        /// - Returns: The plaintext, as long as the box's ciphertext.
        /// - Throws: ``CryptoError/authenticationFailure`` for a wrong key or associated data or any
        ///   altered byte of the box; ``CryptoError/incorrectSize(what:expected:actual:)`` for a key
        ///   that is not 16, 24 or 32 bytes.
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

        /// `open` with contiguous associated data: the plaintext in one allocation.
        @usableFromInline
        static func openedData(
            _ box: SealedBox,
            using key: SymmetricKey,
            authenticating associatedData: UnsafeRawBufferPointer
        ) throws(CryptoError) -> Data {
            try AEADMessage.openedData(
                .aesGCM,
                name: "GCM",
                box.storage,
                using: key,
                nonce: box.nonce.bytes,
                authenticating: associatedData
            )
        }

        /// Verifies and decrypts a box sealed without associated data.
        ///
        /// - Parameters:
        ///   - box: The sealed box.
        ///   - key: The key it was sealed with.
        /// - Returns: The plaintext, as long as the box's ciphertext.
        /// - Throws: ``CryptoError/authenticationFailure`` for a wrong key, a box sealed with
        ///   associated data, or any altered byte; ``CryptoError/incorrectSize(what:expected:actual:)``
        ///   for a key that is not 16, 24 or 32 bytes.
        public static func open(_ box: SealedBox, using key: SymmetricKey) throws(CryptoError) -> Data {
            try open(box, using: key, authenticating: Data())
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
        /// - Throws: ``CryptoError/authenticationFailure`` for a wrong key, nonce or associated data or
        ///   any altered byte, after wiping `plaintext`; ``CryptoError/incorrectSize(what:expected:actual:)``
        ///   for a `plaintext` buffer, a tag or a key of another size.
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
                    .aesGCM,
                    name: "GCM",
                    ciphertext,
                    using: key,
                    nonce: UnsafeRawBufferPointer(nonce),
                    tag: tag,
                    authenticating: associatedData,
                    into: plaintext
                )
            }
        }
    }
}
