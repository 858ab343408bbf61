internal import COpenSSL
import SecCrypto

extension X509Certificate {
    /// The key usage extension; nil when the certificate has none (its key may then do anything).
    public var keyUsage: KeyUsage? {
        guard X509_get_extension_flags(handle.pointer) & UInt32(EXFLAG_KUSAGE) != 0 else { return nil }
        let bits = X509_get_key_usage(handle.pointer)
        let map: [(Int32, KeyUsage)] = [
            (KU_DIGITAL_SIGNATURE, .digitalSignature), (KU_NON_REPUDIATION, .nonRepudiation),
            (KU_KEY_ENCIPHERMENT, .keyEncipherment), (KU_DATA_ENCIPHERMENT, .dataEncipherment),
            (KU_KEY_AGREEMENT, .keyAgreement), (KU_KEY_CERT_SIGN, .keyCertSign), (KU_CRL_SIGN, .cRLSign),
        ]
        return KeyUsage(map.filter { bits & UInt32($0.0) != 0 }.map(\.1))
    }

    /// The extended key usage extension; nil when the certificate has none (it is then good for any purpose).
    public var extendedKeyUsage: ExtendedKeyUsage? {
        guard X509_get_extension_flags(handle.pointer) & UInt32(EXFLAG_XKUSAGE) != 0 else { return nil }
        let bits = X509_get_extended_key_usage(handle.pointer)
        let map: [(Int32, ExtendedKeyUsage)] = [
            (XKU_SSL_SERVER, .serverAuth), (XKU_SSL_CLIENT, .clientAuth), (XKU_SMIME, .emailProtection),
            (XKU_CODE_SIGN, .codeSigning), (XKU_OCSP_SIGN, .ocspSigning), (XKU_TIMESTAMP, .timeStamping),
            (XKU_ANYEKU, .any),
        ]
        return ExtendedKeyUsage(map.filter { bits & UInt32($0.0) != 0 }.map(\.1))
    }

    /// True when the certificate is good for `purpose` by its extended key usage (none, or the
    /// purpose, or `anyExtendedKeyUsage`).
    func allows(_ purpose: ExtendedKeyUsage) -> Bool {
        extendedKeyUsage.map { $0.contains(purpose) || $0.contains(.any) } ?? true
    }

    /// True when `issuer`'s key signed this certificate and its subject is this one's issuer.
    func isIssued(by issuer: X509Certificate) -> Bool {
        let issued = X509_check_issued(issuer.handle.pointer, handle.pointer) == X509_V_OK
        OpenSSLError.clearQueue()
        return issued
    }

    /// True when the certificate is for `host` (a DNS name against DNS SANs, whole labels only, no
    /// CN fallback; an IPv4/IPv6 address against IP SANs), as the TLS client verifies it.
    func isValid(forHost host: String) -> Bool {
        let matched =
            TCPSocket.isIPAddress(host)
            ? X509_check_ip_asc(handle.pointer, host, 0) == 1
            : X509_check_host(handle.pointer, host, host.utf8.count, ChainVerification.hostFlags, nil) == 1
        OpenSSLError.clearQueue()
        return matched
    }
}
