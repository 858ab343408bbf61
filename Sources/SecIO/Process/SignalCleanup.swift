import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Temporary files that must not outlive the process: when SIGINT, SIGTERM, SIGHUP or SIGPIPE
/// stops it, the files registered here are removed before the signal takes its default
/// effect again, so the exit status stays the conventional 128 + N. A signal the process ignores
/// (`nohup`, `trap '' INT`) stays ignored, and one that already has a handler keeps it: SIGQUIT
/// is the Swift runtime's, which prints a backtrace and lets the program go on. SIGKILL cannot be
/// caught: only that (or a power cut) leaves a temporary file behind.
///
/// The handler is async-signal-safe: the paths are C strings made before they are published in a
/// fixed table of atomics, and the handler only takes them out of the table and calls `unlink`.
package enum SignalCleanup {
    /// A registered path; give it back to `unregister` once the file is renamed or removed.
    package struct Registration {
        fileprivate let slot: Int
        fileprivate let path: UnsafeMutablePointer<CChar>
    }

    /// The signals whose default action ends the process and that people or programs send to stop
    /// one (SIGPIPE: a pipe the program also writes to was closed while a file was being written).
    private static let signals = [SIGINT, SIGTERM, SIGHUP, SIGPIPE]

    /// Addresses of the registered C strings, 0 for a free slot. More temporary files at once than
    /// this are written unprotected (seccli has one at a time).
    private static let slots = InlineArray<64, Atomic<UInt>> { _ in Atomic(0) }

    /// How many temporary files at once the handler can remove (docs/SecIO.md says it).
    static var capacity: Int { slots.count }

    private static let handlersInstalled: Void = {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signal in
            SignalCleanup.removeRegisteredFiles()
            Glibc.signal(signal, SIG_DFL)
            raise(signal)  // delivered, now fatal, when the handler returns
        }
        action.sa_mask = blockedSet()
        for signal in signals {
            var current = sigaction()
            guard sigaction(signal, nil, &current) == 0,
                unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == 0  // SIG_DFL
            else { continue }
            sigaction(signal, &action, nil)
        }
    }()

    /// Runs `body` with the handled signals held back on this thread, so that a file it creates is
    /// registered (or gone again) before a signal can stop the process.
    package static func withSignalsBlocked<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        var blocked = blockedSet()
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        return try body()
    }

    /// Has `path` removed if a handled signal stops the process; nil when every slot is taken.
    package static func register(_ path: String) -> Registration? {
        _ = handlersInstalled
        guard let copy = strdup(path) else { return nil }
        let bits = UInt(bitPattern: copy)
        for slot in slots.indices {
            let (taken, _) = slots[slot].compareExchange(expected: 0, desired: bits, ordering: .sequentiallyConsistent)
            if taken { return Registration(slot: slot, path: copy) }
        }
        free(copy)
        return nil
    }

    /// Forgets a path whose file was renamed into place or removed.
    package static func unregister(_ registration: Registration) {
        let bits = UInt(bitPattern: registration.path)
        // A handler that already took the path is using it: the process is ending, leave it be.
        let (cleared, _) = slots[registration.slot].compareExchange(
            expected: bits,
            desired: 0,
            ordering: .sequentiallyConsistent
        )
        if cleared { free(registration.path) }
    }

    /// Removes every registered file; async-signal-safe.
    private static func removeRegisteredFiles() {
        for slot in slots.indices {
            let bits = slots[slot].exchange(0, ordering: .sequentiallyConsistent)
            if let path = UnsafePointer<CChar>(bitPattern: bits) { unlink(path) }
        }
    }

    private static func blockedSet() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        return set
    }
}
