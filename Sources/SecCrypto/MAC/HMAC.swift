/// HMAC (RFC 2104) over any `HashFunction`. Keys of any length work; keys longer than the hash's
/// block size are hashed first, as RFC 2104 says.
///
/// ```swift
/// let key = SymmetricKey(size: .bits256)
/// let mac = HMAC<SHA256>.authenticationCode(for: message, using: key)
/// let ok = HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: message, using: key)
/// ```
public struct HMAC<H: HashFunction>: Sendable {
    private var context: MACContext

    /// Starts an incremental computation with `key`.
    public init(key: SymmetricKey) {
        context = key.withUnsafeBytes { MACContext(algorithm: H.algorithm, key: $0) }
    }

    /// Adds raw bytes.
    public mutating func update(bufferPointer: UnsafeRawBufferPointer) {
        if !isKnownUniquelyReferenced(&context) { context = context.copy() }
        context.update(bufferPointer)
    }

    /// Adds bytes from `Data`, `[UInt8]`, slices or any other `DataProtocol`.
    public mutating func update(data: some DataProtocol) {
        if data.withContiguousStorageIfAvailable({ update(bufferPointer: UnsafeRawBufferPointer($0)) }) != nil { return }
        for region in data.regions {
            region.withUnsafeBytes { update(bufferPointer: $0) }
        }
    }

    /// Adds the UTF-8 bytes of `string`.
    public mutating func update(string: String) {
        var string = string
        string.withUTF8 { update(bufferPointer: UnsafeRawBufferPointer($0)) }
    }

    /// The authentication code of everything added so far; the value can still be updated afterwards.
    public func finalize() -> AuthenticationCode {
        context.copy().finish()
    }

    /// One-shot HMAC of any bytes.
    public static func authenticationCode(for data: some DataProtocol, using key: SymmetricKey) -> AuthenticationCode {
        let contiguous = data.withContiguousStorageIfAvailable { message in
            key.withUnsafeBytes { MACContext.authenticationCode(H.algorithm, key: $0, message: UnsafeRawBufferPointer(message)) }
        }
        if let contiguous { return contiguous }
        var hmac = HMAC(key: key)
        hmac.update(data: data)
        return hmac.consume()
    }

    /// One-shot HMAC of the UTF-8 bytes of `string`.
    public static func authenticationCode(for string: String, using key: SymmetricKey) -> AuthenticationCode {
        var string = string
        return string.withUTF8 { message in
            key.withUnsafeBytes { MACContext.authenticationCode(H.algorithm, key: $0, message: UnsafeRawBufferPointer(message)) }
        }
    }

    /// HMAC of a file or descriptor, streamed in constant memory.
    public static func authenticationCode(for input: FileInput, using key: SymmetricKey) throws(CryptoError) -> AuthenticationCode {
        var hmac = HMAC(key: key)
        try input.forEachChunk { hmac.update(bufferPointer: $0) }
        return hmac.consume()
    }

    /// Checks `code` against the HMAC of `data` in constant time. A code of the wrong length is invalid.
    public static func isValidAuthenticationCode(
        _ code: some ContiguousBytes, authenticating data: some DataProtocol, using key: SymmetricKey
    ) -> Bool {
        constantTimeEquals(authenticationCode(for: data, using: key).bytes, code)
    }

    /// Checks `code` against the HMAC of a file or descriptor, streamed, compared in constant time.
    public static func isValidAuthenticationCode(
        _ code: some ContiguousBytes, authenticating input: FileInput, using key: SymmetricKey
    ) throws(CryptoError) -> Bool {
        constantTimeEquals(try authenticationCode(for: input, using: key).bytes, code)
    }

    /// Finishes without the copy that `finalize()` makes to keep the value usable.
    private mutating func consume() -> AuthenticationCode {
        if !isKnownUniquelyReferenced(&context) { context = context.copy() }
        return context.finish()
    }
}
