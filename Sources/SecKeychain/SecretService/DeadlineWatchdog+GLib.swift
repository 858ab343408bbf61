internal import CLibSecret

/// Cancels `GCancellable`s when their deadlines pass: one GLib thread for the process, started by the
/// first `watch`, that sleeps until the earliest deadline it holds (a `GCond` timed wait on GLib's
/// monotonic clock). An operation costs a lock, and a wake-up of the thread only when its deadline
/// comes before the one the thread sleeps until.
final class DeadlineWatchdog: @unchecked Sendable {
    // Everything below `condition` is only used with `mutex` held.
    private let mutex: UnsafeMutablePointer<GMutex>
    private let condition: UnsafeMutablePointer<GCond>
    private var entries: [UInt64: Entry] = [:]
    private var nextID: UInt64 = 0
    private var isRunning = false
    /// When the thread's wait ends: `.max` while it waits for a first deadline (or is not started),
    /// `.min` while it is awake (it looks at every entry before it sleeps again).
    private var wakeTime: gint64 = .max

    private struct Entry {
        /// When to cancel, in `g_get_monotonic_time` microseconds.
        let end: gint64
        let cancellable: GObjectReference
    }

    /// Deadlines further away than this are never reached (a "wait forever" timeout must not
    /// overflow the clock arithmetic).
    private static let horizon: Duration = .seconds(100 * 365 * 86_400)

    static let shared = DeadlineWatchdog()

    private init() {
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        g_mutex_init(mutex)
        g_cond_init(condition)
    }

    /// Cancels `cancellable` (a `GCancellable`) when `deadline` passes, unless `stopWatching` comes
    /// first with the returned identifier.
    func watch(_ cancellable: GObjectReference, until deadline: OperationDeadline) -> UInt64 {
        let remaining = min(max(deadline.remaining, .zero), Self.horizon).components
        let end =
            g_get_monotonic_time() + gint64(remaining.seconds * 1_000_000 + remaining.attoseconds / 1_000_000_000_000)
        g_mutex_lock(mutex)
        defer { g_mutex_unlock(mutex) }
        nextID += 1
        entries[nextID] = Entry(end: end, cancellable: cancellable)
        if !isRunning {
            isRunning = true
            // The watchdog lives as long as the process, so the thread borrows it unretained.
            let thread = g_thread_new(
                "seckit-deadline",
                { watchdog in
                    Unmanaged<DeadlineWatchdog>.fromOpaque(watchdog!).takeUnretainedValue().run()
                },
                Unmanaged.passUnretained(self).toOpaque()
            )
            g_thread_unref(thread)
        } else if end < wakeTime {
            g_cond_signal(condition)
        }
        return nextID
    }

    /// Forgets the deadline `watch` returned `id` for; its cancellable is never cancelled by it.
    func stopWatching(_ id: UInt64) {
        g_mutex_lock(mutex)
        entries[id] = nil
        g_mutex_unlock(mutex)
    }

    /// The thread's loop: waits for the earliest deadline, then cancels (outside the lock, since
    /// cancelling runs GIO's handlers) every cancellable whose deadline has passed. A wait can end
    /// early or for an operation that has finished since; the loop then just looks again.
    private func run() -> gpointer? {
        g_mutex_lock(mutex)
        while true {
            let now = g_get_monotonic_time()
            let expired = entries.filter { $0.value.end <= now }
            if !expired.isEmpty {
                for id in expired.keys { entries[id] = nil }
                g_mutex_unlock(mutex)
                for entry in expired.values { g_cancellable_cancel(entry.cancellable.cast(to: GCancellable.self)) }
                g_mutex_lock(mutex)
                continue
            }
            if let earliest = entries.values.lazy.map(\.end).min() {
                wakeTime = earliest
                _ = g_cond_wait_until(condition, mutex, earliest)
            } else {
                wakeTime = .max
                g_cond_wait(condition, mutex)
            }
            wakeTime = .min
        }
    }
}
