import SecCrypto
import SecIO

/// The calls of `TLSConnection` for Swift concurrency: each runs on a thread of its own, never on
/// the cooperative pool, and a cancelled task stops its wait for the socket at once (`cancelled`).
extension TLSConnection {
    /// Up to `maxLength` bytes (see `read(maxLength:)`).
    ///
    /// - Parameter maxLength: the most bytes to return (16 KiB by default).
    /// - Returns: between 1 and `maxLength` bytes, or an empty array when the server closed the
    ///   connection.
    /// - Throws: ``TLSError/cancelled`` when the task is cancelled; otherwise what the synchronous
    ///   `read(maxLength:)` throws.
    public func read(maxLength: Int = 16 * 1024) async throws(TLSError) -> [UInt8] {
        try await BlockingThread.run { () throws(TLSError) in try self.read(maxLength: maxLength) }
    }

    /// Writes all of `bytes` (see `write(_:)`).
    ///
    /// - Parameter bytes: the bytes to send.
    /// - Throws: ``TLSError/cancelled`` when the task is cancelled; otherwise what the synchronous
    ///   `write(_:)` throws.
    public func write(_ bytes: some DataProtocol) async throws(TLSError) {
        let bytes = [UInt8](bytes)
        try await BlockingThread.run { () throws(TLSError) in try self.write(bytes) }
    }

    /// Reads until the server closes the connection (see `readToEnd(limit:)`).
    ///
    /// - Parameter limit: the most bytes accepted (16 MiB by default).
    /// - Returns: every byte up to the server's close.
    /// - Throws: ``TLSError/cancelled`` when the task is cancelled; otherwise what the synchronous
    ///   `readToEnd(limit:)` throws.
    public func readToEnd(limit: Int = 16 * 1024 * 1024) async throws(TLSError) -> [UInt8] {
        try await BlockingThread.run { () throws(TLSError) in try self.readToEnd(limit: limit) }
    }
}
