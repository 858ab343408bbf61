/// Base64-encodes what is written, as `openssl enc -a` does: lines of 64 characters, each ended by
/// a newline; or, with `lineLength: nil`, one line with no line break at all (`-A`).
public final class Base64EncodingSink: ByteSink {
    private let next: ByteSink
    private let lineLength: Int?
    private var pending: [UInt8] = []
    /// Input bytes per encoded line (48 for 64 characters), or per batch when unwrapped.
    private let unit: Int

    /// Creates a sink that encodes into `next`.
    ///
    /// - Parameters:
    ///   - lineLength: Characters per line, a positive multiple of 4 (64 by default, as `openssl enc
    ///     -a`); nil for one line without a line break. Any other value stops the process.
    ///   - next: The sink that receives the base64 text.
    public init(lineLength: Int? = 64, next: ByteSink) {
        precondition(lineLength.map { $0 > 0 && $0 % 4 == 0 } ?? true, "line length must be a positive multiple of 4")
        self.next = next
        self.lineLength = lineLength
        unit = lineLength.map { $0 / 4 * 3 } ?? 3
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        pending.append(contentsOf: bytes)
        let whole = pending.count / unit * unit
        guard whole > 0 else { return }
        try emit(pending[..<whole])
        pending.removeFirst(whole)
    }

    public func finish() throws {
        if !pending.isEmpty { try emit(pending[...]) }
        if lineLength != nil && !pending.isEmpty { try next.write(data: [UInt8(ascii: "\n")]) }
        pending = []
        try next.finish()
    }

    private func emit(_ bytes: ArraySlice<UInt8>) throws {
        var text = Base64.encode(bytes, lineLength: lineLength)
        if lineLength != nil && bytes.count % unit == 0 { text += "\n" }
        try next.write(data: Array(text.utf8))
    }
}

/// Decodes base64 text (line breaks and white space anywhere) and passes the bytes on. Text that
/// is not base64 is input in the wrong format: `malformedInput`, never `invalidEncoding` (which
/// names a bad key or parameter).
public final class Base64DecodingSink: ByteSink {
    private let next: ByteSink
    private var pending: [UInt8] = []

    /// Creates a sink that decodes into `next`. Its `write` and `finish` throw
    /// ``CryptoError/malformedInput(_:)`` for text that is not standard base64.
    ///
    /// - Parameter next: The sink that receives the decoded bytes.
    public init(next: ByteSink) {
        self.next = next
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        for byte in bytes where !Self.isWhiteSpace(byte) { pending.append(byte) }
        // Decode whole quads, but keep the last one back: it may carry padding.
        let whole = (pending.count / 4 - 1) * 4
        guard whole > 0 else { return }
        try next.write(data: try Self.decode(pending[..<whole]))
        pending.removeFirst(whole)
    }

    public func finish() throws {
        try next.write(data: try Self.decode(pending[...]))
        pending = []
        try next.finish()
    }

    private static func decode(_ text: ArraySlice<UInt8>) throws(CryptoError) -> [UInt8] {
        do {
            return try Base64.decode(utf8: text)
        } catch {
            // The decoder's positions count within the buffered text, not the input: left out.
            throw .malformedInput("the input is not valid base64")
        }
    }

    private static func isWhiteSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: " ")
            || byte == UInt8(ascii: "\t")
    }
}
