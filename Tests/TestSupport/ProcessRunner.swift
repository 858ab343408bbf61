import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What a finished child process left behind.
public struct ProcessResult: Sendable {
    /// The exit code, or 128 + the signal number when the process was killed by a signal.
    public var status: Int32
    public var stdout: [UInt8]
    public var stderr: String

    public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    /// Standard output split into lines (without the line breaks).
    public var stdoutLines: [String] {
        stdoutText.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// This result, when the process exited 0; otherwise throws naming `command` with its standard error.
    public func requiringSuccess(of command: @autoclosure () -> String) throws -> ProcessResult {
        guard status == 0 else { throw ProcessRunnerError(description: "\(command()) exited \(status): \(stderr)") }
        return self
    }
}

public struct ProcessRunnerError: Error, CustomStringConvertible {
    public let description: String
}

/// Runs one command with `posix_spawnp`, feeding bytes to its standard input and, optionally, to one
/// more descriptor (for `--key fd:N`), and collecting standard output and standard error.
///
/// `posix_spawn` is used instead of Foundation's `Process` because `Process` closes every descriptor
/// above 2 in the child, so it cannot hand over the extra descriptor that `fd:N` reads.
/// Every descriptor of the test process is close-on-exec or closed in the child, so children started
/// by tests running in parallel never hold each other's pipes open.
public enum ProcessRunner {
    /// Bytes written to a pipe whose read end is descriptor `descriptor` in the child.
    public struct ExtraInput: Sendable {
        public var descriptor: Int32
        public var bytes: [UInt8]

        public init(descriptor: Int32, bytes: [UInt8]) {
            self.descriptor = descriptor
            self.bytes = bytes
        }
    }

    /// Runs `executable` (a path, or a name looked up on PATH) with `arguments`.
    ///
    /// - Parameters:
    ///   - stdin: bytes for standard input; nil connects standard input to /dev/null.
    ///   - environment: added to (or replacing entries of) the test process environment; `LC_ALL=C`
    ///     is always set so the reference tools print their C-locale messages.
    ///   - unsetting: variables of the test process environment the child must not inherit.
    ///   - extraInput: one more descriptor (3 or above), a pipe fed with the given bytes.
    ///   - currentDirectory: the child's working directory.
    public static func run(
        _ executable: String,
        _ arguments: [String],
        stdin: [UInt8]? = nil,
        environment: [String: String] = [:],
        unsetting: Set<String> = [],
        extraInput: ExtraInput? = nil,
        currentDirectory: String? = nil,
        timeout: Duration = .seconds(30)
    ) throws -> ProcessResult {
        _ = ignoreSIGPIPE
        if let extraInput { precondition((3..<lowestParentDescriptor).contains(extraInput.descriptor)) }

        // Pipes, moved above every descriptor the child will see, close-on-exec in the parent.
        let stdoutPipe = try makePipe()
        let stderrPipe = try makePipe()
        let stdinPipe = try stdin.map { _ in try makePipe() }
        let extraPipe = try extraInput.map { _ in try makePipe() }
        let devNull = stdin == nil ? try openHigh("/dev/null", O_RDONLY) : -1
        var parentEnds: [Int32] = [stdoutPipe.read, stderrPipe.read]
        var childEnds: [Int32] = [stdoutPipe.write, stderrPipe.write]
        if let stdinPipe {
            parentEnds.append(stdinPipe.write)
            childEnds.append(stdinPipe.read)
        }
        if let extraPipe {
            parentEnds.append(extraPipe.write)
            childEnds.append(extraPipe.read)
        }
        if devNull >= 0 { childEnds.append(devNull) }
        var childEndsOpen = true
        func closeChildEnds() {
            if childEndsOpen { for end in childEnds { close(end) } }
            childEndsOpen = false
        }
        defer { closeChildEnds() }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdinPipe?.read ?? devNull, 0)
        posix_spawn_file_actions_adddup2(&actions, stdoutPipe.write, 1)
        posix_spawn_file_actions_adddup2(&actions, stderrPipe.write, 2)
        var highestTarget: Int32 = 2
        if let extraInput, let extraPipe {
            posix_spawn_file_actions_adddup2(&actions, extraPipe.read, extraInput.descriptor)
            highestTarget = extraInput.descriptor
        }
        // Whatever the test process inherited without close-on-exec stays out of the child.
        for descriptor in 3..<max(highestTarget, 3) {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
        _ = GNU.addClosefrom(&actions, highestTarget + 1)
        if let currentDirectory { _ = GNU.addChdir(&actions, currentDirectory) }

        // The child starts with default SIGPIPE handling and no blocked signals.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaultSignals = sigset_t()
        var mask = sigset_t()
        sigemptyset(&defaultSignals)
        sigaddset(&defaultSignals, SIGPIPE)
        sigemptyset(&mask)
        posix_spawnattr_setsigdefault(&attributes, &defaultSignals)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        var childEnvironment = ProcessInfo.processInfo.environment.filter { !unsetting.contains($0.key) }
        childEnvironment["LC_ALL"] = "C"
        childEnvironment.merge(environment) { _, new in new }

        var pid: pid_t = 0
        let spawnResult = withCStringArray([executable] + arguments) { argv in
            withCStringArray(childEnvironment.map { "\($0)=\($1)" }) { envp in
                posix_spawnp(&pid, executable, &actions, &attributes, argv, envp)
            }
        }
        closeChildEnds()
        guard spawnResult == 0 else {
            for end in parentEnds { close(end) }
            throw ProcessRunnerError(
                description: "cannot start \(executable): \(String(cString: strerror(spawnResult)))"
            )
        }

        var writers: [(fd: Int32, bytes: [UInt8], offset: Int)] = []
        if let stdin, let stdinPipe { writers.append((stdinPipe.write, stdin, 0)) }
        if let extraInput, let extraPipe { writers.append((extraPipe.write, extraInput.bytes, 0)) }
        let timeout = timeout * timeoutScale
        let pump = pumpPipes(readers: [stdoutPipe.read, stderrPipe.read], writers: writers, deadline: .now + timeout)
        if pump.timedOut { kill(pid, SIGKILL) }

        var rawStatus: Int32 = 0
        while waitpid(pid, &rawStatus, 0) < 0 && errno == EINTR {}
        if pump.timedOut {
            throw ProcessRunnerError(description: "\(executable) \(arguments) did not finish within \(timeout); killed")
        }
        let signal = rawStatus & 0x7f
        let status = signal == 0 ? (rawStatus >> 8) & 0xff : 128 + signal
        return ProcessResult(
            status: status,
            stdout: pump.output[0],
            stderr: String(decoding: pump.output[1], as: UTF8.self)
        )
    }

