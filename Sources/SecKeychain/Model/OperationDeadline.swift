import SecCrypto
import SecIO

/// When one store operation must be done by; `timeout` is kept for the error message. An operation
/// that an async variant runs (`BlockingThread`) also ends early when its task is cancelled: the
/// deadline keeps the task's `OperationCancellation`, and counts as passed once it is cancelled.
package struct OperationDeadline: Sendable {
    package let timeout: Duration
    package let instant: ContinuousClock.Instant
    package let cancellation: OperationCancellation?

    package init(_ timeout: Duration) {
        self.timeout = timeout
        instant = .now + timeout
        cancellation = OperationCancellation.current
    }

    package var remaining: Duration { instant - .now }
    package var isCancelled: Bool { cancellation?.isCancelled ?? false }
    package var hasPassed: Bool { isCancelled || remaining <= .zero }
    /// What an operation stopped by its deadline throws: `cancelled` when its task was cancelled.
    package var error: KeychainError { isCancelled ? .cancelled : .timeout(timeout) }
}
