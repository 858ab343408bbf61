/// HMAC (RFC 2104) over any `HashFunction`. Keys of any length work; keys longer than the hash's
/// block size are hashed first, as RFC 2104 says.
///
/// ```swift
/// let key = SymmetricKey(size: .bits256)
/// let mac = HMAC<SHA256>.authenticationCode(for: message, using: key)
/// let ok = HMAC.isValidAuthenticationCode(mac, authenticating: message, using: key)
/// ```
public struct HMAC<H: HashFunction>: IncrementalHashing, MessageAuthenticationCodeKind {
    /// The key type.
    public typealias Key = SymmetricKey
    /// The code HMAC computes: `HashedAuthenticationCode<H>`.
    public typealias MAC = HashedAuthenticationCode<H>

    private var context: CopyOnWrite<MACContext>

    /// Starts an incremental computation with `key`.
    ///
    /// - Parameter key: The key, of any length (an empty one included, as RFC 2104 allows).
    public init(key: SymmetricKey) {
        context = CopyOnWrite(key.withUnsafeBytes { MACContext(algorithm: H.algorithm, key: $0) })
    }

    public mutating func update(bufferPointer: UnsafeRawBufferPointer) {
        context.unique.update(bufferPointer)
    }

    public func finalize() -> MAC {
        context.value.copy().finish()
    }

    /// `finalize()` without the duplicate that keeps the value usable: for a value about to be dropped.
    @usableFromInline
    package mutating func finalizeLast() -> MAC {
        context.unique.finish()
    }

    /// One-shot HMAC of any bytes. Inlined, as the other one-shot forms, so that it runs specialized
    /// for `H`: code generic over it would look up the metadata of `HMAC<H>` and of its code on every
    /// call (callgrind: +9 % for HMAC-SHA-256 of 64 bytes).
    ///
    /// - Parameters:
    ///   - data: The message.
    ///   - key: The key, of any length.
    /// - Returns: The code, `H.byteCount` bytes.
    @inlinable
    public static func authenticationCode(for data: some DataProtocol, using key: SymmetricKey) -> MAC {
        let contiguous = data.withContiguousStorageIfAvailable { message in
            MAC(
                algorithm: H.algorithm,
                bytes: key.withUnsafeBytes {
                    MACContext.authenticationCode(H.algorithm, key: $0, message: UnsafeRawBufferPointer(message))
                }
            )
        }
        if let contiguous { return contiguous }
        var hmac = HMAC(key: key)
        hmac.update(data: data)
        return hmac.finalizeLast()
    }

    /// One-shot HMAC of the UTF-8 bytes of `string`.
    ///
    /// - Parameters:
    ///   - string: The message, as text; its UTF-8 encoding is authenticated (no terminating zero).
    ///   - key: The key, of any length.
    /// - Returns: The code, `H.byteCount` bytes.
    @inlinable
    public static func authenticationCode(for string: String, using key: SymmetricKey) -> MAC {
        var string = string
        return string.withUTF8 { message in authenticationCode(for: UnsafeRawBufferPointer(message), using: key) }
    }

    /// Checks `code` against the HMAC of `data` in constant time. `H` is inferred from the code:
    /// `HMAC.isValidAuthenticationCode(mac, authenticating: data, using: key)`.
    ///
    /// - Parameters:
    ///   - code: The code to check, as computed by `HMAC<H>`.
    ///   - data: The message the code claims to authenticate.
    ///   - key: The key the code should have been computed with.
    /// - Returns: Whether the code is `data`'s under `key`.
    @inlinable
    public static func isValidAuthenticationCode(
        _ code: MAC,
        authenticating data: some DataProtocol,
        using key: SymmetricKey
    ) -> Bool {
        authenticationCode(for: data, using: key) == code
    }

    /// Checks received bytes against the HMAC of `data` in constant time. Bytes of the wrong length
    /// are invalid.
    ///
    /// - Parameters:
    ///   - code: The received code (`Data`, `[UInt8]`...).
    ///   - data: The message the code claims to authenticate.
    ///   - key: The key the code should have been computed with.
    /// - Returns: Whether `code` is `data`'s code under `key`.
    @inlinable
    public static func isValidAuthenticationCode(
        _ code: some ContiguousBytes,
        authenticating data: some DataProtocol,
        using key: SymmetricKey
    ) -> Bool {
        constantTimeEquals(authenticationCode(for: data, using: key), code)
    }
}