    // MARK: - Plumbing

    /// Parent-side copies of descriptors are moved to this number or above, out of the way of the
    /// child's targets (0, 1, 2 and the extra descriptor).
    private static let lowestParentDescriptor: Int32 = 64

    private static let ignoreSIGPIPE: Void = {
        // A child that exits without reading its input must not kill the test process.
        signal(SIGPIPE, SIG_IGN)
    }()

    private static func makePipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        guard GNU.pipe2(&fds, O_CLOEXEC) == 0 else { throw systemError("pipe2") }
        defer {
            close(fds[0])
            close(fds[1])
        }
        return (try moveHigh(fds[0]), try moveHigh(fds[1]))
    }

    private static func openHigh(_ path: String, _ flags: Int32) throws -> Int32 {
        let fd = open(path, flags | O_CLOEXEC)
        guard fd >= 0 else { throw systemError("open \(path)") }
        defer { close(fd) }
        return try moveHigh(fd)
    }

    /// A close-on-exec duplicate of `fd` numbered `lowestParentDescriptor` or above.
    private static func moveHigh(_ fd: Int32) throws -> Int32 {
        let high = fcntl(fd, F_DUPFD_CLOEXEC, lowestParentDescriptor)
        guard high >= 0 else { throw systemError("fcntl(F_DUPFD_CLOEXEC)") }
        return high
    }

    private static func systemError(_ what: String) -> ProcessRunnerError {
        ProcessRunnerError(description: "\(what): \(String(cString: strerror(errno)))")
    }

