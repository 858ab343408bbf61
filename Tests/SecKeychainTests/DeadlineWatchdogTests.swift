import CLibSecret
import Testing

@testable import SecKeychain

#if canImport(Glibc)
import Glibc
#endif

/// The deadlines that bound every Secret Service call: one watchdog thread cancels each operation's
/// `GCancellable` when its own deadline passes, whatever order the operations came in. (The end to
/// end case, a stopped daemon giving `timeout`, is in seccliTests' CredErrorTests.)
@Suite struct DeadlineWatchdogTests {
    /// What a `SecretServiceSession` does first: GIO, which the cancellables and the watchdog call.
    init() throws { try glibLibrary.load() }

    @Test("an earlier deadline that comes after a later one is still kept; a finished operation is never cancelled")
    func deadlinesInAnyOrder() throws {
        let late = DeadlineCancellable(OperationDeadline(.seconds(60)))
        // The watchdog has gone to sleep until the 60 s deadline (or an earlier one of a parallel
        // test), so that the next, earlier deadline must wake it.
        let asleep = ContinuousClock.now + .seconds(10)
        while !DeadlineWatchdog.shared.isAsleep && ContinuousClock.now < asleep { usleep(1_000) }
        #expect(DeadlineWatchdog.shared.isAsleep)
        let early = DeadlineCancellable(OperationDeadline(.milliseconds(100)))
        var finished: DeadlineCancellable? = DeadlineCancellable(OperationDeadline(.milliseconds(500)))
        let finishedPointer = try #require(finished?.pointer)
        g_object_ref(finishedPointer)
        defer { g_object_unref(finishedPointer) }
        finished = nil  // released before its deadline, as when the operation returned in time

        #expect(waitUntilCancelled(early, atMost: .seconds(10)), "the 100 ms deadline passed unnoticed")
        #expect(!isCancelled(late.pointer), "a 60 s deadline fired with the 100 ms one")
        usleep(1_000_000)  // well past the released operation's 500 ms
        #expect(!isCancelled(finishedPointer), "a released operation's cancellable was cancelled")
    }

    @Test("many operations at once: each is cancelled at its own deadline, not before")
    func manyDeadlines() {
        let cancellables = (1...20).map {
            DeadlineCancellable(OperationDeadline(.milliseconds($0 % 2 == 0 ? 30 : 60_000)))
        }
        for (index, cancellable) in cancellables.enumerated() where (index + 1) % 2 == 0 {
            #expect(waitUntilCancelled(cancellable, atMost: .seconds(10)), "operation \(index + 1)")
        }
        for (index, cancellable) in cancellables.enumerated() where (index + 1) % 2 == 1 {
            #expect(!isCancelled(cancellable.pointer), "operation \(index + 1) has a 60 s deadline")
        }
    }

    @Test(
        "a timeout as long as Duration allows (a caller's \"wait forever\") neither traps nor fires, and later deadlines still do"
    )
    func endlessTimeout() {
        let endless = DeadlineCancellable(OperationDeadline(.seconds(Int64.max)))
        let soon = DeadlineCancellable(OperationDeadline(.milliseconds(20)))
        #expect(waitUntilCancelled(soon, atMost: .seconds(10)), "the watchdog stopped after the endless deadline")
        #expect(!isCancelled(endless.pointer))
    }

    private func isCancelled(_ pointer: UnsafeMutablePointer<GCancellable>) -> Bool {
        g_cancellable_is_cancelled(pointer) != 0
    }

    /// Whether `cancellable` is cancelled within `limit` (polled every 10 ms; a bound against
    /// hanging, not a measurement).
    private func waitUntilCancelled(_ cancellable: DeadlineCancellable, atMost limit: Duration) -> Bool {
        let end = ContinuousClock.now + limit
        while ContinuousClock.now < end {
            if isCancelled(cancellable.pointer) { return true }
            usleep(10_000)
        }
        return isCancelled(cancellable.pointer)
    }
}
