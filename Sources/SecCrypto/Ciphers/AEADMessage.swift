/// The steps `AES.GCM` and `ChaChaPoly` share: one message sealed or opened on the key's kept context
/// (`AEADKeySchedule`), and the one buffer a sealed box keeps, nonce ‖ ciphertext ‖ tag.
enum AEADMessage {
    /// Both AEADs' tag length.
    static let tagByteCount = 16

    /// Seals into buffers the caller owns: `ciphertext` exactly `message.count` bytes, `tag` 16.
    /// `name` ("GCM", "ChaChaPoly") names the buffers in errors.
    static func seal(
        _ kind: AEADKeySchedule.Kind,
        name: String,
        _ message: UnsafeRawBufferPointer,
        using key: SymmetricKey,
        nonce: UnsafeRawBufferPointer,
        isRandomNonce: Bool,
        authenticating associatedData: UnsafeRawBufferPointer,
        into ciphertext: UnsafeMutableRawBufferPointer,
        tag: UnsafeMutableRawBufferPointer
    ) throws(CryptoError) {
        guard ciphertext.count == message.count else {
            throw .incorrectSize(
                what: "\(name) ciphertext buffer",
                expected: "\(message.count) bytes",
                actual: ciphertext.count
            )
        }
        guard tag.count == tagByteCount else {
            throw .incorrectSize(what: "\(name) tag buffer", expected: "\(tagByteCount) bytes", actual: tag.count)
        }
        try key.aeadKeySchedule.withContext(
            kind,
            key: key,
            nonce: nonce,
            isRandomNonce: isRandomNonce,
            encrypting: true
        ) { (context) throws(CryptoError) in
            context.authenticate(associatedData)
            _ = context.update(message, into: ciphertext)
            try context.finishAEAD()
            context.tag(into: tag)
        }
    }

    /// Verifies and decrypts into `plaintext`, exactly `ciphertext.count` bytes; wiped, and
    /// `authenticationFailure` thrown, when the tag does not verify.
    static func open(
        _ kind: AEADKeySchedule.Kind,
        name: String,
        _ ciphertext: UnsafeRawBufferPointer,
        using key: SymmetricKey,
        nonce: UnsafeRawBufferPointer,
        tag: UnsafeRawBufferPointer,
        authenticating associatedData: UnsafeRawBufferPointer,
        into plaintext: UnsafeMutableRawBufferPointer
    ) throws(CryptoError) {
        guard plaintext.count == ciphertext.count else {
            throw .incorrectSize(
                what: "\(name) plaintext buffer",
                expected: "\(ciphertext.count) bytes",
                actual: plaintext.count
            )
        }
        do {
            try key.aeadKeySchedule.withContext(
                kind,
                key: key,
                nonce: nonce,
                isRandomNonce: false,
                encrypting: false
            ) { (context) throws(CryptoError) in
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

    /// The whole box, nonce ‖ ciphertext ‖ tag, sealed in one allocation.
    static func sealedStorage(
        _ kind: AEADKeySchedule.Kind,
        name: String,
        _ message: UnsafeRawBufferPointer,
        using key: SymmetricKey,
        nonce: [UInt8],
        isRandomNonce: Bool,
        authenticating associatedData: UnsafeRawBufferPointer
    ) throws(CryptoError) -> Data {
        let nonceCount = nonce.count
        return try Data(uninitializedCount: nonceCount + message.count + tagByteCount) {
            (storage) throws(CryptoError) in
            try nonce.withUnsafeBufferPointer { (nonce) throws(CryptoError) in
                let nonce = UnsafeRawBufferPointer(nonce)
                storage.copyMemory(from: nonce)
                try seal(
                    kind,
                    name: name,
                    message,
                    using: key,
                    nonce: nonce,
                    isRandomNonce: isRandomNonce,
                    authenticating: associatedData,
                    into: UnsafeMutableRawBufferPointer(rebasing: storage[nonceCount..<(nonceCount + message.count)]),
                    tag: UnsafeMutableRawBufferPointer(rebasing: storage[(nonceCount + message.count)...])
                )
            }
        }
    }

    /// The plaintext of a box, in one allocation.
    static func openedData(
        _ kind: AEADKeySchedule.Kind,
        name: String,
        _ box: AEADBoxStorage,
        using key: SymmetricKey,
        nonce: [UInt8],
        authenticating associatedData: UnsafeRawBufferPointer
    ) throws(CryptoError) -> Data {
        try box.ciphertext.withBytes { (ciphertext) throws(CryptoError) in
            try box.tag.withBytes { (tag) throws(CryptoError) in
                try nonce.withUnsafeBufferPointer { (nonce) throws(CryptoError) in
                    try Data(uninitializedCount: ciphertext.count) { (plaintext) throws(CryptoError) in
                        try open(
                            kind,
                            name: name,
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
    }
}

/// A sealed box's one buffer, nonce ‖ ciphertext ‖ tag (as CryptoKit lays out `combined`), of which
/// the ciphertext and the tag are slices.
struct AEADBoxStorage: Sendable {
    /// nonce ‖ ciphertext ‖ tag.
    let bytes: Data
    let nonceByteCount: Int

    /// A box over `bytes`, kept as they are.
    init(bytes: Data, nonceByteCount: Int) {
        self.bytes = bytes
        self.nonceByteCount = nonceByteCount
    }

    /// Assembles a box from its parts; the tag must be 16 bytes (`name` names it in the error).
    init(name: String, nonce: [UInt8], ciphertext: some DataProtocol, tag: some DataProtocol) throws(CryptoError) {
        guard tag.count == AEADMessage.tagByteCount else {
            throw .incorrectSize(
                what: "\(name) tag",
                expected: "16 bytes (shorter tags are refused)",
                actual: tag.count
            )
        }
        var bytes = Data(capacity: nonce.count + ciphertext.count + tag.count)
        bytes.append(contentsOf: nonce)
        bytes.append(contentsOf: ciphertext)
        bytes.append(contentsOf: tag)
        self.init(bytes: bytes, nonceByteCount: nonce.count)
    }

    /// Checks that `combined` holds at least a nonce of `nonceByteCount` bytes and a tag.
    init(name: String, combined: some DataProtocol, nonceByteCount: Int) throws(CryptoError) {
        let minimum = nonceByteCount + AEADMessage.tagByteCount
        guard combined.count >= minimum else {
            throw .incorrectSize(
                what: "combined \(name) box",
                expected: "at least \(minimum) bytes",
                actual: combined.count
            )
        }
        self.init(bytes: Data(combined), nonceByteCount: nonceByteCount)
    }

    /// The nonce's bytes.
    var nonce: Data { bytes.prefix(nonceByteCount) }

    /// The encrypted message.
    var ciphertext: Data { bytes[(bytes.startIndex + nonceByteCount)..<tagStart] }

    /// The 16-byte authentication tag.
    var tag: Data { bytes[tagStart...] }

    private var tagStart: Int { bytes.endIndex - AEADMessage.tagByteCount }
}
