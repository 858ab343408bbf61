#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where the D-Bus session bus is, checked before calling into GIO (which would otherwise try to
/// autolaunch a bus, or block).
enum SessionBus {
    /// Throws `noSessionBus` when neither `DBUS_SESSION_BUS_ADDRESS` nor `$XDG_RUNTIME_DIR/bus` is there.
    static func requirePresent() throws(KeychainError) {
        if let address = environment("DBUS_SESSION_BUS_ADDRESS"), !address.isEmpty { return }
        guard let runtime = environment("XDG_RUNTIME_DIR"), !runtime.isEmpty else {
            throw .noSessionBus("DBUS_SESSION_BUS_ADDRESS and XDG_RUNTIME_DIR are not set")
        }
        var info = stat()
        guard stat("\(runtime)/bus", &info) == 0, info.st_mode & S_IFMT == S_IFSOCK else {
            throw .noSessionBus("DBUS_SESSION_BUS_ADDRESS is not set and \(runtime)/bus does not exist")
        }
    }

    /// The lock file serialising this user's writers of the Secret Service: in `$XDG_RUNTIME_DIR`
    /// (private to the user) when that folder exists, else in `/tmp` named by the user id.
    static var writerLockPath: String {
        var info = stat()
        if let runtime = environment("XDG_RUNTIME_DIR"), !runtime.isEmpty, stat(runtime, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            return "\(runtime)/seckit-keychain.lock"
        }
        return "/tmp/seckit-keychain-\(getuid()).lock"
    }

    private static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
