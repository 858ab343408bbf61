import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A plain TCP connection to a server on 127.0.0.1 that sends what a test tells it and otherwise
/// says nothing: a half-open handshake or a silent client, to see whether the server closes it.
public final class RawTCPConnection {
    public let descriptor: Int32

    public init(port: Int) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard fd >= 0, connected else {
            if fd >= 0 { close(fd) }
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        descriptor = fd
    }

    /// Sends `bytes` whole.
    public func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let written = bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, 0) }
            guard written > 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            sent += written
        }
    }

    /// True when the server closes the connection (end of stream or reset) within `limit`,
    /// discarding anything it sends before; false when it is still open then.
    public func closedByServer(within limit: Duration) -> Bool {
        let deadline = ContinuousClock.now + limit
        var buffer = [UInt8](repeating: 0, count: 4096)
        while ContinuousClock.now < deadline {
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 50) > 0 else { continue }
            let received = recv(descriptor, &buffer, buffer.count, 0)
            if received == 0 || (received < 0 && errno == ECONNRESET) { return true }
        }
        return false
    }

    deinit { close(descriptor) }
}
