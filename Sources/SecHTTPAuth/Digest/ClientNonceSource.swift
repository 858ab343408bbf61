import SecCrypto
import Synchronization

/// Client nonces from OpenSSL's random generator, drawn sixteen at a time. A request on a kept
/// nonce needs a new client nonce, and each `RAND_bytes` call of OpenSSL 3.0 goes through its
/// provider and ends by rekeying the CTR-DRBG: one draw per request cost about as much as the rest
/// of the Digest header. One source serves every session of the process, so no two sessions (or
/// copies of one) send the same client nonce.
final class ClientNonceSource: Sendable {
    /// 192 bits, as long as the RFC 7616 examples' client nonces.
    static let nonceByteCount = 24
    static let noncesPerDraw = 16
    private let unused = Mutex<[UInt8]>([])

    /// The next client nonce, in base64.
    func next() throws(HTTPAuthError) -> String {
        let bytes = try unused.withLock { unused throws(HTTPAuthError) -> [UInt8] in
            if unused.isEmpty {
                do {
                    unused = try SecureRandom.bytes(count: Self.nonceByteCount * Self.noncesPerDraw)
                } catch {
                    throw .randomGenerationFailed
                }
            }
            defer { unused.removeLast(Self.nonceByteCount) }
            return Array(unused.suffix(Self.nonceByteCount))
        }
        return Base64.encode(bytes)
    }
}
