internal import COpenSSL

/// Wraps (or unwraps) `input` under `kek` into `output`, which must be exactly 8 bytes longer
/// (shorter). An unwrap whose integrity check fails throws `authenticationFailure`.
func keyWrap(
    encrypting: Bool,
    kek: UnsafeRawBufferPointer,
    input: UnsafeRawBufferPointer,
    into output: UnsafeMutableRawBufferPointer
) throws(CryptoError) {
    guard let cipher = KeyWrapCipher(keyByteCount: kek.count)?.evpCipher else {
        throw .incorrectSize(what: "AES key-encryption key", expected: "16, 24 or 32 bytes", actual: kek.count)
    }
    guard let context = EVP_CIPHER_CTX_new() else { fatalError("EVP_CIPHER_CTX_new: out of memory") }
    defer { EVP_CIPHER_CTX_free(context) }
    let initialized = EVP_CipherInit_ex2(
        context,
        cipher,
        kek.baseAddress?.assumingMemoryBound(to: UInt8.self),
        nil,
        encrypting ? 1 : 0,
        nil
    )
    checkOpenSSL(initialized == 1, "EVP_CipherInit_ex2 (key wrap)")
    // The wrap ciphers do all their work in one update call, which also checks the integrity value.
    var written: Int32 = 0
    let updated = EVP_CipherUpdate(
        context,
        output.baseAddress?.assumingMemoryBound(to: UInt8.self),
        &written,
        input.baseAddress?.assumingMemoryBound(to: UInt8.self),
        Int32(input.count)
    )
    guard updated == 1, Int(written) == output.count else {
        if encrypting { fatalError(CryptoError.openSSL("AES key wrap").description) }
        OpenSSLError.clearQueue()
        secureZero(output)
        throw .authenticationFailure
    }
}
