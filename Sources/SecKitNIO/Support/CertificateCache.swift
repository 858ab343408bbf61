import NIOConcurrencyHelpers
import NIOSSL
import SecTLS

/// Certificates of recent handshakes, parsed once. Servers and clients present the same
/// certificates connection after connection, and OpenSSL's parse of one (`d2i_X509` decodes its
/// public key through the provider decoders; `X509Certificate` then reads names, dates and SANs) cost
/// more per handshake than the checks made with it. Keyed by the exact DER, so a different
/// certificate is never mistaken for a cached one; a context holds one, shared by its connections.
package final class CertificateCache: Sendable {
    /// A certificate's DER as a key, hashed in one call (`Array`'s hashing feeds the hasher byte
    /// by byte, a cost per connection).
    private struct DER: Hashable {
        let bytes: [UInt8]
        func hash(into hasher: inout Hasher) { bytes.withUnsafeBytes { hasher.combine(bytes: $0) } }
    }
    private struct Entries {
        var parsed: [DER: X509Certificate] = [:]
        var converted: [X509Certificate: NIOSSLCertificate] = [:]
    }
    private let entries = NIOLockedValueBox(Entries())
    /// Beyond this many certificates the cache starts again empty: it bounds memory when many
    /// peers connect, and a handful of peers, the usual case, stay cached.
    private let capacity: Int

    package init(capacity: Int = 64) { self.capacity = capacity }

    /// `certificate` parsed by OpenSSL, from the cache when the same DER was seen before.
    package func certificate(_ certificate: NIOSSLCertificate) throws(TLSError) -> X509Certificate {
        let der: [UInt8]
        do { der = try certificate.toDERBytes() } catch { throw .malformedCertificate("swift-nio-ssl gave no DER") }
        return try self.certificate(der: der)
    }

    /// The certificate of `der` parsed by OpenSSL, from the cache when the same DER was seen before.
    package func certificate(der: [UInt8]) throws(TLSError) -> X509Certificate {
        if let cached = entries.withLockedValue({ $0.parsed[DER(bytes: der)] }) { return cached }
        let parsed = try X509Certificate(der: der)
        entries.withLockedValue { entries in
            if entries.parsed.count >= capacity { entries.parsed.removeAll() }
            entries.parsed[DER(bytes: der)] = parsed
        }
        return parsed
    }

    /// `certificate` for swift-nio-ssl (the anchors a verification adds to the validated chain).
    package func nioSSL(_ certificate: X509Certificate) throws(TLSError) -> NIOSSLCertificate {
        if let cached = entries.withLockedValue({ $0.converted[certificate] }) { return cached }
        let converted = try NIOSSLCertificate.from(certificate)
        entries.withLockedValue { entries in
            if entries.converted.count >= capacity { entries.converted.removeAll() }
            entries.converted[certificate] = converted
        }
        return converted
    }
}
