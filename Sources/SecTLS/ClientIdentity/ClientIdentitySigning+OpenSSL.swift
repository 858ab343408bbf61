internal import COpenSSL
import SecCrypto

/// Signing TLS handshake messages with an identity's key, inside OpenSSL: for TLS stacks that take
/// the key as a signing callback (swift-nio-ssl's custom private keys), so the key never leaves
/// OpenSSL's memory.
extension ClientIdentity {
    /// The TLS 1.2/1.3 SignatureScheme code points (RFC 8446 §4.2.3) this identity's key can sign
    /// with, strongest first (SHA-1 schemes are left out). An EC key lists the ECDSA scheme of its
    /// own curve first, then the other two: TLS 1.2 names only the hash (RFC 5246 §7.4.1.4.1), so a
    /// P-384 key may sign with SHA-256 there, and TLS 1.3 stacks refuse a scheme of another curve
    /// themselves (BoringSSL, OpenSSL).
    package var signatureSchemes: [UInt16] {
        switch certificate.publicKeyType {
        case .rsa: [0x0804, 0x0805, 0x0806, 0x0401, 0x0501, 0x0601]
        case .rsaPSS: [0x0809, 0x080a, 0x080b]
        case .ec(curve: "prime256v1"): [0x0403, 0x0503, 0x0603]
        case .ec(curve: "secp384r1"): [0x0503, 0x0403, 0x0603]
        case .ec(curve: "secp521r1"): [0x0603, 0x0503, 0x0403]
        case .ed25519: [0x0807]
        case .ed448: [0x0808]
        default: []
        }
    }

    /// Signs `message` (the whole input, not a digest) with the identity's key under the TLS
    /// SignatureScheme `scheme`. Throws `unsupported` for a scheme the key cannot use.
    package func sign(_ message: UnsafeRawBufferPointer, scheme: UInt16) throws(TLSError) -> [UInt8] {
        guard signatureSchemes.contains(scheme) else {
            throw .unsupported("the client key cannot sign with TLS signature scheme 0x\(String(scheme, radix: 16))")
        }
        let digest: OpaquePointer? =
            switch scheme {
            case 0x0401, 0x0403, 0x0804, 0x0809: EVP_sha256()
            case 0x0501, 0x0503, 0x0805, 0x080a: EVP_sha384()
            case 0x0601, 0x0603, 0x0806, 0x080b: EVP_sha512()
            default: nil  // Ed25519, Ed448: the message itself
            }
        let pss = (0x0804...0x0806).contains(scheme) || (0x0809...0x080b).contains(scheme)
        guard let context = EVP_MD_CTX_new() else { throw .openSSL("EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(context) }
        var keyContext: OpaquePointer?
        guard EVP_DigestSignInit(context, &keyContext, digest, nil, key.pointer) == 1 else {
            throw .openSSL("EVP_DigestSignInit")
        }
        if pss {
            // RFC 8446: PSS with MGF1 over the same digest and a salt as long as the digest.
            guard EVP_PKEY_CTX_set_rsa_padding(keyContext, RSA_PKCS1_PSS_PADDING) == 1,
                EVP_PKEY_CTX_set_rsa_pss_saltlen(keyContext, RSA_PSS_SALTLEN_DIGEST) == 1
            else { throw .openSSL("EVP_PKEY_CTX_set_rsa_padding") }
        }
        var length = 0
        guard EVP_DigestSign(context, nil, &length, message.baseAddress, message.count) == 1 else {
            throw .openSSL("EVP_DigestSign")
        }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &signature, &length, message.baseAddress, message.count) == 1 else {
            throw .openSSL("EVP_DigestSign")
        }
        return Array(signature.prefix(length))
    }
}
