internal import COpenSSL

extension TLSError {
    /// Drains OpenSSL's thread-local error queue into one line naming `operation`.
    static func drainOpenSSLErrors() -> [String] {
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

    /// A `.backendFailure` naming `operation`, with OpenSSL's queued reasons (the queue is emptied).
    static func openSSL(_ operation: String) -> TLSError {
        let reasons = drainOpenSSLErrors()
        return .backendFailure(reasons.isEmpty ? "\(operation) failed" : "\(operation) failed: \(reasons.joined(separator: "; "))")
    }
}
