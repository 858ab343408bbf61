import SecKitNIO
import SecTLS
import SwiftASN1
import Vapor
import X509

extension Request {
    /// The client of the connection this request came on, as SecTLS verified it (subject, SANs,
    /// `sha256/…` key pin, chain to the client CA); nil on a server without
    /// `Application.HTTP.useMutualTLS(_:)`.
    ///
    /// It is read from the chain the verification callback handed to swift-nio-ssl
    /// (`peerCertificateChain`), so nothing is verified again; the certificates are parsed once
    /// and then found by their DER.
    public var secKitClient: VerifiedClient? {
        guard let chain = peerCertificateChain else { return nil }
        var certificates: [X509Certificate] = []
        for certificate in chain {
            var serializer = DER.Serializer()
            guard (try? serializer.serialize(certificate)) != nil,
                let parsed = try? VerifiedChainCache.shared.certificate(der: serializer.serializedBytes)
            else { return nil }
            certificates.append(parsed)
        }
        return certificates.isEmpty ? nil : VerifiedClient(chain: certificates)
    }
}

/// The certificates of verified chains, parsed by OpenSSL once for all requests.
enum VerifiedChainCache {
    static let shared = CertificateCache()
}
