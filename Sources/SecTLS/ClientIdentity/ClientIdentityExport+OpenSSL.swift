internal import COpenSSL
import SecCrypto

extension PrivateKeyHandle {
    /// The key as unencrypted PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`). OpenSSL writes it into a
    /// secure-memory BIO, whose buffers are wiped when they grow or are freed; the copy returned is
    /// `SecureBytes`.
    func unencryptedPKCS8PEM() throws(TLSError) -> SecureBytes {
        guard let bio = BIO_new(BIO_s_secmem()) else { throw .openSSL("BIO_new") }
        defer { BIO_free(bio) }
        guard PEM_write_bio_PKCS8PrivateKey(bio, pointer, nil, nil, 0, nil, nil) == 1 else {
            throw .openSSL("PEM_write_bio_PKCS8PrivateKey")
        }
        var data: UnsafeMutablePointer<CChar>?
        let length = BIO_ctrl(bio, BIO_CTRL_INFO, 0, &data)  // BIO_get_mem_data
        guard length > 0, let data else { throw .openSSL("BIO_get_mem_data") }
        return SecureBytes(UnsafeRawBufferPointer(start: data, count: length))
    }
}
