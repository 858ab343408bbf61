import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A TCP socket listening on 127.0.0.1 that never accepts: connections complete in the kernel and
/// then hear nothing.
public final class SilentListener {
    public let descriptor: Int32
    public let port: Int

    public init() throws {
        let fd = socket(
            AF_INET,
            Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue),
            0
        )
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard fd >= 0, ok, listen(fd, 8) == 0 else {
            if fd >= 0 { close(fd) }
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        descriptor = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// True when a client connected (the connection is accepted and closed).
    public func hasPendingConnection() -> Bool {
        let client = accept(descriptor, nil, nil)
        guard client >= 0 else { return false }
        close(client)
        return true
    }

    deinit { close(descriptor) }
}
