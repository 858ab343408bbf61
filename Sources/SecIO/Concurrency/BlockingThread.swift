#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The errors of a module whose blocking operations `BlockingThread` runs for async callers.
package protocol BlockingOperationError: Error {
    /// The task was cancelled and the operation stopped (or never started).
    static var cancelled: Self { get }
    /// No thread could be started for the operation; the string is the reason.
    static func noThread(_ reason: String) -> Self
}

/// Runs blocking work (D-Bus calls, file locks, sockets) for an async caller on a new thread of its
/// own, so that it never occupies a thread of Swift's cooperative pool (which has one per core:
/// a few blocked operations would stall every task of the process). `Task.detached` would not do:
/// it runs on the same pool.
package enum BlockingThread {
    /// Runs `work` on a new thread and returns its result. A cancelled task throws `cancelled`
    /// without starting it; a task cancelled while it runs cancels the `OperationCancellation.current`
    /// it sees, and the work is expected to stop promptly and throw `cancelled` itself. The result of
    /// work that finished anyway is returned.
    package static func run<R: Sendable, E: BlockingOperationError>(
        _ work: @escaping @Sendable () throws(E) -> R
    ) async throws(E) -> R {
        if Task.isCancelled { throw E.cancelled }
        let cancellation = OperationCancellation()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<R, E>, Never>) in
                do throws(NativeThread.StartFailure) {
                    let thread = try NativeThread.start {
                        let result = OperationCancellation.$current.withValue(cancellation) {
                            Result { () throws(E) -> R in try work() }
                        }
                        continuation.resume(returning: result)
                    }
                    pthread_detach(thread)
                } catch {
                    continuation.resume(returning: .failure(E.noThread(error.reason)))
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
        return try result.get()
    }
}
