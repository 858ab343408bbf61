import NIOConcurrencyHelpers
import SecTLS

/// What one connection's handshake learnt, for the handler that reports it: the verification
/// callback writes it, the handlers read it. swift-nio-ssl calls the callback on the channel's
/// event loop, but the callback is `@Sendable`, hence the lock (uncontended).
package final class HandshakeRecord<Verified: Sendable>: Sendable {
    private struct State {
        var verified: Verified?
        var failure: TLSError?
        var certificateRequested = false
    }
    private let state = NIOLockedValueBox(State())

    package init() {}

    func succeeded(_ verified: Verified) { state.withLockedValue { $0.verified = verified } }
    func failed(_ failure: TLSError) { state.withLockedValue { $0.failure = failure } }
    func sawCertificateRequest() { state.withLockedValue { $0.certificateRequested = true } }

    var verified: Verified? { state.withLockedValue { $0.verified } }
    var failure: TLSError? { state.withLockedValue { $0.failure } }
    var certificateRequested: Bool { state.withLockedValue { $0.certificateRequested } }
}
