internal import COpenSSL

/// Drains OpenSSL's thread-local error queue: its reasons, oldest first.
package func drainOpenSSLErrors() -> [String] {
    var reasons: [String] = []
    var code = ERR_get_error()
    while code != 0 {
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        reasons.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        code = ERR_get_error()
    }
    return reasons
}

extension CryptoError {
    /// Drains OpenSSL's thread-local error queue into a `.backendFailure`, naming `operation`.
    static func openSSL(_ operation: String) -> CryptoError {
        let reasons = drainOpenSSLErrors()
        return .backendFailure(reasons.isEmpty ? "\(operation) failed" : "\(operation) failed: \(reasons.joined(separator: "; "))")
    }
}

/// Stops the process on an OpenSSL failure that can only mean memory exhaustion or a broken installation
/// (for example `EVP_MD_CTX_new` returning NULL), where there is nothing a caller could do.
func checkOpenSSL(_ ok: Bool, _ operation: @autoclosure () -> String) {
    if !ok { fatalError(CryptoError.openSSL(operation()).description) }
}
