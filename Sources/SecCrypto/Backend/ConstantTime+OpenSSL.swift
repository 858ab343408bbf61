internal import COpenSSL

/// Compares two byte buffers in time that depends only on their lengths (`CRYPTO_memcmp`).
package func constantTimeEquals(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Bool {
    guard lhs.count == rhs.count else { return false }
    guard lhs.count > 0 else { return true }
    return CRYPTO_memcmp(lhs.baseAddress, rhs.baseAddress, lhs.count) == 0
}

/// Compares two byte sequences in constant time with respect to their contents.
@usableFromInline
package func constantTimeEquals(_ lhs: some ContiguousBytes, _ rhs: some ContiguousBytes) -> Bool {
    lhs.withUnsafeBytes { l in rhs.withUnsafeBytes { r in constantTimeEquals(l, r) } }
}

/// Compares bytes with bytes from anywhere, contiguous or not (a copy of `rhs` then), in constant time
/// with respect to their contents.
package func constantTimeEquals(_ lhs: some ContiguousBytes, data rhs: some DataProtocol) -> Bool {
    rhs.withContiguousBytes { rhs in lhs.withUnsafeBytes { constantTimeEquals($0, rhs) } }
}

/// Overwrites memory with zeros in a way the compiler cannot optimise away (`OPENSSL_cleanse`).
package func secureZero(_ buffer: UnsafeMutableRawBufferPointer) {
    guard let base = buffer.baseAddress, buffer.count > 0 else { return }
    OPENSSL_cleanse(base, buffer.count)
}
