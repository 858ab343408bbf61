internal import COpenSSL

extension HashAlgorithm {
    // Each HMAC computation duplicates its algorithm's template (`EVP_MAC_CTX_dup`), which avoids
    // fetching the MAC and the digest by name every time.
    private static let macTemplates = AlgorithmTable<HashAlgorithm>(of: "HMAC template", makeMACTemplate)

    /// An HMAC context with this digest set and no key: only ever duplicated.
    var macTemplate: OpaquePointer { Self.macTemplates[self] }

    private static func makeMACTemplate(_ algorithm: HashAlgorithm) -> OpaquePointer? {
        guard let mac = EVP_MAC_fetch(nil, "HMAC", nil) else { return nil }
        defer { EVP_MAC_free(mac) }  // a context keeps its own reference
        guard let context = EVP_MAC_CTX_new(mac) else { return nil }
        // The parameter keeps pointers to its key and value: both must outlive the set_params call
        // (passing the imported macro `OSSL_MAC_PARAM_DIGEST` directly would make a temporary C
        // string, freed before OpenSSL reads it: AddressSanitizer caught that).
        let ok = OSSL_MAC_PARAM_DIGEST.withCString { key in
            algorithm.openSSLName.withCString { name in
                var params = [
                    OSSL_PARAM_construct_utf8_string(key, UnsafeMutablePointer(mutating: name), 0),
                    OSSL_PARAM_construct_end(),
                ]
                return EVP_MAC_CTX_set_params(context, &params) == 1
            }
        }
        guard ok else {
            EVP_MAC_CTX_free(context)
            return nil
        }
        return context
    }
}

/// A keyed `EVP_MAC_CTX` for HMAC, owned by one `HMAC` value (copied on write).
@usableFromInline
package final class MACContext: DuplicableContext, @unchecked Sendable {
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
    package func finish<Kind>() -> HashOutput<Kind> {
        Self.final(context, algorithm)
    }

    /// One-shot HMAC of one buffer, without a Swift object: the hot path for short messages. Not
    /// generic, so that `HMAC`'s inlined one-shot forms make their code type where `H` is known.
    @usableFromInline
    package static func authenticationCode(
        _ algorithm: HashAlgorithm,
        key: UnsafeRawBufferPointer,
        message: UnsafeRawBufferPointer
    ) -> [UInt8] {
        let context = keyedContext(algorithm, key: key)
        defer { EVP_MAC_CTX_free(context) }
        update(context, message)
        return finalBytes(context, algorithm)
    }

    /// A duplicate of the algorithm's template, keyed.
    private static func keyedContext(_ algorithm: HashAlgorithm, key: UnsafeRawBufferPointer) -> OpaquePointer {
        guard let context = EVP_MAC_CTX_dup(algorithm.macTemplate) else {
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

    private static func final<Kind>(_ context: OpaquePointer, _ algorithm: HashAlgorithm) -> HashOutput<Kind> {
        HashOutput(algorithm: algorithm, bytes: finalBytes(context, algorithm))
    }

    private static func finalBytes(_ context: OpaquePointer, _ algorithm: HashAlgorithm) -> [UInt8] {
        let count = algorithm.byteCount
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var length = 0
            checkOpenSSL(
                EVP_MAC_final(context, buffer.baseAddress, &length, count) == 1 && length == count,
                "EVP_MAC_final"
            )
            initialized = count
        }
    }
}
