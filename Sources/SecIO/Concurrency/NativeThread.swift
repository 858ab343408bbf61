#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A POSIX thread of SecKit's own, outside Swift's cooperative pool: for blocking work
/// (`BlockingThread`) and for seccli's parallel file hashing, the one place where one is started.
package enum NativeThread {
    /// No thread could be started (a process or memory limit).
    package struct StartFailure: Error {
        /// The system's reason (`strerror`).
        package let reason: String
    }

    /// Starts a thread running `body` and returns it, to join or detach.
    ///
    /// - Parameter body: what the thread runs; it ends when `body` returns.
    /// - Returns: the running thread.
    /// - Throws: `StartFailure` when the system refuses a thread.
    package static func start(_ body: @escaping @Sendable () -> Void) throws(StartFailure) -> pthread_t {
        // A C thread function cannot capture context, so `body` travels as the argument, retained
        // here and released by the thread.
        final class Body {
            let run: @Sendable () -> Void
            init(_ run: @escaping @Sendable () -> Void) { self.run = run }
        }
        let argument = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(
            &thread,
            nil,
            { argument in
                Unmanaged<Body>.fromOpaque(argument!).takeRetainedValue().run()
                return nil
            },
            argument
        )
        guard status == 0 else {
            Unmanaged<Body>.fromOpaque(argument).release()
            throw StartFailure(reason: String(cString: strerror(status)))
        }
        return thread
    }
}
