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

            /// A new random 12-byte nonce from OpenSSL's CSPRNG.
            public init() {
                do {
                    bytes = try SecureRandom.bytes(count: Self.defaultByteCount)
                } catch {
                    fatalError("SecKit: \(error)")
                }
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
            }

            public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
                try bytes.withUnsafeBytes(body)
            }
        }

        /// The result of `seal`: nonce, ciphertext and tag.
        public struct SealedBox: Sendable {
            public let nonce: Nonce
            public let ciphertext: Data
            public let tag: Data

            /// Assembles a box from its parts; the tag must be 16 bytes.
            public init(nonce: Nonce, ciphertext: some DataProtocol, tag: some DataProtocol) throws(CryptoError) {
                guard tag.count == GCM.tagByteCount else {
                    throw .incorrectSize(
                        what: "GCM tag",
                        expected: "16 bytes (shorter tags are refused)",
                        actual: tag.count
                    )
                }
                self.nonce = nonce
                self.ciphertext = Data(ciphertext)
                self.tag = Data(tag)
            }

            /// Parses the combined form nonce(12) ‖ ciphertext ‖ tag(16).
            public init(combined: some DataProtocol) throws(CryptoError) {
                let bytes = Data(combined)
                let minimum = Nonce.defaultByteCount + GCM.tagByteCount
                guard bytes.count >= minimum else {
                    throw .incorrectSize(
                        what: "combined GCM box",
                        expected: "at least \(minimum) bytes",
                        actual: bytes.count
                    )
                }
                try self.init(
                    nonce: Nonce(data: bytes.prefix(Nonce.defaultByteCount)),
                    ciphertext: bytes.dropFirst(Nonce.defaultByteCount).dropLast(GCM.tagByteCount),
                    tag: bytes.suffix(GCM.tagByteCount)
                )
            }

            /// nonce ‖ ciphertext ‖ tag; nil when the nonce is not 12 bytes (the form cannot say its length).
            public var combined: Data? {
                guard nonce.bytes.count == Nonce.defaultByteCount else { return nil }
                return Data(nonce.bytes) + ciphertext + tag
            }
        }

        /// Encrypts and authenticates `message`, and authenticates `associatedData` (sent in clear).
        public static func seal(
            _ message: some DataProtocol,
            using key: SymmetricKey,
            nonce: Nonce = Nonce(),
            authenticating associatedData: some DataProtocol
        ) throws(CryptoError) -> SealedBox {
            let stream = try CipherStream(try AES.algorithm(gcm: true, for: key), .encrypt, key: key, iv: nonce)
            authenticate(associatedData, with: stream)
            var ciphertext = stream.update(data: message)
            ciphertext.append(try stream.finalize())
            return try SealedBox(nonce: nonce, ciphertext: ciphertext, tag: stream.tag)
        }

        /// Encrypts and authenticates `message`.
        public static func seal(
            _ message: some DataProtocol,
            using key: SymmetricKey,
            nonce: Nonce = Nonce()
        ) throws(CryptoError) -> SealedBox {
            try seal(message, using: key, nonce: nonce, authenticating: Data())
        }

        /// Verifies and decrypts. Any alteration, or the wrong key or associated data, throws
        /// `authenticationFailure`; no plaintext is returned unless the tag verifies.
        public static func open(
            _ box: SealedBox,
            using key: SymmetricKey,
            authenticating associatedData: some DataProtocol
        ) throws(CryptoError) -> Data {
            try CipherStream.process(
                try AES.algorithm(gcm: true, for: key),
                .decrypt,
                key: key,
                iv: box.nonce,
                padding: .none,
                input: box.ciphertext
            ) {
                (stream) throws(CryptoError) in
                authenticate(associatedData, with: stream)
                try stream.setExpectedTag(box.tag)
            }
        }

        /// Verifies and decrypts a box sealed without associated data.
        public static func open(_ box: SealedBox, using key: SymmetricKey) throws(CryptoError) -> Data {
            try open(box, using: key, authenticating: Data())
        }

        private static func authenticate(_ data: some DataProtocol, with stream: CipherStream) {
            for region in data.regions { region.withUnsafeBytes { stream.authenticate($0) } }
        }
    }
}
