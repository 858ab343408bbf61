/// An immutable byte buffer for secrets: keys, passwords, tokens.
///
/// The bytes live in memory owned by SecKit and are overwritten with zeros (`OPENSSL_cleanse`)
/// when the last copy is released. Comparison is constant-time, and `description` never shows the bytes.
public struct SecureBytes: Sendable, ContiguousBytes, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    private final class Storage: @unchecked Sendable {
        // Written only inside `init`, read-only afterwards.
        let buffer: UnsafeMutableRawBufferPointer

        init(count: Int) {
            buffer = .allocate(byteCount: max(count, 1), alignment: 16)
            buffer.initializeMemory(as: UInt8.self, repeating: 0)
        }

        deinit {
            secureZero(buffer)
            buffer.deallocate()
        }
    }

    private let storage: Storage
    /// The number of bytes.
    public let count: Int

    /// Allocates `count` bytes and lets `initializer` write them. If it throws, the bytes are wiped.
    ///
    /// - Parameters:
    ///   - count: The number of bytes, zero or more (a negative count stops the process).
    ///   - initializer: Writes the bytes; the buffer starts zeroed and is valid only during the call.
    /// - Throws: Whatever `initializer` throws, after the memory is wiped and released.
    public init<E: Error>(
        count: Int,
        initializingWith initializer: (UnsafeMutableRawBufferPointer) throws(E) -> Void
    ) throws(E) {
        precondition(count >= 0, "SecureBytes count must not be negative")
        storage = Storage(count: count)
        self.count = count
        try initializer(UnsafeMutableRawBufferPointer(rebasing: storage.buffer[0..<count]))
    }

    /// Copies `bytes` into wiped-on-release memory. The source itself is not wiped.
    ///
    /// - Parameter bytes: The secret to copy.
    public init(_ bytes: some ContiguousBytes) {
        let count = bytes.withUnsafeBytes { $0.count }
        self.init(count: count) { destination in
            bytes.withUnsafeBytes { destination.copyMemory(from: $0) }
        }
    }

    public var isEmpty: Bool { count == 0 }

    /// Calls `body` with the secret bytes, without copying them. Do not let the pointer escape, nor copy
    /// the bytes into memory that is not wiped.
    ///
    /// - Parameter body: A closure that reads the bytes; the pointer is valid only during the call.
    /// - Returns: What `body` returns.
    /// - Throws: Whatever `body` throws; this method throws nothing of its own.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(rebasing: storage.buffer[0..<count]))
    }

    /// Constant-time comparison.
    ///
    /// - Parameters:
    ///   - lhs: A secret.
    ///   - rhs: Another secret.
    /// - Returns: `true` when both hold the same bytes; secrets of different lengths are unequal.
    public static func == (lhs: SecureBytes, rhs: SecureBytes) -> Bool {
        constantTimeEquals(lhs, rhs)
    }

    public var description: String { "SecureBytes(\(count) bytes)" }
    public var debugDescription: String { description }
}
