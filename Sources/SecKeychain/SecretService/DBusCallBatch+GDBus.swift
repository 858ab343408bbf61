internal import CLibSecret

/// A D-Bus method call: the object, interface and method, its arguments (a floating GVariant
/// tuple the call consumes) and the GVariant type its reply must have.
struct DBusMethodCall {
    let path: String
    let interface: String
    let method: String
    let arguments: OpaquePointer
    let replyType: String
}

/// The reply of a D-Bus method call: a GVariant tuple, released with this value.
final class DBusReply {
    private let tuple: OpaquePointer

    init(adopting tuple: OpaquePointer) { self.tuple = tuple }

    deinit { glib.g_variant_unref(tuple) }

    /// The tuple's child `index` as a new reference (release it with `g_variant_unref`).
    func child(_ index: Int) -> OpaquePointer { GVariantValue.child(tuple, index) }
}

/// Method calls sent together on one connection and awaited together, so that independent calls
/// cost one round trip to the service instead of one each. The replies are dispatched in a private
/// `GMainContext` pushed as the calling thread's default: the calls neither need nor disturb an
/// application's main loop. A cancelled `cancellable` ends every call that is still waiting.
enum DBusCallBatch {
    /// Sends every call in `calls` to `destination` at once, runs `meanwhile` (work that the replies
    /// need not wait for), and waits for all their replies; the results are in the order of `calls`.
    static func callAll(
        _ calls: [DBusMethodCall],
        destination: String,
        on connection: OpaquePointer,
        cancellable: DeadlineCancellable,
        deadline: OperationDeadline,
        meanwhile: () -> Void = {}
    ) -> [Result<DBusReply, KeychainError>] {
        let context = glib.g_main_context_new()
        defer { glib.g_main_context_unref(context) }
        glib.g_main_context_push_thread_default(context)
        defer { glib.g_main_context_pop_thread_default(context) }
        let replies = Replies(count: calls.count, deadline: deadline)
        for (index, call) in calls.enumerated() {
            let replyType = glib.g_variant_type_new(call.replyType)
            defer { glib.g_variant_type_free(replyType) }
            let slot = Unmanaged.passRetained(Slot(replies, index)).toOpaque()
            glib.g_dbus_connection_call(
                connection,
                destination,
                call.path,
                call.interface,
                call.method,
                call.arguments,
                replyType,
                G_DBUS_CALL_FLAGS_NONE,
                -1,
                cancellable.pointer,
                { source, result, slot in Unmanaged<Slot>.fromOpaque(slot!).takeRetainedValue().finish(source, result)
                },
                slot
            )
        }
        meanwhile()
        // GIO calls every callback exactly once, in this context: with the reply, or an error
        // (cancelled, timed out, connection closed).
        while replies.pending > 0 { _ = glib.g_main_context_iteration(context, 1) }
        return replies.results.map { $0! }
    }

    /// The results of one batch as they arrive.
    private final class Replies {
        var results: [Result<DBusReply, KeychainError>?]
        var pending: Int
        let deadline: OperationDeadline

        init(count: Int, deadline: OperationDeadline) {
            results = Array(repeating: nil, count: count)
            pending = count
            self.deadline = deadline
        }
    }

    /// Where one call's reply goes: the callback's `user_data`, retained until the reply came.
    private final class Slot {
        let replies: Replies
        let index: Int

        init(_ replies: Replies, _ index: Int) {
            self.replies = replies
            self.index = index
        }

        func finish(_ connection: UnsafeMutablePointer<GObject>?, _ result: OpaquePointer?) {
            replies.results[index] = Result { () throws(KeychainError) in
                let tuple = try withGError(replies.deadline) {
                    glib.g_dbus_connection_call_finish(OpaquePointer(connection), result, $0)
                }
                guard let tuple else { throw .backendFailure("the Secret Service sent an empty reply") }
                return DBusReply(adopting: tuple)
            }
            replies.pending -= 1
        }
    }
}
