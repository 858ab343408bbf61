import SecIO

#if canImport(Glibc)
import Glibc
#endif

/// A non-blocking TCP socket connected with a deadline (`getaddrinfo`, then each address in turn).
package struct TCPSocket {
    let descriptor: Int32
    /// The address connected to, printed (`127.0.0.1`, `::1`).
    let address: String

    /// Connects to `host` (a name, IPv4 or IPv6 address) on `port` before `deadline`. Name resolution
    /// itself is not interruptible; the time it takes counts against the deadline.
    static func connect(host: String, port: Int, deadline: ContinuousClock.Instant) throws(TLSError) -> TCPSocket {
        guard (1...65535).contains(port) else { throw .invalidConfiguration("port \(port) is out of range") }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_protocol = Int32(IPPROTO_TCP)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(HostPattern.normalize(host), String(port), &hints, &list)
        guard status == 0, let list else {
            throw .hostNotFound(host: host, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        var failures: [String] = []
        var entry: UnsafeMutablePointer<addrinfo>? = list
        while let info = entry?.pointee {
            entry = info.ai_next
            let address = Self.text(info.ai_addr, info.ai_addrlen)
            if ContinuousClock.now >= deadline { throw .timedOut(.connect) }
            do {
                return TCPSocket(descriptor: try Self.connect(info, deadline: deadline), address: address)
            } catch .connectionFailed(let reason) {
                failures.append("\(address) port \(port): \(reason)")
            }
        }
        throw .connectionFailed(failures.isEmpty ? "\(host): no address" : failures.joined(separator: "; "))
    }

    private static func connect(_ info: addrinfo, deadline: ContinuousClock.Instant) throws(TLSError) -> Int32 {
        let fd = socket(
            info.ai_family,
            info.ai_socktype | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue),
            info.ai_protocol
        )
        guard fd >= 0 else { throw .connectionFailed(String(cString: strerror(errno))) }
        var connected = false
        defer { if !connected { close(fd) } }
        if Glibc.connect(fd, info.ai_addr, info.ai_addrlen) != 0 {
            guard errno == EINPROGRESS || errno == EINTR else {
                throw .connectionFailed(String(cString: strerror(errno)))
            }
            guard try wait(fd, for: Int16(POLLOUT), until: deadline) else { throw .timedOut(.connect) }
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else {
                throw .connectionFailed(String(cString: strerror(errno)))
            }
            guard error == 0 else { throw .connectionFailed(String(cString: strerror(error))) }
        }
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        connected = true
        return fd
    }

    /// Waits until `fd` is ready for `events` (`POLLIN`, `POLLOUT`); false when `deadline` passed first.
    /// Errors and hang-ups count as ready: the next read or write reports them. Throws `cancelled`
    /// as soon as the async task running this operation is cancelled (`OperationCancellation.current`,
    /// whose descriptor the same `poll` watches).
    static func wait(_ fd: Int32, for events: Int16, until deadline: ContinuousClock.Instant) throws(TLSError) -> Bool {
        let cancellation = OperationCancellation.current
        while true {
            if cancellation?.isCancelled == true { throw .cancelled }
            let remaining = deadline - .now
            if remaining <= .zero { return false }
            let (seconds, attoseconds) = remaining.components
            let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
            var entries = [
                pollfd(fd: fd, events: events, revents: 0),
                pollfd(fd: cancellation?.descriptor ?? -1, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&entries, 2, milliseconds)
            if entries[1].revents != 0 { throw .cancelled }
            if ready > 0 { return true }
            if ready < 0 && errno != EINTR { return true }
        }
    }

    /// True when `text` is an IPv4 or IPv6 address (no SNI is sent for those; they are verified as IPs).
    package static func isIPAddress(_ text: String) -> Bool {
        var buffer = in6_addr()
        return inet_pton(AF_INET, text, &buffer) == 1 || inet_pton(AF_INET6, text, &buffer) == 1
    }

    private static func text(_ address: UnsafeMutablePointer<sockaddr>?, _ length: socklen_t) -> String {
        guard let address else { return "?" }
        var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        guard getnameinfo(address, length, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST) == 0 else {
            return "?"
        }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension TCPSocket {
    /// Runs `body` (which may write to a socket the peer has closed) with SIGPIPE blocked on this
    /// thread, and discards a SIGPIPE it raised: the write fails with EPIPE instead of killing the
    /// process, without changing the process-wide signal disposition.
    static func withSIGPIPEBlocked<R>(_ body: () throws(TLSError) -> R) throws(TLSError) -> R {
        var pipeOnly = sigset_t()
        var previous = sigset_t()
        var pendingBefore = sigset_t()
        sigemptyset(&pipeOnly)
        sigaddset(&pipeOnly, SIGPIPE)
        sigpending(&pendingBefore)
        let alreadyPending = sigismember(&pendingBefore, SIGPIPE) == 1
        pthread_sigmask(SIG_BLOCK, &pipeOnly, &previous)
        defer {
            var pending = sigset_t()
            sigpending(&pending)
            if !alreadyPending && sigismember(&pending, SIGPIPE) == 1 {
                var zero = timespec(tv_sec: 0, tv_nsec: 0)
                while sigtimedwait(&pipeOnly, nil, &zero) < 0 && errno == EINTR {}
            }
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
        return try body()
    }
}
