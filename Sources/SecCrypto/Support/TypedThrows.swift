// Typed-throws forms of the byte accessors whose closures are `rethrows` (which turns a typed error
// into `any Error`). Swift 6.3's `Array.withUnsafeBufferPointer` and `withUnsafeMutableBufferPointer`
// already keep the error type: arrays use those. A body must still say what it throws, as in
// `try iv.withBytes { (iv) throws(CryptoError) in … }`: Swift infers `any Error` for a closure otherwise.
//
// The error type is kept in one of two ways, chosen by measurement (callgrind): a `Result`, free where
// the call is specialized (keys, whose bodies fail often in trial decryption, and other concrete types),
// or catching and casting back, which boxes an error once it is thrown but needs no `Result<R, E>`
// metadata lookup in generic code that is not specialized (`some ContiguousBytes`, `some DataProtocol`).

extension ContiguousBytes {
    /// `withUnsafeBytes` with a body that throws `E`.
    @inlinable @inline(__always)
    package func withBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        // Only `body` throws, so the error is an `E`. No `Result<R, E>` here: in generic code that is
        // not specialized (`some ContiguousBytes` parameters), it would cost a metadata lookup per call.
        do { return try withUnsafeBytes(body) } catch { throw error as! E }
    }
}

extension SecureBytes {
    /// `withUnsafeBytes` with a body that throws `E`; for a key, whose bodies often fail (trial
    /// decryption), without boxing the error.
    @inlinable @inline(__always)
    package func withBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try withUnsafeBytes { bytes in Result(catching: { () throws(E) in try body(bytes) }) }.get()
    }
}

extension SymmetricKey {
    /// `withUnsafeBytes` with a body that throws `E`: the key's `SecureBytes.withBytes`.
    @inlinable @inline(__always)
    package func withBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try material.withBytes(body)
    }
}

extension Data {
    /// `withUnsafeMutableBytes` with a body that throws `E`.
    @inlinable @inline(__always)
    package mutating func withMutableBytes<R, E: Error>(
        _ body: (UnsafeMutableRawBufferPointer) throws(E) -> R
    ) throws(E) -> R {
        try withUnsafeMutableBytes { bytes in Result(catching: { () throws(E) in try body(bytes) }) }.get()
    }
}

extension String {
    /// `withUTF8` with a body that throws `E` and takes the UTF-8 bytes as raw bytes.
    @inlinable @inline(__always)
    package mutating func withUTF8Bytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try withUTF8 { utf8 in Result(catching: { () throws(E) in try body(UnsafeRawBufferPointer(utf8)) }) }.get()
    }
}

extension Sequence<UInt8> {
    /// `withContiguousStorageIfAvailable` with a body that throws `E` and takes raw bytes; nil, without
    /// calling `body`, when the bytes are not contiguous.
    @inlinable @inline(__always)
    package func withContiguousBytesIfAvailable<R, E: Error>(
        _ body: (UnsafeRawBufferPointer) throws(E) -> R
    ) throws(E) -> R? {
        // As `ContiguousBytes.withBytes`: the callers are generic.
        do { return try withContiguousStorageIfAvailable { try body(UnsafeRawBufferPointer($0)) } } catch {
            throw error as! E
        }
    }
}

extension DataProtocol {
    /// The bytes as one buffer, with a body that throws `E`: in place when they are contiguous, else
    /// through a copy that is wiped afterwards (the bytes may be a secret or a plaintext).
    @inlinable
    package func withContiguousBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        if let result = try withContiguousBytesIfAvailable(body) { return result }
        let copy = SecureBytes(count: count) { (buffer: UnsafeMutableRawBufferPointer) in _ = copyBytes(to: buffer) }
        return try copy.withBytes(body)
    }
}

/// The bytes of four values at once, for a call that needs them all (JWE decryption): one closure
/// with a body that throws `E`, instead of four nested ones.
@inlinable @inline(__always)
package func withBytes<R, E: Error>(
    of first: some ContiguousBytes,
    _ second: some ContiguousBytes,
    _ third: some ContiguousBytes,
    _ fourth: some ContiguousBytes,
    _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer, UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws(E)
        -> R
) throws(E) -> R {
    try first.withUnsafeBytes { a in
        second.withUnsafeBytes { b in
            third.withUnsafeBytes { c in
                fourth.withUnsafeBytes { d in Result(catching: { () throws(E) in try body(a, b, c, d) }) }
            }
        }
    }.get()
}
