import Synchronization

/// What a `SymmetricKey` keeps for AES-GCM: one keyed OpenSSL context, so that each message under
/// the key only sets a new nonce (as `openssl speed -aead` does) instead of building a context, a
/// key schedule and a GHASH table, and the count of seals with random nonces.
///
/// The context lives exactly as long as the key's bytes: it is freed, and its key schedule cleansed
/// by OpenSSL, with the key's last copy. A message takes the context out of its slot and puts it
/// back, so concurrent messages under one key never share it; one that finds the slot empty builds
/// its own. That exchange is why the class may be shared across threads although a context may not:
/// a context is only ever reachable from the slot or from the one message that took it.
final class GCMKeySchedule: @unchecked Sendable {
    /// NIST SP 800-38D §8.3: with random 96-bit nonces, at most 2^32 messages under one key.
    static let randomNonceLimit: UInt64 = 1 << 32

    /// The idle context, owned (retained) by the slot while it is there.
    private let idle = Atomic<Unmanaged<CipherContext>?>(nil)
    private let randomNonceSeals = Atomic<UInt64>(0)
    private let randomNonceLimit: UInt64

    init(randomNonceLimit: UInt64 = GCMKeySchedule.randomNonceLimit) {
        self.randomNonceLimit = randomNonceLimit
    }

    deinit { idle.load(ordering: .acquiring)?.release() }

    /// Runs `body` with this key's context, started for one message with `nonce`. A seal with a
    /// random nonce counts against the limit, and past it throws `keyUsageLimitReached`.
    func withContext<R>(
        key: SymmetricKey,
        nonce: AES.GCM.Nonce,
        encrypting: Bool,
        _ body: (CipherContext) throws(CryptoError) -> R
    ) throws(CryptoError) -> R {
        if encrypting && nonce.isRandom {
            guard randomNonceSeals.add(1, ordering: .relaxed).newValue <= randomNonceLimit else {
                throw .keyUsageLimitReached(
                    "this key has sealed \(randomNonceLimit) messages with random nonces, the most NIST SP 800-38D allows: use a new key"
                )
            }
        }
        let context: CipherContext
        if let taken = idle.exchange(nil, ordering: .acquiring) {
            context = taken.takeRetainedValue()
            nonce.withUnsafeBytes { context.restart(nonce: $0, encrypting: encrypting) }
        } else {
            context = try Self.makeContext(key: key, nonce: nonce, encrypting: encrypting)
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
        key: SymmetricKey,
        nonce: AES.GCM.Nonce,
        encrypting: Bool
    ) throws(CryptoError) -> CipherContext {
        let algorithm = try AES.algorithm(gcm: true, for: key)
        return try key.withBytes { (key) throws(CryptoError) in
            try nonce.withBytes { (nonce) throws(CryptoError) in
                try CipherContext(algorithm, encrypting: encrypting, key: key, iv: nonce, padding: false)
            }
        }
    }
}
