import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A server (or any background process) a test started, and the tests' one way to stop one:
/// `stop()` sends SIGTERM, then SIGKILL when the process still runs after a grace period (a test
/// thread may block SIGTERM, and a child inherits the block), and waits for it; once, however often
/// it is called, and on release. A process still running when the test process exits is killed
/// then, so none outlives a crashed or interrupted run.
public final class ServerProcess: @unchecked Sendable {
    public let process: Process
    private let lock = NSLock()
    private var stopped = false

    /// Runs `process`, which the caller has set up.
    public init(running process: Process) throws {
        try process.run()
        self.process = process
        _ = Self.installExitHandler
        Self.running.withLock { _ = $0.insert(process.processIdentifier) }
    }

    public var isRunning: Bool { process.isRunning }

    /// Stops the process and waits for it. Idempotent.
    public func stop(grace: Duration = .seconds(1)) {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        if process.isRunning {
            process.terminate()
            let deadline = ContinuousClock.now + grace
            while process.isRunning && ContinuousClock.now < deadline { usleep(10_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
        _ = Self.running.withLock { $0.remove(process.processIdentifier) }
    }

    deinit { stop() }

    private static let running = Mutex<Set<pid_t>>([])

    private static let installExitHandler: Void = {
        atexit {
            for pid in ServerProcess.running.withLock({ $0 }) { kill(pid, SIGKILL) }
        }
    }()
}

/// A server could not bind the port it was given: taken between `TLSTestServer.freePort()` and the
/// bind, by a test running alongside; the start is tried again on another port.
struct PortTaken: Error, CustomStringConvertible {
    let description: String
}
