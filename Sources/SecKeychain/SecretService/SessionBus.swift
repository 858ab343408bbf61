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
    /// (private to the user) when that folder exists, else in the user's own cache folder,
    /// `$XDG_CACHE_HOME/seckit` or `~/.cache/seckit` (created with mode 0700 when the lock is taken).
    /// Never a predictable name in `/tmp`, which another local user could create first.
    static var writerLockPath: String {
        var info = stat()
        if let runtime = environment("XDG_RUNTIME_DIR"), !runtime.isEmpty, stat(runtime, &info) == 0,
            info.st_mode & S_IFMT == S_IFDIR
        {
            return "\(runtime)/seckit-keychain.lock"
        }
        if let cache = environment("XDG_CACHE_HOME"), cache.hasPrefix("/") { return "\(cache)/seckit/keychain.lock" }
        return "\(homeDirectory)/.cache/seckit/keychain.lock"
    }

    /// `$HOME`, else the home folder in the user database.
    private static var homeDirectory: String {
        if let home = environment("HOME"), home.hasPrefix("/") { return home }
        return getpwuid(getuid()).flatMap { $0.pointee.pw_dir.map { String(cString: $0) } } ?? "/"
    }

    private static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
