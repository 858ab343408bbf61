internal import COpenSSL

/// Per-algorithm HMAC contexts with the digest already set and no key. Each HMAC computation
/// duplicates one (`EVP_MAC_CTX_dup`), which avoids fetching the MAC and digest by name every time.
private struct MACTemplate: @unchecked Sendable {
    // Never used directly, only duplicated (a read-only operation on the source).
    let context: OpaquePointer

    init(_ algorithm: HashAlgorithm) {
        guard let mac = EVP_MAC_fetch(nil, "HMAC", nil), let context = EVP_MAC_CTX_new(mac) else {
            fatalError(CryptoError.openSSL("EVP_MAC_fetch(HMAC)").description)
        }
        EVP_MAC_free(mac)  // the context keeps its own reference
        let ok = algorithm.openSSLName.withCString { name in
            var params = [
                OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, UnsafeMutablePointer(mutating: name), 0),
                OSSL_PARAM_construct_end(),
            ]
            return EVP_MAC_CTX_set_params(context, &params) == 1
        }
        checkOpenSSL(ok, "EVP_MAC_CTX_set_params(digest=\(algorithm.openSSLName))")
        self.context = context
    }
}

private enum MACTemplates {
    static let md5 = MACTemplate(.md5)
    static let sha1 = MACTemplate(.sha1)
    static let sha224 = MACTemplate(.sha224)
    static let sha256 = MACTemplate(.sha256)
    static let sha384 = MACTemplate(.sha384)
    static let sha512 = MACTemplate(.sha512)

    static func template(for algorithm: HashAlgorithm) -> OpaquePointer {
        switch algorithm {
        case .md5: md5.context
        case .sha1: sha1.context
        case .sha224: sha224.context
        case .sha256: sha256.context
        case .sha384: sha384.context
        case .sha512: sha512.context
        }
    }
}

/// A keyed `EVP_MAC_CTX` for HMAC, owned by one `HMAC` value (copied on write).
package final class MACContext: @unchecked Sendable {
    private let context: OpaquePointer
    let algorithm: HashAlgorithm

    package init(algorithm: HashAlgorithm, key: UnsafeRawBufferPointer) {
        self.algorithm = algorithm
        context = Self.keyedContext(algorithm, key: key)
    }

    private init(copying other: MACContext) {
        algorithm = other.algorithm
        guard let context = EVP_MAC_CTX_dup(other.context) else {
            fatalError(CryptoError.openSSL("EVP_MAC_CTX_dup").description)
        }
        self.context = context
    }

    deinit { EVP_MAC_CTX_free(context) }

    /// An independent duplicate, in the same state: a keyed context copied this way skips hashing
    /// the key again, so a context keyed once serves as a template for many messages.
    package func copy() -> MACContext { MACContext(copying: self) }

    package func update(_ bytes: UnsafeRawBufferPointer) {
        Self.update(context, bytes)
    }

    /// Finishes this context; it must not be updated afterwards.
    package func finish() -> AuthenticationCode {
        Self.final(context, algorithm)
    }

    /// One-shot HMAC of one buffer, without a Swift object: the hot path for short messages.
    package static func authenticationCode(_ algorithm: HashAlgorithm, key: UnsafeRawBufferPointer, message: UnsafeRawBufferPointer) -> AuthenticationCode {
        let context = keyedContext(algorithm, key: key)
        defer { EVP_MAC_CTX_free(context) }
        update(context, message)
        return final(context, algorithm)
    }

    /// A duplicate of the algorithm's template, keyed.
    private static func keyedContext(_ algorithm: HashAlgorithm, key: UnsafeRawBufferPointer) -> OpaquePointer {
        guard let context = EVP_MAC_CTX_dup(MACTemplates.template(for: algorithm)) else {
            fatalError(CryptoError.openSSL("EVP_MAC_CTX_dup").description)
        }
        // OpenSSL treats a NULL key as "keep the previous key"; an empty key needs a non-NULL pointer.
        let ok = withUnsafeTemporaryAllocation(byteCount: 1, alignment: 1) { empty in
            EVP_MAC_init(context, key.baseAddress ?? UnsafeRawPointer(empty.baseAddress!), key.count, nil) == 1
        }
        checkOpenSSL(ok, "EVP_MAC_init")
        return context
    }

    private static func update(_ context: OpaquePointer, _ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        checkOpenSSL(EVP_MAC_update(context, base, bytes.count) == 1, "EVP_MAC_update")
    }

    private static func final(_ context: OpaquePointer, _ algorithm: HashAlgorithm) -> AuthenticationCode {
        let count = algorithm.byteCount
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var length = 0
            checkOpenSSL(EVP_MAC_final(context, buffer.baseAddress, &length, count) == 1 && length == count, "EVP_MAC_final")
            initialized = count
        }
        return AuthenticationCode(algorithm: algorithm, bytes: bytes)
    }
}
