import NIOSSL
import SecTLS

extension NIOSSLCertificate {
    /// `certificate` for swift-nio-ssl (a BoringSSL copy of its DER).
    package static func from(_ certificate: X509Certificate) throws(TLSError) -> NIOSSLCertificate {
        do {
            return try NIOSSLCertificate(bytes: certificate.derRepresentation, format: .der)
        } catch {
            throw .backendFailure("swift-nio-ssl cannot read the certificate \(certificate.subject)")
        }
    }
}

extension Array where Element == NIOSSLCertificate {
    package static func from(_ certificates: [X509Certificate]) throws(TLSError) -> [NIOSSLCertificate] {
        var result: [NIOSSLCertificate] = []
        for certificate in certificates { result.append(try NIOSSLCertificate.from(certificate)) }
        return result
    }
}

extension NIOSSL.TLSVersion {
    init(_ version: SecTLS.TLSVersion) {
        switch version {
        case .tls12: self = .tlsv12
        case .tls13: self = .tlsv13
        }
    }
}

extension NIOSSL.TLSConfiguration {
    /// Versions and, when given, `identity` as certificate chain and OpenSSL-held key: what a
    /// client and a server configuration share.
    package mutating func apply(
        minimumVersion: SecTLS.TLSVersion,
        maximumVersion: SecTLS.TLSVersion?,
        identity: ClientIdentity?
    ) throws(TLSError) {
        self.minimumTLSVersion = .init(minimumVersion)
        self.maximumTLSVersion = maximumVersion.map(NIOSSL.TLSVersion.init)
        guard let identity else { return }
        var chain: [NIOSSLCertificateSource] = []
        for certificate in [identity.certificate] + identity.chain {
            chain.append(.certificate(try NIOSSLCertificate.from(certificate)))
        }
        self.certificateChain = chain
        // The key signs only (OpenSSLPrivateKey): no RSA key exchange, which would need it to decrypt.
        self.cipherSuites = "ECDH+AESGCM:ECDH+CHACHA20:ECDH+AES256:ECDH+AES128:!aNULL:!eNULL:!MD5"
        self.privateKey = .privateKey(NIOSSLPrivateKey(customPrivateKey: OpenSSLPrivateKey(identity)))
    }
}

extension NIOSSLContext {
    /// The context of `configuration`, with swift-nio-ssl's failure as a `TLSError`.
    package static func make(_ configuration: NIOSSL.TLSConfiguration) throws(TLSError) -> NIOSSLContext {
        do {
            return try NIOSSLContext(configuration: configuration)
        } catch {
            throw .invalidConfiguration("swift-nio-ssl refused the configuration: \(error)")
        }
    }
}
