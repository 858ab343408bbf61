internal import COpenSSL

/// The steps of HKDF (RFC 5869) OpenSSL runs.
enum HKDFStep {
    /// Extract, then expand: `key` is the input key material.
    case extractAndExpand
    /// Extract only: `key` is the input key material, `info` is ignored, and the output (the
    /// pseudo-random key) is as long as the hash.
    case extract
    /// Expand only: `key` is the pseudo-random key, `salt` is ignored.
    case expand

    var openSSLMode: Int32 {
        switch self {
        case .extractAndExpand: EVP_PKEY_HKDEF_MODE_EXTRACT_AND_EXPAND
        case .extract: EVP_PKEY_HKDEF_MODE_EXTRACT_ONLY
        case .expand: EVP_PKEY_HKDEF_MODE_EXPAND_ONLY
        }
    }
}

extension KDF.HKDF {
    /// HKDF through OpenSSL's `EVP_PKEY_HKDF`: `step` says which of extract and expand.
    static func hkdf(
        _ step: HKDFStep = .extractAndExpand,
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
                && EVP_PKEY_CTX_set_hkdf_mode(context, step.openSSLMode) == 1
                && EVP_PKEY_CTX_set_hkdf_md(context, hash.evpMD) == 1
                && EVP_PKEY_CTX_set1_hkdf_salt(context, base(salt), Int32(salt.count)) == 1
                && EVP_PKEY_CTX_set1_hkdf_key(context, base(ikm), Int32(ikm.count)) == 1
                && EVP_PKEY_CTX_add1_hkdf_info(context, base(info), Int32(info.count)) == 1
                && EVP_PKEY_derive(context, output.baseAddress!.assumingMemoryBound(to: UInt8.self), &length) == 1
        }
        guard ok, length == output.count else { throw .openSSL("HKDF") }
    }
}
