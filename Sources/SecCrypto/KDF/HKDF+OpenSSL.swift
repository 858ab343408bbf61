internal import COpenSSL

#if canImport(Glibc)
internal import Glibc
#endif

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
    /// HKDF through OpenSSL's `EVP_KDF` "HKDF": `step` says which of extract and expand. The KDF
    /// itself, rather than `EVP_PKEY_HKDF` over it, whose context also builds OpenSSL's stores of
    /// key-management and key-exchange methods at their first use (a `cred get` derives one key).
    static func hkdf(
        _ step: HKDFStep = .extractAndExpand,
        ikm: UnsafeRawBufferPointer,
        salt: UnsafeRawBufferPointer,
        info: UnsafeRawBufferPointer,
        hash: HashAlgorithm,
        into output: UnsafeMutableRawBufferPointer
    ) throws(CryptoError) {
        guard let kdf = EVP_KDF_fetch(nil, "HKDF", nil) else { throw .openSSL("EVP_KDF_fetch(HKDF)") }
        defer { EVP_KDF_free(kdf) }
        guard let context = EVP_KDF_CTX_new(kdf) else { throw .openSSL("EVP_KDF_CTX_new(HKDF)") }
        defer { EVP_KDF_CTX_free(context) }
        var mode = step.openSSLMode
        let ok = withUnsafeTemporaryAllocation(byteCount: 1, alignment: 1) { empty in
            // OpenSSL wants non-NULL pointers even for empty inputs.
            func octets(_ key: UnsafeMutablePointer<CChar>, _ buffer: UnsafeRawBufferPointer) -> OSSL_PARAM {
                let base = buffer.baseAddress ?? UnsafeRawPointer(empty.baseAddress!)
                return OSSL_PARAM_construct_octet_string(key, UnsafeMutableRawPointer(mutating: base), buffer.count)
            }
            return hash.openSSLName.withCString { digest in
                let keys = hkdfParameterKeys
                var params = [
                    OSSL_PARAM_construct_int(keys.mode, &mode),
                    OSSL_PARAM_construct_utf8_string(keys.digest, UnsafeMutablePointer(mutating: digest), 0),
                    octets(keys.key, ikm), octets(keys.salt, salt), octets(keys.info, info),
                    OSSL_PARAM_construct_end(),
                ]
                return EVP_KDF_derive(
                    context,
                    output.baseAddress!.assumingMemoryBound(to: UInt8.self),
                    output.count,
                    &params
                )
                    == 1
            }
        }
        guard ok else { throw .openSSL("HKDF") }
    }
}

/// The names of HKDF's parameters, made once and never freed: an `OSSL_PARAM` keeps a pointer to its
/// name, which a C string made for one call would not outlive. Only read after it is made.
nonisolated(unsafe) private let hkdfParameterKeys = (
    mode: strdup(OSSL_KDF_PARAM_MODE)!, digest: strdup(OSSL_KDF_PARAM_DIGEST)!, key: strdup(OSSL_KDF_PARAM_KEY)!,
    salt: strdup(OSSL_KDF_PARAM_SALT)!, info: strdup(OSSL_KDF_PARAM_INFO)!
)
