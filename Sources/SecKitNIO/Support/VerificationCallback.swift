import NIOCore
import NIOSSL
import SecTLS

/// swift-nio-ssl's custom verification callback around a SecTLS verifier: the presented chain is
/// verified by OpenSSL (no file is read: the verifiers load their trust stores beforehand), the
/// outcome, or the typed reason it failed, goes to `record`, and swift-nio-ssl gets the validated
/// chain (its `peerValidatedCertificateChain`).
enum VerificationCallback {
    static func make<Verified: Sendable>(
        record: HandshakeRecord<Verified>,
        cache: CertificateCache,
        verify:
            @escaping @Sendable ([X509Certificate]) throws(TLSError) -> (verified: Verified, chain: [X509Certificate])
    ) -> NIOSSLCustomVerificationCallbackWithMetadata {
        { certificates, promise in
            do throws(TLSError) {
                var presented: [X509Certificate] = []
                for certificate in certificates { presented.append(try cache.certificate(certificate)) }
                let outcome = try verify(presented)
                var validated: [NIOSSLCertificate] = []
                for certificate in outcome.chain {
                    // Certificates the peer sent are handed back as they came; the anchor is converted.
                    if let index = presented.firstIndex(of: certificate) {
                        validated.append(certificates[index])
                    } else {
                        validated.append(try cache.nioSSL(certificate))
                    }
                }
                record.succeeded(outcome.verified)
                promise.succeed(.certificateVerified(VerificationMetadata(ValidatedCertificateChain(validated))))
            } catch {
                record.failed(error)
                promise.succeed(.failed)
            }
        }
    }
}
