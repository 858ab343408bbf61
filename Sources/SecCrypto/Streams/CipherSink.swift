/// Encrypts or decrypts what is written through a `CipherStream` and passes the result on.
/// GCM encryption appends the 16-byte tag after the ciphertext (ciphertext ‖ tag, as `TagSplittingSink`
/// reads it back). For GCM decryption, set the expected tag on the stream (or use `TagSplittingSink`).
public final class CipherSink: ByteSink {
    private let stream: CipherStream
    private let next: ByteSink
    private var buffer: UnsafeMutableRawBufferPointer
    /// The largest piece passed to the cipher at once, so the output buffer has a fixed size.
    private static let pieceSize = 256 * 1024

    /// Creates a sink that runs what is written through `stream` into `next`. Its `finish` throws
    /// what ``CipherStream/finalize()`` throws.
    ///
    /// - Parameters:
    ///   - stream: A new stream, used by this sink alone from now on.
    ///   - next: The sink that receives the output (and, encrypting with GCM, the tag).
    public init(_ stream: CipherStream, next: ByteSink) {
        self.stream = stream
        self.next = next
        buffer = .allocate(byteCount: stream.outputCapacity(forInputCount: Self.pieceSize), alignment: 64)
    }

    deinit {
        secureZero(buffer)  // may hold plaintext
        buffer.deallocate()
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        var remaining = bytes
        while !remaining.isEmpty {
            let piece = UnsafeRawBufferPointer(rebasing: remaining.prefix(Self.pieceSize))
            let count = stream.update(piece, into: buffer)
            try next.write(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            remaining = UnsafeRawBufferPointer(rebasing: remaining[piece.count...])
        }
    }

    public func finish() throws {
        try next.write(data: try stream.finalize())
        if stream.algorithm.isGCM && stream.isEncrypting { try next.write(data: stream.tag) }
        try next.finish()
    }
}

/// GCM decryption of ciphertext ‖ tag: holds back the last 16 bytes, which are the tag, and sets
/// them as the expected tag before finishing the cipher.
public final class TagSplittingSink: ByteSink {
    private let stream: CipherStream
    private let cipher: CipherSink
    private var held: [UInt8] = []

    /// Creates a sink that decrypts ciphertext ‖ tag with `stream` into `next`. Its `finish` throws
    /// ``CryptoError/authenticationFailure`` when the input was shorter than a tag or the tag does
    /// not verify.
    ///
    /// - Parameters:
    ///   - stream: A new GCM decryption stream, used by this sink alone from now on.
    ///   - next: The sink that receives the plaintext, not authentic until `finish` returns.
    public init(_ stream: CipherStream, next: ByteSink) {
        self.stream = stream
        cipher = CipherSink(stream, next: next)
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        let tagCount = AES.GCM.tagByteCount
        if bytes.count >= tagCount {
            // Release the held bytes and all but the last 16 of the new ones.
            try cipher.write(data: held)
            try cipher.write(UnsafeRawBufferPointer(rebasing: bytes.dropLast(tagCount)))
            held = Array(bytes.suffix(tagCount))
        } else {
            held.append(contentsOf: bytes)
            let excess = held.count - tagCount
            if excess > 0 {
                try cipher.write(data: held.prefix(excess))
                held.removeFirst(excess)
            }
        }
    }

    public func finish() throws {
        guard held.count == AES.GCM.tagByteCount else { throw CryptoError.authenticationFailure }
        try stream.setExpectedTag(held)
        try cipher.finish()
    }
}
