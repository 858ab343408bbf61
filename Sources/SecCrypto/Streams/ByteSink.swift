/// A destination for a stream of bytes: a file, standard output, or a transform (cipher, base64)
/// that passes its output on to another sink. Pipelines of sinks process any input size in
/// constant memory.
public protocol ByteSink: AnyObject {
    /// Accepts the next bytes.
    func write(_ bytes: UnsafeRawBufferPointer) throws(CryptoError)
    /// Ends the stream: flushes what is buffered and finishes the next sink.
    func finish() throws(CryptoError)
}

extension ByteSink {
    /// Accepts the next bytes from any `DataProtocol`.
    public func write(data: some DataProtocol) throws(CryptoError) {
        for region in data.regions {
            try region.withBytes { (bytes) throws(CryptoError) in try write(bytes) }
        }
    }
}

/// Collects everything written, for one-shot use.
public final class DataSink: ByteSink {
    /// The bytes written so far.
    public private(set) var data = Data()

    public init() {}

    public func write(_ bytes: UnsafeRawBufferPointer) throws(CryptoError) { data.append(contentsOf: bytes) }

    public func finish() throws(CryptoError) {}

    /// Runs `input` through the sink that `build` puts in front of a new `DataSink`, and returns
    /// what came out: the one-shot form of a streaming pipeline.
    public static func collect(
        _ input: some DataProtocol,
        through build: (ByteSink) throws(CryptoError) -> ByteSink
    ) throws(CryptoError) -> Data {
        let output = DataSink()
        let sink = try build(output)
        try sink.write(data: input)
        try sink.finish()
        return output.data
    }
}