    /// Writes every writer's bytes and reads every reader to its end, whichever is ready, with poll(2).
    /// Closes all the descriptors it is given.
    private static func pumpPipes(
        readers: [Int32],
        writers initialWriters: [(fd: Int32, bytes: [UInt8], offset: Int)],
        deadline: ContinuousClock.Instant
    ) -> (output: [[UInt8]], timedOut: Bool) {
        var output = Array(repeating: [UInt8](), count: readers.count)
        var openReaders = Array(readers.indices)
        var writers = initialWriters
        for writer in writers { _ = fcntl(writer.fd, F_SETFL, fcntl(writer.fd, F_GETFL) | O_NONBLOCK) }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        defer {
            for index in openReaders { close(readers[index]) }
            for writer in writers { close(writer.fd) }
        }

        while !openReaders.isEmpty || !writers.isEmpty {
            // Writers with nothing (left) to write are closed, so the child sees end of file.
            writers.removeAll { writer in
                guard writer.offset >= writer.bytes.count else { return false }
                close(writer.fd)
                return true
            }
            var pollSet = openReaders.map { pollfd(fd: readers[$0], events: Int16(POLLIN), revents: 0) }
            pollSet += writers.map { pollfd(fd: $0.fd, events: Int16(POLLOUT), revents: 0) }
            if pollSet.isEmpty { break }
            let remaining = deadline - .now
            if remaining <= .zero { return (output, true) }
            let milliseconds = Int32(
                clamping: remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000
                    + 1
            )
            let ready = poll(&pollSet, nfds_t(pollSet.count), milliseconds)
            if ready < 0 && errno != EINTR { break }
            if ready <= 0 { continue }

            let readerCount = openReaders.count
            var finishedReaders: Set<Int> = []
            for (slot, readerIndex) in openReaders.enumerated() where pollSet[slot].revents != 0 {
                let count = read(readers[readerIndex], &buffer, buffer.count)
                if count > 0 {
                    output[readerIndex] += buffer[0..<count]
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    close(readers[readerIndex])
                    finishedReaders.insert(readerIndex)
                }
            }
            openReaders.removeAll { finishedReaders.contains($0) }

            var failedWriters: Set<Int32> = []
            for (slot, writerIndex) in writers.indices.enumerated() where pollSet[readerCount + slot].revents != 0 {
                let writer = writers[writerIndex]
                let count = writer.bytes[writer.offset...].withUnsafeBytes {
                    write(writer.fd, $0.baseAddress, $0.count)
                }
                if count >= 0 {
                    writers[writerIndex].offset += count
                } else if errno != EINTR && errno != EAGAIN {
                    // EPIPE: the child closed its end or exited without reading everything.
                    close(writer.fd)
                    failedWriters.insert(writer.fd)
                }
            }
            writers.removeAll { failedWriters.contains($0.fd) }
        }
        return (output, false)
    }

    /// How much longer a child (or a connection) may take than the caller allows:
    /// `SECKIT_TEST_TIMEOUT_SCALE` (tools/test sets 10 for the AddressSanitizer run, whose instrumented
    /// debug builds are that much slower).
    public static let timeoutScale =
        ProcessInfo.processInfo.environment["SECKIT_TEST_TIMEOUT_SCALE"].flatMap(Int.init)
        .map { max($0, 1) } ?? 1

    /// glibc extensions (2.34+) that the Glibc module does not import without _GNU_SOURCE.
    private enum GNU {
        typealias AddClosefrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        typealias AddChdir =
            @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
        typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32

        nonisolated(unsafe) static let addClosefrom = lookup(
            "posix_spawn_file_actions_addclosefrom_np",
            as: AddClosefrom.self
        )
        nonisolated(unsafe) static let addChdir = lookup("posix_spawn_file_actions_addchdir_np", as: AddChdir.self)
        nonisolated(unsafe) static let pipe2 = lookup("pipe2", as: Pipe2.self)

        private static func lookup<F>(_ name: String, as type: F.Type) -> F {
            guard let symbol = dlsym(nil, name) else {
                fatalError("\(name) not found in libc (glibc 2.34 or later is needed)")
            }
            return unsafeBitCast(symbol, to: type)
        }
    }

    /// Calls `body` with a NULL-terminated array of C strings.
    private static func withCStringArray<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
        let pointers = strings.map { strdup($0) } + [nil]
        defer { for pointer in pointers { free(pointer) } }
        return body(pointers)
    }
}

extension ProcessRunner {
    /// Runs `body` on a new thread and waits for it without holding a cooperative thread: a process
    /// waited for on the pool can starve the in-process server it talks to (two threads on two cores).
    ///
    /// - Parameter body: the blocking work, such as `ProcessRunner.run`.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws.
    public static func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }
}
