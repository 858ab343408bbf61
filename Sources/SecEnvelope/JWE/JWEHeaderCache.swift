import SecCrypto
import Synchronization

extension JWE.Header {
    /// The last few protected headers parsed, by their encoded bytes. A service receives the same
    /// handful of headers over and over, and decoding and parsing the header is a fifth of the cost of
    /// opening a small token. Parsing is a pure function of the bytes, so a hit is exactly what parsing
    /// would give. PBES2 headers (a fresh salt each time) and long headers are not kept.
    private static let recent = Mutex<[(encoded: [UInt8], header: JWE.Header)]>([])
    private static let capacity = 8
    private static let maximumCachedByteCount = 512

    /// Decodes and parses the base64url protected header `encoded`, or finds it among the recent ones.
    static func parse(encoded: ArraySlice<UInt8>) throws(CryptoError) -> JWE.Header {
        if encoded.count <= maximumCachedByteCount,
            let hit = recent.withLock({ $0.first { $0.encoded.elementsEqual(encoded) }?.header })
        {
            return hit
        }
        guard let json = encoded.withUnsafeBytes({ try? Base64.decodeCanonical($0, alphabet: .url, padded: false) })
        else {
            throw .malformedInput("JWE protected header is not base64url")
        }
        let header = try JWE.Header(json: json)
        if encoded.count <= maximumCachedByteCount && !header.keyManagement.usesPassword {
            recent.withLock { recent in
                if recent.count == capacity { recent.removeFirst() }
                recent.append((Array(encoded), header))
            }
        }
        return header
    }
}
