import Synchronization

/// What a `SymmetricKey` keeps for its AEAD messages (AES-GCM, ChaChaPoly): one keyed OpenSSL
/// context, so that each message under the key only sets a new nonce (as `openssl speed -aead` does)
/// instead of building a context, a key schedule and (GCM) a GHASH table, and the count of AES-GCM
/// seals with random nonces.
///
/// The context lives exactly as long as the key's bytes: it is freed, and its key schedule cleansed
/// by OpenSSL, with the key's last copy. A message takes the context out of its slot and puts it
/// back, so concurrent messages under one key never share it; one that finds the slot empty, or
/// holding the other AEAD's context, builds its own. That exchange is why the class may be shared
/// across threads although a context may not: a context is only ever reachable from the slot or from
/// the one message that took it.
final class AEADKeySchedule: @unchecked Sendable {
    /// The AEADs a key's context can serve.
    enum Kind: Sendable {
        /// AES-GCM with the key's length.
        case aesGCM
        case chaChaPoly

        /// Whether `cipher` serves this kind.
        func matches(_ cipher: ContextCipher) -> Bool {
            self == .aesGCM ? cipher.isAESGCM : cipher == .chaCha20Poly1305
        }
    }

    /// NIST SP 800-38D §8.3: with random 96-bit nonces, at most 2^32 messages under one key.
    static let randomNonceLimit: UInt64 = 1 << 32

    /// The idle context, owned (retained) by the slot while it is there.
    private let idle = Atomic<Unmanaged<CipherContext>?>(nil)
    private let randomNonceSeals = Atomic<UInt64>(0)
    private let randomNonceLimit: UInt64

    init(randomNonceLimit: UInt64 = AEADKeySchedule.randomNonceLimit) {
        self.randomNonceLimit = randomNonceLimit
    }

    deinit { idle.load(ordering: .acquiring)?.release() }

    /// Runs `body` with this key's context for `kind`, started for one message with `nonce`. An
    /// AES-GCM seal with a random nonce counts against the limit, and past it throws
    /// `keyUsageLimitReached`.
    func withContext<R>(
        _ kind: Kind,
        key: SymmetricKey,
        nonce: UnsafeRawBufferPointer,
        isRandomNonce: Bool,
        encrypting: Bool,
        _ body: (CipherContext) throws(CryptoError) -> R
    ) throws(CryptoError) -> R {
        if encrypting && isRandomNonce && kind == .aesGCM {
            guard randomNonceSeals.add(1, ordering: .relaxed).newValue <= randomNonceLimit else {
                throw .keyUsageLimitReached(
                    "this key has sealed \(randomNonceLimit) messages with random nonces, the most NIST SP 800-38D allows: use a new key"
                )
            }
        }
        let context: CipherContext
        if let taken = idle.exchange(nil, ordering: .acquiring)?.takeRetainedValue(), kind.matches(taken.cipher) {
            context = taken
            context.restart(nonce: nonce, encrypting: encrypting)
        } else {
            context = try Self.makeContext(kind, key: key, nonce: nonce, encrypting: encrypting)
        }
        defer { giveBack(context) }
        return try body(context)
    }

    /// Puts a context back after its message, unless another one came back first.
    private func giveBack(_ context: CipherContext) {
        let retained = Unmanaged.passRetained(context)
        if !idle.compareExchange(expected: nil, desired: retained, ordering: .releasing).exchanged {
            retained.release()
        }
    }

    private static func makeContext(
        _ kind: Kind,
        key: SymmetricKey,
        nonce: UnsafeRawBufferPointer,
        encrypting: Bool
    ) throws(CryptoError) -> CipherContext {
        let cipher: ContextCipher =
            switch kind {
            case .aesGCM: .algorithm(try AES.algorithm(gcm: true, for: key))
            case .chaChaPoly: .chaCha20Poly1305
            }
        return try key.withBytes { (key) throws(CryptoError) in
            try CipherContext(cipher, encrypting: encrypting, key: key, iv: nonce, padding: false)
        }
    }
}
