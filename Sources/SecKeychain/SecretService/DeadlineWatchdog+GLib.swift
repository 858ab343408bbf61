internal import CLibSecret

#if canImport(Glibc)
import Glibc
#endif

/// Cancels `GCancellable`s when their deadlines pass: one GLib thread for the process, started by the
/// first `watch`, that sleeps until the earliest deadline it holds (a condition variable's timed wait
/// on the monotonic clock, the one `g_get_monotonic_time` reads). An operation costs a lock, and a
/// wake-up of the thread only when its deadline comes before the one the thread sleeps until.
///
/// The lock and condition are POSIX ones rather than GLib's: `GMutex` is built on futexes that
/// ThreadSanitizer cannot see, so with it every access below looked like a race.
final class DeadlineWatchdog: @unchecked Sendable {
    // Everything below `condition` is only used with `mutex` held.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var entries: [UInt64: Entry] = [:]
    private var nextID: UInt64 = 0
    private var isRunning = false
    /// When the thread's wait ends: `.max` while it waits with no deadline (or is not started),
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
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    /// Cancels `cancellable` (a `GCancellable`) when `deadline` passes, unless `stopWatching` comes
    /// first with the returned identifier.
    func watch(_ cancellable: GObjectReference, until deadline: OperationDeadline) -> UInt64 {
        let remaining = min(max(deadline.remaining, .zero), Self.horizon).components
        let end =
            glib.g_get_monotonic_time()
            + gint64(remaining.seconds * 1_000_000 + remaining.attoseconds / 1_000_000_000_000)
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        nextID += 1
        entries[nextID] = Entry(end: end, cancellable: cancellable)
        if !isRunning {
            isRunning = true
            wakeTime = .min  // awake from its start: it looks at every entry before its first wait
            // The watchdog lives as long as the process, so the thread borrows it unretained.
            let thread = glib.g_thread_new(
                "seckit-deadline",
                { watchdog in
                    Unmanaged<DeadlineWatchdog>.fromOpaque(watchdog!).takeUnretainedValue().run()
                },
                Unmanaged.passUnretained(self).toOpaque()
            )
            glib.g_thread_unref(thread)
        } else if end < wakeTime {
            pthread_cond_signal(condition)
        }
        return nextID
    }

    /// True while the thread waits (for a deadline, or for a first one), false while it is awake
    /// looking at its entries: what a test needs to know before it adds an earlier deadline.
    var isAsleep: Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return isRunning && wakeTime != .min
    }

    /// Forgets the deadline `watch` returned `id` for; its cancellable is never cancelled by it.
    func stopWatching(_ id: UInt64) {
        pthread_mutex_lock(mutex)
        entries[id] = nil
        pthread_mutex_unlock(mutex)
    }

    /// The thread's loop: waits for the earliest deadline, then cancels (outside the lock, since
    /// cancelling runs GIO's handlers) every cancellable whose deadline has passed. A wait can end
    /// early or for an operation that has finished since; the loop then just looks again.
    private func run() -> gpointer? {
        pthread_mutex_lock(mutex)
        while true {
            let now = glib.g_get_monotonic_time()
            let expired = entries.filter { $0.value.end <= now }
            if !expired.isEmpty {
                for id in expired.keys { entries[id] = nil }
                pthread_mutex_unlock(mutex)
                for entry in expired.values { glib.g_cancellable_cancel(entry.cancellable.cast(to: GCancellable.self)) }
                pthread_mutex_lock(mutex)
                continue
            }
            if let earliest = entries.values.lazy.map(\.end).min() {
                wakeTime = earliest
                var until = timespec(tv_sec: Int(earliest / 1_000_000), tv_nsec: Int(earliest % 1_000_000) * 1000)
                _ = pthread_cond_timedwait(condition, mutex, &until)
            } else {
                wakeTime = .max
                pthread_cond_wait(condition, mutex)
            }
            wakeTime = .min
        }
    }
}
