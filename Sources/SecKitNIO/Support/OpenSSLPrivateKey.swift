import NIOCore
import NIOSSL
import SecTLS

/// An identity's private key as swift-nio-ssl's custom key: BoringSSL asks for each handshake
/// signature and OpenSSL makes it, so the key is never copied out of OpenSSL (no DER of it in
/// Swift arrays, no second copy in BoringSSL).
struct OpenSSLPrivateKey: NIOSSLCustomPrivateKey, Hashable {
    let identity: ClientIdentity

    init(_ identity: ClientIdentity) { self.identity = identity }

    var signatureAlgorithms: [SignatureAlgorithm] { identity.signatureSchemes.map(SignatureAlgorithm.init(rawValue:)) }

    func sign(channel: Channel, algorithm: SignatureAlgorithm, data: ByteBuffer) -> EventLoopFuture<ByteBuffer> {
        do {
            let signature = try data.withUnsafeReadableBytes { bytes throws(TLSError) in
                try identity.sign(bytes, scheme: algorithm.rawValue)
            }
            return channel.eventLoop.makeSucceededFuture(ByteBuffer(bytes: signature))
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
    }

    /// Only RSA key exchange decrypts with the key; SecKitNIO offers forward-secret key exchanges only.
    func decrypt(channel: Channel, data: ByteBuffer) -> EventLoopFuture<ByteBuffer> {
        channel.eventLoop.makeFailedFuture(TLSError.unsupported("RSA key exchange is not offered"))
    }

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.identity.certificate == rhs.identity.certificate }
    func hash(into hasher: inout Hasher) { hasher.combine(identity.certificate) }
}
