internal import COpenSSL
internal import Glibc

/// Finite-field Diffie-Hellman with OpenSSL's big numbers: a key pair made here, and the secret it
/// shares with a peer's public key. Only for the protocols that dictate it (the Secret Service's
/// `dh-ietf1024-sha256-aes128-cbc-pkcs7` sessions); not for new designs.
///
/// The exponentiations run in constant time (`BN_mod_exp_mont_consttime`), and the private
/// exponent is cleared when the object is released. A peer's public key is accepted only inside
/// the group: 2 ≤ y ≤ p − 2.
package final class FiniteFieldDH {
    /// A group: its prime and generator, big-endian.
    package struct Group: Sendable {
        let prime: [UInt8]
        let generator: UInt8

        /// The 1024-bit MODP group of RFC 2409 §6.2 (generator 2), which the Secret Service
        /// specification names `dh-ietf1024`. Legacy: about 80 bits of security.
        package static let ietf1024 = Group(
            prime: [UInt8](
                hexPrime:
                    "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD"
                    + "EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"
                    + "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE65381FFFFFFFFFFFFFFFF"
            ),
            generator: 2
        )

        /// The prime's length in bytes: that of public keys and shared secrets.
        package var byteCount: Int { prime.count }
    }

    package let group: Group
    /// The public key, big-endian and padded to the prime's length.
    package let publicKey: [UInt8]
    private let prime: OpaquePointer
    private let privateExponent: OpaquePointer

    /// The private exponent's length in bits: at least twice the group's security strength (about 80
    /// bits for ietf1024), the rule OpenSSL follows for its named safe-prime groups (225 bits for the
    /// 2048-bit ones). A full-length exponent would make each exponentiation four times as slow and
    /// add no security.
    static let exponentBitCount: Int32 = 256

    /// Makes a new key pair in `group`: a private exponent x of `exponentBitCount` bits from the
    /// kernel's CSPRNG (2^255 ≤ x < 2^256, far below p − 1) and the public key g^x mod p.
    package init(group: Group) throws(CryptoError) {
        self.group = group
        prime = group.prime.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, Int32($0.count), nil) }
        guard let exponent = BN_secure_new() else { fatalError("BN_secure_new: out of memory") }
        privateExponent = exponent
        BN_set_flags(exponent, BN_FLG_CONSTTIME)
        try Self.drawExponent(into: exponent)
        let generator = BN_new()
        defer { BN_free(generator) }
        BN_set_word(generator, UInt(group.generator))
        publicKey = try Self.power(generator, exponent, modulo: prime, byteCount: group.byteCount)
    }

    /// Fills `exponent` with `exponentBitCount` random bits, the top one set, drawn by `getentropy`
    /// (glibc's getrandom(2) without `GRND_NONBLOCK`: it blocks until the kernel's pool has been
    /// seeded, then never does, the source OpenSSL's own generator seeds from). Not OpenSSL's
    /// `BN_priv_rand`: its first use in a process instantiates the provider's CTR-DRBG, whose
    /// AES-256-CTR fetch builds every cipher of the default provider, before the session can be
    /// opened (docs/performance-journal.md). The bytes are wiped after use.
    private static func drawExponent(into exponent: OpaquePointer) throws(CryptoError) {
        let byteCount = Int(exponentBitCount) / 8
        let drawn = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: byteCount) { bytes in
            defer { OPENSSL_cleanse(bytes.baseAddress, byteCount) }
            guard getentropy(bytes.baseAddress, byteCount) == 0 else { return false }
            bytes[0] |= 0x80
            return BN_bin2bn(bytes.baseAddress, Int32(byteCount), exponent) != nil
        }
        guard drawn else { throw .randomGenerationFailed }
    }

    deinit {
        BN_clear_free(privateExponent)
        BN_free(prime)
    }

    /// The secret shared with the holder of `peerPublicKey` (big-endian): y^x mod p, padded to the
    /// prime's length. A public key outside 2 ≤ y ≤ p − 2 is refused (`invalidParameter`).
    package func sharedSecret(with peerPublicKey: some ContiguousBytes) throws(CryptoError) -> SecureBytes {
        let peer = peerPublicKey.withUnsafeBytes {
            BN_bin2bn($0.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32($0.count), nil)
        }
        defer { BN_free(peer) }
        let largest = BN_dup(prime)
        defer { BN_free(largest) }
        BN_sub_word(largest, 2)
        guard let peer, BN_is_zero(peer) == 0, BN_is_one(peer) == 0, BN_cmp(peer, largest) <= 0 else {
            throw .invalidParameter("the peer's Diffie-Hellman public key is outside the group")
        }
        let secret = try Self.power(peer, privateExponent, modulo: prime, byteCount: group.byteCount)
        return SecureBytes(secret)
    }

    /// base^exponent mod modulus, big-endian, padded to `byteCount`, in constant time.
    private static func power(
        _ base: OpaquePointer?,
        _ exponent: OpaquePointer,
        modulo modulus: OpaquePointer,
        byteCount: Int
    ) throws(CryptoError) -> [UInt8] {
        guard let context = BN_CTX_secure_new(), let result = BN_secure_new() else {
            fatalError("BN_CTX_secure_new: out of memory")
        }
        defer {
            BN_clear_free(result)
            BN_CTX_free(context)
        }
        guard BN_mod_exp_mont_consttime(result, base, exponent, modulus, context, nil) == 1 else {
            throw .openSSL("DH modular exponentiation")
        }
        var bytes = [UInt8](repeating: 0, count: byteCount)
        guard BN_bn2binpad(result, &bytes, Int32(byteCount)) == byteCount else { throw .openSSL("DH number") }
        return bytes
    }
}

extension [UInt8] {
    /// The bytes of a hex constant written in the source.
    fileprivate init(hexPrime text: String) {
        let digits = Array(text.utf8)
        self = stride(from: 0, to: digits.count, by: 2).map {
            UInt8(String(decoding: digits[$0..<($0 + 2)], as: UTF8.self), radix: 16)!
        }
    }
}
