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
        public struct Nonce: ContiguousBytes, Sendable, Equatable {
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
            public init(data: some ContiguousBytes) throws(CryptoError) {
                let bytes = data.withUnsafeBytes { [UInt8]($0) }
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
            public static func == (lhs: Nonce, rhs: Nonce) -> Bool { lhs.bytes == rhs.bytes }

            public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
                try bytes.withUnsafeBytes(body)
            }
        }

        /// The result of `seal`: nonce, ciphertext and tag, held in one buffer laid out as nonce ‖
        /// ciphertext ‖ tag (as CryptoKit's). `ciphertext` and `tag` are slices of it: their indices
        /// start where they start in that buffer, so read them with `first`, `prefix` or a loop, or
        /// copy them into an array, rather than subscripting from 0.
        public struct SealedBox: Sendable {
            public let nonce: Nonce
            /// nonce ‖ ciphertext ‖ tag.
            private let storage: Data

            /// The encrypted message.
            public var ciphertext: Data { storage[(storage.startIndex + nonce.bytes.count)..<tagStart] }

            /// The 16-byte authentication tag.
            public var tag: Data { storage[tagStart...] }

            private var tagStart: Int { storage.endIndex - GCM.tagByteCount }

            /// Assembles a box from its parts; the tag must be 16 bytes.
            public init(nonce: Nonce, ciphertext: some DataProtocol, tag: some DataProtocol) throws(CryptoError) {
                guard tag.count == GCM.tagByteCount else {
                    throw .incorrectSize(
                        what: "GCM tag",
                        expected: "16 bytes (shorter tags are refused)",
                        actual: tag.count
                    )
                }
                var storage = Data(capacity: nonce.bytes.count + ciphertext.count + tag.count)
                storage.append(contentsOf: nonce.bytes)
                storage.append(contentsOf: ciphertext)
                storage.append(contentsOf: tag)
                self.init(nonce: nonce, storage: storage)
            }

            /// A box over `storage`, nonce ‖ ciphertext ‖ tag, kept as it is.
            init(nonce: Nonce, storage: Data) {
                self.nonce = nonce
                self.storage = storage
            }

            /// Parses the combined form nonce(12) ‖ ciphertext ‖ tag(16).
            public init(combined: some DataProtocol) throws(CryptoError) {
                let minimum = Nonce.defaultByteCount + GCM.tagByteCount
                guard combined.count >= minimum else {
                    throw .incorrectSize(
                        what: "combined GCM box",
                        expected: "at least \(minimum) bytes",
                        actual: combined.count
                    )
                }
                let storage = Data(combined)
                self.init(nonce: try Nonce(data: storage.prefix(Nonce.defaultByteCount)), storage: storage)
            }

            /// nonce ‖ ciphertext ‖ tag; nil when the nonce is not 12 bytes (the form cannot say its length).
            public var combined: Data? { nonce.bytes.count == Nonce.defaultByteCount ? storage : nil }
        }

        /// Encrypts and authenticates `message`, and authenticates `associatedData` (sent in clear).
        ///
        /// The key keeps one OpenSSL context for all its messages, so sealing many messages under one
        /// key only sets a new nonce each time. With random nonces (the default) a key seals at most
        /// 2^32 messages (NIST SP 800-38D §8.3); past that, `keyUsageLimitReached`.
        @inlinable
        public static func seal(
            _ message: some DataProtocol,
            using key: SymmetricKey,
            nonce: Nonce = Nonce(),
            authenticating associatedData: some DataProtocol
        ) throws(CryptoError) -> SealedBox {
            // Inlined, so the caller's specialization reaches the bytes without generic look-ups.
            try message.withContiguousBytes { (message) throws(CryptoError) in
                try associatedData.withContiguousBytes { (associatedData) throws(CryptoError) in
                    try sealedBox(message, using: key, nonce: nonce, authenticating: associatedData)
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
            let nonceCount = nonce.bytes.count
            let storage = try Data(uninitializedCount: nonceCount + message.count + tagByteCount) {
                (storage) throws(CryptoError) in
                nonce.bytes.withUnsafeBytes { storage.copyMemory(from: $0) }
                try seal(
                    message,
                    using: key,
                    nonce: nonce,
                    authenticating: associatedData,
                    into: UnsafeMutableRawBufferPointer(rebasing: storage[nonceCount..<(nonceCount + message.count)]),
                    tag: UnsafeMutableRawBufferPointer(rebasing: storage[(nonceCount + message.count)...])
                )
            }
            return SealedBox(nonce: nonce, storage: storage)
        }

        /// Encrypts and authenticates `message`.
        public static func seal(
            _ message: some DataProtocol,
            using key: SymmetricKey,
            nonce: Nonce = Nonce()
        ) throws(CryptoError) -> SealedBox {
            try seal(message, using: key, nonce: nonce, authenticating: Data())
        }

        /// Seals into buffers the caller owns, for messages framed by the caller: `ciphertext` must be
        /// exactly `message.count` bytes and `tag` `tagByteCount` bytes. Nothing is allocated.
        public static func seal(
            _ message: UnsafeRawBufferPointer,
            using key: SymmetricKey,
            nonce: Nonce,
            authenticating associatedData: UnsafeRawBufferPointer,
            into ciphertext: UnsafeMutableRawBufferPointer,
            tag: UnsafeMutableRawBufferPointer
        ) throws(CryptoError) {
            guard ciphertext.count == message.count else {
                throw .incorrectSize(
                    what: "GCM ciphertext buffer",
                    expected: "\(message.count) bytes",
                    actual: ciphertext.count
                )
            }
            guard tag.count == tagByteCount else {
                throw .incorrectSize(what: "GCM tag buffer", expected: "\(tagByteCount) bytes", actual: tag.count)
            }
            try key.gcmKeySchedule.withContext(key: key, nonce: nonce, encrypting: true) {
                (context) throws(CryptoError) in
                context.authenticate(associatedData)
                _ = context.update(message, into: ciphertext)
                try context.finishAEAD()
                context.tag(into: tag)
            }
        }

        /// Verifies and decrypts. Any alteration, or the wrong key or associated data, throws
        /// `authenticationFailure`; no plaintext is returned unless the tag verifies.
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
            try box.ciphertext.withBytes { (ciphertext) throws(CryptoError) in
                try box.tag.withBytes { (tag) throws(CryptoError) in
                    try Data(uninitializedCount: ciphertext.count) { (plaintext) throws(CryptoError) in
                        try open(
                            ciphertext,
                            using: key,
                            nonce: box.nonce,
                            tag: tag,
                            authenticating: associatedData,
                            into: plaintext
                        )
                    }
                }
            }
        }

        /// Verifies and decrypts a box sealed without associated data.
        public static func open(_ box: SealedBox, using key: SymmetricKey) throws(CryptoError) -> Data {
            try open(box, using: key, authenticating: Data())
        }

        /// Verifies and decrypts into a buffer the caller owns, exactly `ciphertext.count` bytes. If the
        /// tag does not verify, `plaintext` is wiped and `authenticationFailure` thrown: use its bytes
        /// only after this returns.
        public static func open(
            _ ciphertext: UnsafeRawBufferPointer,
            using key: SymmetricKey,
            nonce: Nonce,
            tag: UnsafeRawBufferPointer,
            authenticating associatedData: UnsafeRawBufferPointer,
            into plaintext: UnsafeMutableRawBufferPointer
        ) throws(CryptoError) {
            guard plaintext.count == ciphertext.count else {
                throw .incorrectSize(
                    what: "GCM plaintext buffer",
                    expected: "\(ciphertext.count) bytes",
                    actual: plaintext.count
                )
            }
            do {
                try key.gcmKeySchedule.withContext(key: key, nonce: nonce, encrypting: false) {
                    (context) throws(CryptoError) in
                    context.authenticate(associatedData)
                    try context.setExpectedTag(tag)
                    _ = context.update(ciphertext, into: plaintext)
                    try context.finishAEAD()
                }
            } catch {
                secureZero(plaintext)
                throw error
            }
        }
    }
}
