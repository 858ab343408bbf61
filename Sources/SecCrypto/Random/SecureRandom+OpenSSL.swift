internal import COpenSSL

/// Cryptographically secure random bytes from OpenSSL's CSPRNG (`RAND_bytes`).
/// Use it for keys, IVs, nonces and salts.
public enum SecureRandom {
    /// Fills `buffer` with random bytes.
    public static func fill(_ buffer: UnsafeMutableRawBufferPointer) throws(CryptoError) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        var offset = 0
        while offset < buffer.count {
            let chunk = min(buffer.count - offset, Int(Int32.max))
            guard RAND_bytes(base.advanced(by: offset).assumingMemoryBound(to: UInt8.self), Int32(chunk)) == 1 else {
                _ = CryptoError.openSSL("RAND_bytes")
                throw .randomGenerationFailed
            }
            offset += chunk
        }
    }

    /// Returns `count` random bytes.
    public static func bytes(count: Int) throws(CryptoError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        try bytes.withUnsafeMutableBufferPointer { (buffer) throws(CryptoError) in
            try fill(UnsafeMutableRawBufferPointer(buffer))
        }
        return bytes
    }
}
