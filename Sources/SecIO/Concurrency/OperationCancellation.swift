import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The cancellation of one blocking operation that an async task started on a thread of its own
/// (`BlockingThread`): set when the task is cancelled, and seen by the operation in three ways —
/// `isCancelled` for loops that poll, handlers for calls that take a cancel hook (a `GCancellable`),
/// and `descriptor`, one end of a socket pair that becomes readable, for `poll` on sockets.
///
/// The operation finds it as `OperationCancellation.current`, the task-local `BlockingThread` binds
/// on its thread: the synchronous APIs stay unchanged, and are cancellable exactly when called that way.
package final class OperationCancellation: Sendable {
    /// The cancellation of the operation running on this thread; nil outside `BlockingThread.run`.
    @TaskLocal package static var current: OperationCancellation?

    private struct State {
        var isCancelled = false
        var nextID = 0
        var handlers: [Int: @Sendable () -> Void] = [:]
        /// The socket pair behind `descriptor`, made on its first use: most operations never poll.
        var pair: (read: Int32, write: Int32)?
    }

    private let state = Mutex(State())

    package init() {}

    deinit {
        if let pair = state.withLock({ $0.pair }) {
            for end in [pair.read, pair.write] where end >= 0 { close(end) }
        }
    }

    /// Readable once cancelled (one end of a socket pair, made close-on-exec at once, as `pipe2` would
    /// but Glibc's module does not export); -1 when none could be made, which `poll` ignores (the
    /// operation then notices cancellation only when it looks at `isCancelled`).
    package var descriptor: Int32 {
        state.withLock { state in
            if let pair = state.pair { return pair.read }
            var ends: [Int32] = [-1, -1]
            let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
            if socketpair(AF_UNIX, type, 0, &ends) != 0 { ends = [-1, -1] }
            state.pair = (ends[0], ends[1])
            if state.isCancelled { Self.signal(ends[1]) }
            return ends[0]
        }
    }

    package var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Marks the operation cancelled, wakes `poll`s on `descriptor` and runs the handlers (once).
    package func cancel() {
        let handlers = state.withLock { state in
            guard !state.isCancelled else { return [@Sendable () -> Void]() }
            state.isCancelled = true
            if let pair = state.pair { Self.signal(pair.write) }
            defer { state.handlers = [:] }
            return Array(state.handlers.values)
        }
        for handler in handlers { handler() }
    }

    /// Makes the read end of the pair readable.
    private static func signal(_ writeEnd: Int32) {
        guard writeEnd >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Runs `handler` when the operation is cancelled — at once (returning nil) when it already is.
    /// Give the returned identifier to `removeHandler` when the hook is no longer wanted.
    package func whenCancelled(_ handler: @escaping @Sendable () -> Void) -> Int? {
        let id = state.withLock { state -> Int? in
            guard !state.isCancelled else { return nil }
            state.nextID += 1
            state.handlers[state.nextID] = handler
            return state.nextID
        }
        if id == nil { handler() }
        return id
    }

    package func removeHandler(_ id: Int) {
        _ = state.withLock { $0.handlers.removeValue(forKey: id) }
    }
}
