/// A symmetric key (for HMAC and ciphers). Its bytes are wiped when the last copy is released.
public struct SymmetricKey: Sendable, ContiguousBytes, Equatable, CustomStringConvertible {
    @usableFromInline let material: SecureBytes
    /// The keyed AEAD context (AES-GCM, ChaChaPoly) that messages under this key reuse, released with the key.
    let aeadKeySchedule: AEADKeySchedule

    /// Creates a key from existing bytes (copied into wiped-on-release memory).
    ///
    /// - Parameter data: The key's bytes, of any length; the source itself is not wiped.
    public init(data: some ContiguousBytes) {
        self.init(SecureBytes(data))
    }

    /// Creates a key from bytes already held in secure memory (for example a secret read by `SecretSource`).
    ///
    /// - Parameter bytes: The key's bytes, shared, not copied.
    public init(_ bytes: SecureBytes) {
        material = bytes
        aeadKeySchedule = AEADKeySchedule()
    }

    /// A key that refuses AES-GCM seals with random nonces past `gcmRandomNonceLimit` (for tests of
    /// the limit; every other key allows 2^32).
    package init(data: some ContiguousBytes, gcmRandomNonceLimit: UInt64) {
        material = SecureBytes(data)
        aeadKeySchedule = AEADKeySchedule(randomNonceLimit: gcmRandomNonceLimit)
    }

    /// Generates a new random key of the given size from OpenSSL's CSPRNG.
    ///
    /// A failing system random generator stops the process: no key is better than a predictable one.
    ///
    /// - Parameter size: The key length, `.bits256` for AES-256 or ChaChaPoly.
    public init(size: SymmetricKeySize) {
        do {
            self.init(
                try SecureBytes(count: size.bitCount / 8) { (buffer) throws(CryptoError) in
                    try SecureRandom.fill(buffer)
                }
            )
        } catch {
            fatalError("SecKit: \(error)")
        }
    }

    /// The key length in bits.
    public var bitCount: Int { material.count * 8 }

    /// Calls `body` with the key's bytes, without copying them. Do not let the pointer escape, nor copy
    /// the bytes into memory that is not wiped.
    ///
    /// - Parameter body: A closure that reads the bytes; the pointer is valid only during the call.
    /// - Returns: What `body` returns.
    /// - Throws: Whatever `body` throws; this method throws nothing of its own.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try material.withUnsafeBytes(body)
    }

    /// Constant-time comparison.
    ///
    /// - Parameters:
    ///   - lhs: A key.
    ///   - rhs: Another key.
    /// - Returns: `true` when both have the same bytes; keys of different lengths are unequal.
    public static func == (lhs: SymmetricKey, rhs: SymmetricKey) -> Bool { lhs.material == rhs.material }

    public var description: String { "SymmetricKey(\(bitCount) bits)" }
}

/// Standard symmetric key sizes.
public struct SymmetricKeySize: Sendable, Equatable {
    public let bitCount: Int

    /// A size in bits; it must be a positive multiple of 8.
    ///
    /// - Parameter bitCount: The key length in bits; any other value stops the process.
    public init(bitCount: Int) {
        precondition(bitCount > 0 && bitCount % 8 == 0, "key sizes are positive multiples of 8 bits")
        self.bitCount = bitCount
    }

    public static let bits128 = SymmetricKeySize(bitCount: 128)
    public static let bits192 = SymmetricKeySize(bitCount: 192)
    public static let bits256 = SymmetricKeySize(bitCount: 256)
}
