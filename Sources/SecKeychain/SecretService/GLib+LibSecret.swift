internal import CLibSecret
import SecCrypto
import SecIO

/// A strong reference to a GObject, released with the Swift value.
final class GObjectReference: @unchecked Sendable {
    // Set once in init; the object itself is thread-safe for the calls SecKeychain makes.
    let pointer: UnsafeMutableRawPointer

    /// Takes over a reference the caller owns (a `transfer full` return value).
    init(adopting pointer: UnsafeMutableRawPointer) {
        self.pointer = pointer
    }

    deinit { glib.g_object_unref(pointer) }

    func cast<T>(to type: T.Type) -> UnsafeMutablePointer<T> { pointer.assumingMemoryBound(to: type) }
}

/// A `GCancellable` cancelled when the operation's deadline passes (by `DeadlineWatchdog`), or when
/// the task of an async variant is cancelled, so that no GIO or libsecret call outlives its timeout or
/// its task: the call ends with `G_IO_ERROR_CANCELLED`, which `deadline.error` names.
final class DeadlineCancellable: Sendable {
    private let reference: GObjectReference
    private let watch: UInt64
    private let cancellation: OperationCancellation?
    private let cancellationHandler: Int?

    init(_ deadline: OperationDeadline) {
        let reference = GObjectReference(adopting: UnsafeMutableRawPointer(glib.g_cancellable_new()!))
        self.reference = reference
        // The watchdog and the handler keep their own references, so a cancel racing with this
        // value's release is harmless.
        watch = DeadlineWatchdog.shared.watch(reference, until: deadline)
        cancellation = deadline.cancellation
        cancellationHandler = deadline.cancellation?.whenCancelled {
            glib.g_cancellable_cancel(reference.cast(to: GCancellable.self))
        }
    }

    deinit {
        DeadlineWatchdog.shared.stopWatching(watch)
        if let cancellationHandler { cancellation?.removeHandler(cancellationHandler) }
    }

    var pointer: UnsafeMutablePointer<GCancellable> { reference.cast(to: GCancellable.self) }
}

/// String-to-string `GHashTable`s, the attribute form libsecret takes and returns.
enum AttributeTable {
    /// A new table owning copies of `pairs`; release it with `g_hash_table_unref`.
    static func make(_ pairs: [String: String]) -> OpaquePointer {
        let table = glib.g_hash_table_new_full(glib.g_str_hash, glib.g_str_equal, glib.g_free, glib.g_free)!
        for (name, value) in pairs {
            _ = glib.g_hash_table_insert(table, glib.g_strdup(name), glib.g_strdup(value))
        }
        return table
    }

    /// Runs `body` with a temporary table of `pairs`.
    static func with<R>(
        _ pairs: [String: String],
        _ body: (OpaquePointer) throws(KeychainError) -> R
    ) throws(KeychainError) -> R {
        let table = make(pairs)
        defer { glib.g_hash_table_unref(table) }
        return try body(table)
    }
}

/// Calls a GIO or libsecret function that reports failure through a `GError**`, and turns the error
/// into a `KeychainError`.
func withGError<R>(
    _ deadline: OperationDeadline,
    _ call: (UnsafeMutablePointer<UnsafeMutablePointer<GError>?>) -> R
) throws(KeychainError) -> R {
    var error: UnsafeMutablePointer<GError>?
    let result = call(&error)
    if let error {
        defer { glib.g_error_free(error) }
        throw KeychainError(error, deadline: deadline)
    }
    return result
}

extension KeychainError {
    /// libsecret's `SECRET_ERROR` (what `secret_error_get_quark` returns), known without loading libsecret.
    private static let libsecretErrorDomain = glib.g_quark_from_static_string("secret-error")

    /// The error a `GError` from GIO or libsecret means to a user.
    init(_ error: UnsafeMutablePointer<GError>, deadline: OperationDeadline) {
        var message = error.pointee.message.map { String(cString: $0) } ?? "unknown error"
        let remoteName = glib.g_dbus_error_get_remote_error(error).map { name in
            defer { glib.g_free(name) }
            return String(cString: name)
        }
        if let remoteName, message.hasPrefix("GDBus.Error:\(remoteName): ") {
            message = String(message.dropFirst("GDBus.Error:\(remoteName): ".count))
        }
        switch (error.pointee.domain, error.pointee.code) {
        case (glib.g_io_error_quark(), Int32(G_IO_ERROR_CANCELLED.rawValue)),
            (glib.g_io_error_quark(), Int32(G_IO_ERROR_TIMED_OUT.rawValue)):
            self = deadline.error
        case (Self.libsecretErrorDomain, Int32(SECRET_ERROR_IS_LOCKED.rawValue)):
            self = .locked
        case (Self.libsecretErrorDomain, Int32(SECRET_ERROR_NO_SUCH_OBJECT.rawValue)):
            self = .notFound
        default:
            switch remoteName {
            case "org.freedesktop.Secret.Error.IsLocked":
                self = .locked
            case "org.freedesktop.Secret.Error.NoSuchObject":
                self = .notFound
            // gnome-keyring answers a call on a missing object with UnknownMethod ("Object does not exist at path …").
            case "org.freedesktop.DBus.Error.UnknownObject":
                self = .notFound
            case "org.freedesktop.DBus.Error.UnknownMethod" where message.hasPrefix("Object does not exist"):
                self = .notFound
            case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner":
                self = .noSecretService(message)
            case nil
            where message.contains("autolaunch") || message.contains("Could not connect")
                || message.contains("session bus"):
                self = .noSessionBus(message)
            default:
                self = .backendFailure(message)
            }
        }
    }
}
