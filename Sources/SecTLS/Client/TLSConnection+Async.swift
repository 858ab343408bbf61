import SecCrypto
import SecIO

/// The calls of `TLSConnection` for Swift concurrency: each runs on a thread of its own, never on
/// the cooperative pool, and a cancelled task stops its wait for the socket at once (`cancelled`).
extension TLSConnection {
    /// Up to `maxLength` bytes (see `read(maxLength:)`).
    public func read(maxLength: Int = 16 * 1024) async throws(TLSError) -> [UInt8] {
        try await BlockingThread.run { () throws(TLSError) in try self.read(maxLength: maxLength) }
    }

    /// Writes all of `bytes` (see `write(_:)`).
    public func write(_ bytes: some DataProtocol) async throws(TLSError) {
        let bytes = [UInt8](bytes)
        try await BlockingThread.run { () throws(TLSError) in try self.write(bytes) }
    }

    /// Reads until the server closes the connection (see `readToEnd(limit:)`).
    public func readToEnd(limit: Int = 16 * 1024 * 1024) async throws(TLSError) -> [UInt8] {
        try await BlockingThread.run { () throws(TLSError) in try self.readToEnd(limit: limit) }
    }
}
