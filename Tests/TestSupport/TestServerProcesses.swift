import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The server processes tests started (`TLSTestServer`, `LighttpdServer`): any still running when
/// the test process exits is killed, so no server outlives a crashed or interrupted run.
enum TestServerProcesses {
    private static let running = Mutex<Set<pid_t>>([])

    private static let installExitHandler: Void = {
        atexit {
            for pid in TestServerProcesses.running.withLock({ $0 }) { kill(pid, SIGKILL) }
        }
    }()

    static func register(_ process: Process) {
        _ = installExitHandler
        running.withLock { _ = $0.insert(process.processIdentifier) }
    }

    static func unregister(_ process: Process) {
        _ = running.withLock { $0.remove(process.processIdentifier) }
    }
}

/// A server could not bind the port it was given: taken between `TLSTestServer.freePort()` and the
/// bind, by a test running alongside; the start is tried again on another port.
struct PortTaken: Error, CustomStringConvertible {
    let description: String
}
