internal import COpenSSL
import SecCrypto

/// Owns one reference to an OpenSSL `EVP_PKEY` (a private key; freed on deinit). Never modified after loading.
final class PrivateKeyHandle: @unchecked Sendable {
    let pointer: OpaquePointer

    init(owning pointer: OpaquePointer) { self.pointer = pointer }

    deinit { EVP_PKEY_free(pointer) }

    /// The first private key of `pem` (blocks of other labels are skipped), read by OpenSSL in place.
    convenience init(pem: UnsafeRawBufferPointer, passphrase: SecureBytes?) throws(TLSError) {
        // `-----BEGIN PRIVATE KEY-----`, `… RSA PRIVATE KEY-----`, `… ENCRYPTED PRIVATE KEY-----`, `… EC PRIVATE KEY-----`,
        // looked for byte by byte (no String copy of the key).
        guard Self.contains(pem, Self.keyMarker) else {
            throw .invalidClientIdentity("no private key found in the PEM input")
        }
        let bio = try memoryBIO(pem)
        defer { BIO_free(bio) }
        let prompt = PassphrasePrompt(passphrase)
        let key = withExtendedLifetime(prompt) {
            PEM_read_bio_PrivateKey(bio, nil, passphraseCallback, Unmanaged.passUnretained(prompt).toOpaque())
        }
        guard let key else {
            let reasons = OpenSSLError.drainQueue()
            if prompt.asked {
                throw passphrase == nil ? .passphraseRequired("the private key") : .wrongPassphrase("the private key")
            }
            throw .invalidClientIdentity("unreadable private key" + (reasons.last.map { " (\($0.reason))" } ?? ""))
        }
        self.init(owning: key)
    }

    private static let keyMarker = Array(" PRIVATE KEY-----".utf8)

    private static func contains(_ bytes: UnsafeRawBufferPointer, _ pattern: [UInt8]) -> Bool {
        guard bytes.count >= pattern.count else { return false }
        return (0...(bytes.count - pattern.count)).contains { start in
            pattern.indices.allSatisfy { bytes[start + $0] == pattern[$0] }
        }
    }
}

/// A read-only memory BIO over `bytes` (no copy; `bytes` must outlive it).
private func memoryBIO(_ bytes: UnsafeRawBufferPointer) throws(TLSError) -> OpaquePointer {
    guard let base = bytes.baseAddress, bytes.count <= Int32.max else {
        throw .invalidClientIdentity("empty or oversized input")
    }
    guard let bio = BIO_new_mem_buf(base, Int32(bytes.count)) else { throw .openSSL("BIO_new_mem_buf") }
    return bio
}

/// The passphrase handed to OpenSSL's `pem_password_cb`, and whether OpenSSL asked for it.
private final class PassphrasePrompt {
    private let passphrase: SecureBytes?
    var asked = false

    init(_ passphrase: SecureBytes?) { self.passphrase = passphrase }

    /// Copies the passphrase into `buffer` (at most `size` bytes); -1 when there is none.
    func fill(_ buffer: UnsafeMutablePointer<CChar>, size: Int) -> Int32 {
        asked = true
        guard let passphrase, passphrase.count <= size else { return -1 }
        passphrase.withUnsafeBytes { bytes in
            UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
        }
        return Int32(passphrase.count)
    }
}

private let passphraseCallback:
    @convention(c) (UnsafeMutablePointer<CChar>?, Int32, Int32, UnsafeMutableRawPointer?) -> Int32 = {
        buffer,
        size,
        _,
        context in
        guard let buffer, let context, size > 0 else { return -1 }
        return Unmanaged<PassphrasePrompt>.fromOpaque(context).takeUnretainedValue().fill(buffer, size: Int(size))
    }

extension ClientIdentity {
    /// Checks that `key` belongs to the first certificate.
    init(certificates: [X509Certificate], key: PrivateKeyHandle) throws(TLSError) {
        guard let first = certificates.first else { throw .invalidClientIdentity("no certificate") }
        guard X509_check_private_key(first.handle.pointer, key.pointer) == 1 else {
            OpenSSLError.clearQueue()
            throw .keyMismatch
        }
        self.certificate = first
        self.chain = Array(certificates.dropFirst())
        self.key = key
    }

