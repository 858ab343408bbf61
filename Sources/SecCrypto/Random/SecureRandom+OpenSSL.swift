internal import COpenSSL

/// Cryptographically secure random bytes from OpenSSL's CSPRNG (`RAND_bytes`).
/// Use it for keys, IVs, nonces and salts.
public enum SecureRandom {
    /// Fills `buffer` with random bytes.
    ///
    /// - Parameter buffer: The memory to overwrite, of any size; an empty one is left as it is.
    /// - Throws: ``CryptoError/randomGenerationFailed`` when OpenSSL's generator cannot produce
    ///   bytes (for example, not seeded); the buffer's contents must not be used then.
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
    ///
    /// - Parameter count: The number of bytes, zero or more.
    /// - Returns: `count` bytes from OpenSSL's CSPRNG.
    /// - Throws: ``CryptoError/randomGenerationFailed`` when OpenSSL's generator cannot produce bytes.
    public static func bytes(count: Int) throws(CryptoError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        try bytes.withUnsafeMutableBufferPointer { (buffer) throws(CryptoError) in
            try fill(UnsafeMutableRawBufferPointer(buffer))
        }
        return bytes
    }
}
