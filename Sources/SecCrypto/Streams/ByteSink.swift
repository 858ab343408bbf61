/// A destination for a stream of bytes: a file, standard output, or a transform (cipher, base64)
/// that passes its output on to another sink. Pipelines of sinks process any input size in
/// constant memory.
///
/// A pipeline mixes stages with errors of different kinds (``CryptoError`` from a cipher, SecIO's
/// `FileError` from a file), so the protocol's methods throw any error; each sink documents its own.
public protocol ByteSink: AnyObject {
    /// Accepts the next bytes.
    ///
    /// - Parameter bytes: The bytes, valid only during the call.
    /// - Throws: The sink's own error, or the error of the sink it passes its output to.
    func write(_ bytes: UnsafeRawBufferPointer) throws
    /// Ends the stream: flushes what is buffered and finishes the next sink.
    ///
    /// - Throws: The sink's own error (a cipher's ``CryptoError/authenticationFailure``, say), or the
    ///   error of the sink it passes its output to.
    func finish() throws
}

extension ByteSink {
    /// Accepts the next bytes from any `DataProtocol`.
    ///
    /// - Parameter data: The bytes, in any number of regions.
    /// - Throws: What ``write(_:)`` throws.
    public func write(data: some DataProtocol) throws {
        for region in data.regions {
            try region.withBytes { (bytes) throws in try write(bytes) }
        }
    }
}

/// Collects everything written, for one-shot use.
public final class DataSink: ByteSink {
    /// The bytes written so far.
    public private(set) var data = Data()

    /// Creates an empty sink.
    public init() {}

    public func write(_ bytes: UnsafeRawBufferPointer) { data.append(contentsOf: bytes) }

    public func finish() {}

    /// Runs `input` through the sink that `build` puts in front of a new `DataSink`, and returns
    /// what came out: the one-shot form of a streaming pipeline.
    ///
    /// - Parameters:
    ///   - input: The bytes to run through the pipeline.
    ///   - build: Makes the pipeline in front of the sink it is given.
    /// - Returns: The bytes that reached the end of the pipeline.
    /// - Throws: What `build` or the pipeline's sinks throw (``CryptoError`` from SecCrypto's).
    public static func collect(
        _ input: some DataProtocol,
        through build: (ByteSink) throws -> ByteSink
    ) throws -> Data {
        let output = DataSink()
        let sink = try build(output)
        try sink.write(data: input)
        try sink.finish()
        return output.data
    }
}
