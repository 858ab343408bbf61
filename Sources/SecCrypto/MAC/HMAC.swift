/// HMAC (RFC 2104) over any `HashFunction`. Keys of any length work; keys longer than the hash's
/// block size are hashed first, as RFC 2104 says.
///
/// ```swift
/// let key = SymmetricKey(size: .bits256)
/// let mac = HMAC<SHA256>.authenticationCode(for: message, using: key)
/// let ok = HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: message, using: key)
/// ```
public struct HMAC<H: HashFunction>: IncrementalHashing {
    private var context: CopyOnWrite<MACContext>

    /// Starts an incremental computation with `key`.
    public init(key: SymmetricKey) {
        context = CopyOnWrite(key.withUnsafeBytes { MACContext(algorithm: H.algorithm, key: $0) })
    }

    public mutating func update(bufferPointer: UnsafeRawBufferPointer) {
        context.unique.update(bufferPointer)
    }

    public func finalize() -> AuthenticationCode {
        context.value.copy().finish()
    }

    /// `finalize()` without the duplicate that keeps the value usable: for a value about to be dropped.
    package mutating func finalizeLast() -> AuthenticationCode {
        context.unique.finish()
    }

    /// One-shot HMAC of any bytes.
    public static func authenticationCode(for data: some DataProtocol, using key: SymmetricKey) -> AuthenticationCode {
        let contiguous = data.withContiguousStorageIfAvailable { message in
            key.withUnsafeBytes {
                MACContext.authenticationCode(H.algorithm, key: $0, message: UnsafeRawBufferPointer(message))
            }
        }
        if let contiguous { return contiguous }
        var hmac = HMAC(key: key)
        hmac.update(data: data)
        return hmac.finalizeLast()
    }

    /// One-shot HMAC of the UTF-8 bytes of `string`.
    public static func authenticationCode(for string: String, using key: SymmetricKey) -> AuthenticationCode {
        var string = string
        return string.withUTF8 { message in
            key.withUnsafeBytes {
                MACContext.authenticationCode(H.algorithm, key: $0, message: UnsafeRawBufferPointer(message))
            }
        }
    }

    /// Checks `code` against the HMAC of `data` in constant time. A code of the wrong length is invalid.
    public static func isValidAuthenticationCode(
        _ code: some ContiguousBytes,
        authenticating data: some DataProtocol,
        using key: SymmetricKey
    ) -> Bool {
        constantTimeEquals(authenticationCode(for: data, using: key).bytes, code)
    }

}
