internal import COpenSSL

/// One entry of OpenSSL's thread-local error queue. Every module reads the queue through
/// `OpenSSLError.drainQueue()` and maps the entries to its own error type.
package struct OpenSSLError: Sendable, Equatable, CustomStringConvertible {
    /// The library that reported the error (`ERR_LIB_SSL`, `ERR_LIB_ASN1`, ...).
    package let library: Int32
    /// The library's reason code (`SSL_R_CERTIFICATE_VERIFY_FAILED`, a TLS alert plus
    /// `SSL_AD_REASON_OFFSET`, ...).
    package let reasonCode: Int32
    /// OpenSSL's whole line for it (`error:0680007B:asn1 encoding routines::header too long`).
    package let text: String

    /// The reason part of `text` (`header too long`).
    package var reason: String {
        text.split(separator: ":", omittingEmptySubsequences: false).last.map(String.init) ?? text
    }

    package var description: String { text }

    /// Empties the calling thread's error queue and returns its entries, oldest first.
    package static func drainQueue() -> [OpenSSLError] {
        var entries: [OpenSSLError] = []
        while case let code = ERR_get_error(), code != 0 {
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            entries.append(
                OpenSSLError(
                    library: ERR_GET_LIB(code),
                    reasonCode: ERR_GET_REASON(code),
                    text: String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                )
            )
        }
        return entries
    }

    /// Empties the calling thread's error queue, before a call whose failure is read from it.
    package static func clearQueue() {
        ERR_clear_error()
    }

    /// "`operation` failed", with the queue's entries (which are drained).
    package static func failureMessage(_ operation: String) -> String {
        let entries = drainQueue()
        return entries.isEmpty
            ? "\(operation) failed" : "\(operation) failed: \(entries.map(\.text).joined(separator: "; "))"
    }
}

extension CryptoError {
    /// A `.backendFailure` naming `operation`, with OpenSSL's queued errors (the queue is emptied).
    static func openSSL(_ operation: String) -> CryptoError {
        .backendFailure(OpenSSLError.failureMessage(operation))
    }
}

/// Stops the process on an OpenSSL failure that can only mean memory exhaustion or a broken installation
/// (for example `EVP_MD_CTX_new` returning NULL), where there is nothing a caller could do.
func checkOpenSSL(_ ok: Bool, _ operation: @autoclosure () -> String) {
    if !ok { fatalError(CryptoError.openSSL(operation()).description) }
}
