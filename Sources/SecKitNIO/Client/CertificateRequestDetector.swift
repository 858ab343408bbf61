import NIOCore
import SecTLS

/// Watches the server's plaintext handshake flight, before swift-nio-ssl decrypts anything, for a
/// TLS 1.2 CertificateRequest: a TLS 1.2 server that wants a certificate and gets none answers with
/// the generic handshake_failure alert, and only this tells that apart from, say, no common cipher.
/// (TLS 1.3 says certificate_required itself.) It removes itself at the first encrypted record.
final class CertificateRequestDetector<Verified: Sendable>: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let record: HandshakeRecord<Verified>
    private var records = ByteBuffer()
    private var handshake = ByteBuffer()
    private var finished = false

    init(record: HandshakeRecord<Verified>) { self.record = record }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !finished else {
            context.fireChannelRead(data)
            return
        }
        var bytes = unwrapInboundIn(data)
        records.writeBuffer(&bytes)
        scan()
        // Passed on before the removal: a removed context has no next handler, and the read that
        // ends the watch (ServerHello and the encrypted records after it, in TLS 1.3) would be lost.
        context.fireChannelRead(data)
        if finished { context.pipeline.syncOperations.removeHandler(context: context, promise: nil) }
    }

    /// Reads whole records: handshake ones (22) into `handshake`, where messages are read by their
    /// 4-byte header; ChangeCipherSpec (20), application data (23) or anything odd ends the watch.
    private func scan() {
        while !finished, records.readableBytes >= 5,
            let length = records.getInteger(at: records.readerIndex + 3, as: UInt16.self)
        {
            guard records.readableBytes >= 5 + Int(length) else { break }
            let type = records.readInteger(as: UInt8.self)!
            records.moveReaderIndex(forwardBy: 4)
            var payload = records.readSlice(length: Int(length))!
            guard type == 22 else {
                finished = true
                return
            }
            handshake.writeBuffer(&payload)
            while handshake.readableBytes >= 4,
                let header = handshake.getInteger(at: handshake.readerIndex, as: UInt32.self)
            {
                let messageLength = Int(header & 0x00FF_FFFF)
                guard handshake.readableBytes >= 4 + messageLength else { break }
                switch header >> 24 {
                case 13: record.sawCertificateRequest()
                case 14: finished = true  // ServerHelloDone: the server's flight is complete
                default: break
                }
                handshake.moveReaderIndex(forwardBy: 4 + messageLength)
            }
            if records.readableBytes + handshake.readableBytes > 1 << 16 { finished = true }
        }
        records.discardReadBytes()
        handshake.discardReadBytes()
    }
}
