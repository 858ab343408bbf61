import SecCrypto

/// The `Authorization` (or `Proxy-Authorization`) value of HTTP Basic authentication (RFC 7617):
/// `Basic ` and the base64 of `user:password` in UTF-8, the `charset="UTF-8"` form.
///
/// Anyone who sees the request reads the password: send it over TLS only.
public enum BasicAuthorization {
    /// The header value. It carries the password, so it comes as `SecureBytes` (wiped on release)
    /// rather than a `String`; the `user:password` it encodes is built in wiped memory too. Throws
    /// `HTTPAuthError.invalidCredentials` for a user name with a colon or a control character in
    /// either part (RFC 7617 §2).
    ///
    /// - Parameters:
    ///   - user: the user name; no colon and no control character.
    ///   - password: the password; no control character.
    /// - Returns: `Basic ` and the base64 of `user:password`, in wiped memory.
    /// - Throws: ``HTTPAuthError/invalidCredentials(_:)`` when `user` contains a colon or a control
    ///   character, or `password` a control character.
    public static func headerValue(user: String, password: SecureBytes) throws(HTTPAuthError) -> SecureBytes {
        let userBytes = Array(user.utf8)
        guard !userBytes.contains(UInt8(ascii: ":")) else {
            throw .invalidCredentials("a Basic user name cannot contain ':'")
        }
        guard !userBytes.contains(where: isControlCharacter) else {
            throw .invalidCredentials("control character in the user name")
        }
        guard !password.withUnsafeBytes({ $0.contains(where: isControlCharacter) }) else {
            throw .invalidCredentials("control character in the password")
        }
        let pair = SecureBytes(count: userBytes.count + 1 + password.count) { pair in
            pair.copyBytes(from: userBytes)
            pair[userBytes.count] = UInt8(ascii: ":")
            password.withUnsafeBytes {
                UnsafeMutableRawBufferPointer(rebasing: pair[(userBytes.count + 1)...]).copyMemory(from: $0)
            }
        }
        let prefix = Array("Basic ".utf8)
        let encodedCount = Base64.encodedCount(byteCount: pair.count, padding: true)
        return SecureBytes(count: prefix.count + encodedCount) { value in
            value.copyBytes(from: prefix)
            _ = pair.withUnsafeBytes { pair in
                Base64.encode(
                    pair,
                    into: UnsafeMutableRawBufferPointer(rebasing: value[prefix.count...]),
                    alphabet: .standard,
                    padding: true
                )
            }
        }
    }
}
