internal import COpenSSL

extension KDF.HKDF {
    /// HKDF through OpenSSL's `EVP_PKEY_HKDF` (extract and expand).
    static func hkdf(
        ikm: UnsafeRawBufferPointer,
        salt: UnsafeRawBufferPointer,
        info: UnsafeRawBufferPointer,
        hash: HashAlgorithm,
        into output: UnsafeMutableRawBufferPointer
    ) throws(CryptoError) {
        guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_HKDF, nil) else { throw .openSSL("EVP_PKEY_CTX_new_id(HKDF)") }
        defer { EVP_PKEY_CTX_free(context) }
        var length = output.count
        let ok = withUnsafeTemporaryAllocation(byteCount: 1, alignment: 1) { empty in
            // OpenSSL wants non-NULL pointers even for empty inputs.
            func base(_ buffer: UnsafeRawBufferPointer) -> UnsafePointer<UInt8> {
                (buffer.baseAddress ?? UnsafeRawPointer(empty.baseAddress!)).assumingMemoryBound(to: UInt8.self)
            }
            return EVP_PKEY_derive_init(context) == 1
                && EVP_PKEY_CTX_set_hkdf_md(context, hash.evpMD) == 1
                && EVP_PKEY_CTX_set1_hkdf_salt(context, base(salt), Int32(salt.count)) == 1
                && EVP_PKEY_CTX_set1_hkdf_key(context, base(ikm), Int32(ikm.count)) == 1
                && EVP_PKEY_CTX_add1_hkdf_info(context, base(info), Int32(info.count)) == 1
                && EVP_PKEY_derive(context, output.baseAddress!.assumingMemoryBound(to: UInt8.self), &length) == 1
        }
        guard ok, length == output.count else { throw .openSSL("HKDF") }
    }
}
