internal import COpenSSL

/// The AES key-wrap ciphers (RFC 3394, default IV), fetched on first use.
private enum FetchedKeyWrapCiphers {
    static let aes128 = FetchedObject("AES-128-WRAP") { EVP_CIPHER_fetch(nil, $0, nil) }
    static let aes192 = FetchedObject("AES-192-WRAP") { EVP_CIPHER_fetch(nil, $0, nil) }
    static let aes256 = FetchedObject("AES-256-WRAP") { EVP_CIPHER_fetch(nil, $0, nil) }
}

/// Wraps (or unwraps) `input` under `kek` into `output`, which must be exactly 8 bytes longer
/// (shorter). An unwrap whose integrity check fails throws `authenticationFailure`.
func keyWrap(
    encrypting: Bool, kek: UnsafeRawBufferPointer, input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer
) throws(CryptoError) {
    let cipher: OpaquePointer
    switch kek.count {
    case 16: cipher = FetchedKeyWrapCiphers.aes128.pointer
    case 24: cipher = FetchedKeyWrapCiphers.aes192.pointer
    case 32: cipher = FetchedKeyWrapCiphers.aes256.pointer
    default: throw .incorrectSize(what: "AES key-encryption key", expected: "16, 24 or 32 bytes", actual: kek.count)
    }
    guard let context = EVP_CIPHER_CTX_new() else { fatalError("EVP_CIPHER_CTX_new: out of memory") }
    defer { EVP_CIPHER_CTX_free(context) }
    let initialized = EVP_CipherInit_ex2(
        context, cipher, kek.baseAddress?.assumingMemoryBound(to: UInt8.self), nil, encrypting ? 1 : 0, nil)
    checkOpenSSL(initialized == 1, "EVP_CipherInit_ex2 (key wrap)")
    // The wrap ciphers do all their work in one update call, which also checks the integrity value.
    var written: Int32 = 0
    let updated = EVP_CipherUpdate(
        context, output.baseAddress?.assumingMemoryBound(to: UInt8.self), &written,
        input.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(input.count))
    guard updated == 1, Int(written) == output.count else {
        if encrypting { fatalError(CryptoError.openSSL("AES key wrap").description) }
        ERR_clear_error()
        secureZero(output)
        throw .authenticationFailure
    }
}