    /// Every certificate of `pem`, with OpenSSL's reader (which skips key blocks, also encrypted ones).
    static func loadCertificates(pem: UnsafeRawBufferPointer) throws(TLSError) -> [X509Certificate] {
        guard !pem.isEmpty else { throw .invalidClientIdentity("no certificate found in the PEM input") }
        let bio = try memoryBIO(pem)
        defer { BIO_free(bio) }
        var certificates: [X509Certificate] = []
        while let x509 = PEM_read_bio_X509(bio, nil, nil, nil) {
            let handle = X509Handle(retaining: x509)
            X509_free(x509)
            certificates.append(try X509Certificate(handle: handle))
        }
        OpenSSLError.clearQueue()  // the end of input shows as "no start line"
        guard !certificates.isEmpty else { throw .invalidClientIdentity("no certificate found in the PEM input") }
        return certificates
    }

    /// The certificates (client certificate first) and key of a PKCS#12 file.
    static func loadPKCS12(
        _ der: UnsafeRawBufferPointer,
        passphrase: SecureBytes?
    ) throws(TLSError) -> (certificates: [X509Certificate], key: PrivateKeyHandle) {
        var cursor: UnsafePointer<UInt8>? = der.baseAddress?.assumingMemoryBound(to: UInt8.self)
        guard cursor != nil, let p12 = d2i_PKCS12(nil, &cursor, CLong(der.count)) else {
            OpenSSLError.clearQueue()
            throw .invalidClientIdentity("not a DER PKCS#12 file")
        }
        defer { PKCS12_free(p12) }
        // A NUL-terminated copy of the passphrase, wiped and freed afterwards.
        let given = UnsafeMutableBufferPointer<CChar>.allocate(capacity: (passphrase?.count ?? 0) + 1)
        given.initialize(repeating: 0)
        defer {
            secureZero(UnsafeMutableRawBufferPointer(given))
            given.deallocate()
        }
        passphrase?.withUnsafeBytes { UnsafeMutableRawBufferPointer(given).copyMemory(from: $0) }
        // The password that opens the MAC: the given one; with none or an empty one, OpenSSL's two
        // encodings of "no password" (NULL and "").
        let candidates: [UnsafeMutablePointer<CChar>?] =
            passphrase?.isEmpty == false ? [given.baseAddress] : [nil, given.baseAddress]
        let chosen: UnsafeMutablePointer<CChar>??
        if PKCS12_mac_present(p12) == 0 {
            chosen = candidates[0]
        } else {
            chosen = candidates.first { PKCS12_verify_mac(p12, $0, $0 == nil ? 0 : Int32(passphrase?.count ?? 0)) == 1 }
        }
        OpenSSLError.clearQueue()
        guard let password = chosen else {
            throw passphrase == nil ? .passphraseRequired("the PKCS#12 file") : .wrongPassphrase("the PKCS#12 file")
        }
        var key: OpaquePointer?
        var certificate: OpaquePointer?
        var extra: OpaquePointer?
        guard PKCS12_parse(p12, password, &key, &certificate, &extra) == 1 else {
            let reasons = OpenSSLError.drainQueue()
            throw .invalidClientIdentity("unreadable PKCS#12 contents" + (reasons.last.map { " (\($0.reason))" } ?? ""))
        }
        var handles: [X509Handle] = []
        if let certificate {
            handles.append(X509Handle(retaining: certificate))
            X509_free(certificate)
        }
        if let extra {
            for index in 0..<OPENSSL_sk_num(extra) {
                if let x509 = OPENSSL_sk_value(extra, index) {
                    handles.append(X509Handle(retaining: OpaquePointer(x509)))
                }
            }
            while let x509 = OPENSSL_sk_pop(extra) { X509_free(OpaquePointer(x509)) }
            OPENSSL_sk_free(extra)
        }
        guard let key else { throw .invalidClientIdentity("the PKCS#12 file holds no private key") }
        let keyHandle = PrivateKeyHandle(owning: key)
        guard !handles.isEmpty, certificate != nil else {
            throw .invalidClientIdentity("the PKCS#12 file holds no certificate")
        }
        var certificates: [X509Certificate] = []
        for handle in handles { certificates.append(try X509Certificate(handle: handle)) }
        return (certificates, keyHandle)
    }
}
