import SecCrypto
import SecIO

/// When one store operation must be done by; `timeout` is kept for the error message. An operation
/// that an async variant runs (`BlockingThread`) also ends early when its task is cancelled: the
/// deadline keeps the task's `OperationCancellation`, and counts as passed once it is cancelled.
struct OperationDeadline: Sendable {
    let timeout: Duration
    let instant: ContinuousClock.Instant
    let cancellation: OperationCancellation?

    init(_ timeout: Duration) {
        self.timeout = timeout
        instant = .now + timeout
        cancellation = OperationCancellation.current
    }

    var remaining: Duration { instant - .now }
    var isCancelled: Bool { cancellation?.isCancelled ?? false }
    var hasPassed: Bool { isCancelled || remaining <= .zero }
    /// What an operation stopped by its deadline throws: `cancelled` when its task was cancelled.
    var error: KeychainError { isCancelled ? .cancelled : .timeout(timeout) }
}
