internal import COpenSSL

extension KDF.PBKDF2 {
    /// `PKCS5_PBKDF2_HMAC` with the fetched digest.
    static func pbkdf2(
        password: UnsafeRawBufferPointer,
        salt: UnsafeRawBufferPointer,
        prf: HashAlgorithm,
        iterations: Int,
        into output: UnsafeMutableRawBufferPointer
    ) throws(CryptoError) {
        let ok = withUnsafeTemporaryAllocation(byteCount: 1, alignment: 1) { empty in
            // OpenSSL wants non-NULL pointers even for empty passwords and salts.
            let passwordBase = password.baseAddress ?? UnsafeRawPointer(empty.baseAddress!)
            let saltBase = salt.baseAddress ?? UnsafeRawPointer(empty.baseAddress!)
            return PKCS5_PBKDF2_HMAC(
                passwordBase.assumingMemoryBound(to: CChar.self),
                Int32(password.count),
                saltBase.assumingMemoryBound(to: UInt8.self),
                Int32(salt.count),
                Int32(iterations),
                prf.evpMD,
                Int32(output.count),
                output.baseAddress!.assumingMemoryBound(to: UInt8.self)
            ) == 1
        }
        guard ok else { throw .openSSL("PKCS5_PBKDF2_HMAC") }
    }
}
