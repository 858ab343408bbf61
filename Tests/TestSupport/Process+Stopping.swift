import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension Process {
    /// Ends a server the tests started: SIGTERM, then SIGKILL when it still runs after `grace`
    /// (a test thread may block SIGTERM, and a child inherits the block); waits for it.
    public func terminateAndWait(grace: TimeInterval = 1) {
        guard isRunning else { return }
        terminate()
        let deadline = Date() + grace
        while isRunning && Date() < deadline { usleep(10_000) }
        if isRunning { kill(processIdentifier, SIGKILL) }
        waitUntilExit()
    }
}
