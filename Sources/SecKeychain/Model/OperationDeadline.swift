import SecCrypto

/// When one store operation must be done by; `timeout` is kept for the error message.
struct OperationDeadline: Sendable {
    let timeout: Duration
    let instant: ContinuousClock.Instant

    init(_ timeout: Duration) {
        self.timeout = timeout
        instant = .now + timeout
    }

    var remaining: Duration { instant - .now }
    var hasPassed: Bool { remaining <= .zero }
    var error: KeychainError { .timeout(timeout) }
}
