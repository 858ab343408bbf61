internal import CLibSecret
import SecCrypto
import Synchronization

/// An item as the Secret Service describes it (its D-Bus properties), and its secret when loaded.
struct ServiceItem {
    let path: String
    let pairs: [String: String]
    let label: String?
    let created: Date?
    let modified: Date?
    let isLocked: Bool
    let secret: SecureBytes?
}

/// One operation's reads from the Secret Service, over GIO's D-Bus connection directly
/// (`SearchItems`, `GetSecrets`, the `GetAll` of an item's properties): every call shares the
/// operation's deadline (a `GCancellable` cancelled by a timer). Secrets travel in a `plain`
/// session, opened once per connection (see docs/SecKeychain.md for why that protects as much as
/// libsecret's encrypted one). Writes go through libsecret: `SecretServiceWriter`.
struct SecretServiceSession {
    let deadline: OperationDeadline
    let cancellable: DeadlineCancellable
    private let connection: SharedConnection

    private static let busName = "org.freedesktop.secrets"
    private static let servicePath = "/org/freedesktop/secrets"
    private static let serviceInterface = "org.freedesktop.Secret.Service"
    /// The session bus connection and its `plain` session, kept for the process as libsecret keeps
    /// its own: GIO's bus connection lives only while someone holds it.
    private final class SharedConnection: Sendable {
        let reference: GObjectReference
        let plainSession = Mutex<String?>(nil)

        init(_ reference: GObjectReference) { self.reference = reference }
    }

    private static let shared = Mutex<SharedConnection?>(nil)

    /// Connects to the session bus, or reuses this process's connection while it is open, after
    /// checking that a session bus exists.
    init(deadline: OperationDeadline) throws(KeychainError) {
        try SessionBus.requirePresent()
        self.deadline = deadline
        let cancellable = DeadlineCancellable(deadline)
        self.cancellable = cancellable
        if let shared = Self.shared.withLock({ $0 }), g_dbus_connection_is_closed(OpaquePointer(shared.reference.pointer)) == 0 {
            connection = shared
            return
        }
        let pointer = try withGError(deadline) { g_bus_get_sync(G_BUS_TYPE_SESSION, cancellable.pointer, $0) }
        guard let pointer else { throw .noSessionBus("GIO made no session bus connection") }
        let connection = SharedConnection(GObjectReference(adopting: UnsafeMutableRawPointer(pointer)))
        Self.shared.withLock { $0 = connection }
        self.connection = connection
    }

    private var connectionPointer: OpaquePointer { OpaquePointer(connection.reference.pointer) }

    /// Items whose attributes include all of `pairs`, in every collection, locked ones too; with
    /// the secrets of the unlocked ones when `loadSecrets` (one `GetSecrets` for all).
    func search(_ pairs: [String: String], loadSecrets: Bool) throws(KeychainError) -> [ServiceItem] {
        let paths = try searchPaths(pairs)
        let secrets = loadSecrets && !paths.unlocked.isEmpty ? try self.secrets(at: paths.unlocked) : [:]
        var items: [ServiceItem] = []
        for path in paths.unlocked { items.append(try item(at: path, isLocked: false, secret: secrets[path])) }
        for path in paths.locked { items.append(try item(at: path, isLocked: true, secret: nil)) }
        return items
    }

    /// The object paths of the items whose attributes include all of `pairs`, unlocked and locked
    /// (one `SearchItems` call).
    func searchPaths(_ pairs: [String: String]) throws(KeychainError) -> (unlocked: [String], locked: [String]) {
        let reply = try call(
            Self.servicePath, Self.serviceInterface, "SearchItems", GVariantValue.tuple([GVariantValue.stringDictionary(pairs)]), reply: "(aoao)")
        defer { g_variant_unref(reply) }
        let unlocked = GVariantValue.child(reply, 0), locked = GVariantValue.child(reply, 1)
        defer {
            g_variant_unref(unlocked)
            g_variant_unref(locked)
        }
        return (GVariantValue.strings(of: unlocked), GVariantValue.strings(of: locked))
    }

    /// The item at `path`, described by its properties (one `GetAll` call).
    func item(at path: String, isLocked: Bool, secret: SecureBytes?) throws(KeychainError) -> ServiceItem {
        let properties = try self.properties(of: path, interface: "org.freedesktop.Secret.Item")
        return ServiceItem(
            path: path, pairs: properties.stringPairs("Attributes"), label: properties.string("Label"),
            created: properties.date("Created"), modified: properties.date("Modified"),
            isLocked: isLocked || properties.boolean("Locked") == true, secret: secret)
    }

    /// The secret of the item at `path` (one `GetSecrets` call), or nil when the service gave none.
    func secret(at path: String) throws(KeychainError) -> SecureBytes? {
        try secrets(at: [path])[path]
    }

    /// The secrets of the items at `paths` (one `GetSecrets` call in the `plain` session), by path.
    /// Each secret is copied into wiped-on-release memory and wiped in the reply.
    private func secrets(at paths: [String]) throws(KeychainError) -> [String: SecureBytes] {
        let arguments = GVariantValue.tuple([GVariantValue.objectPaths(paths), g_variant_new_object_path(try plainSession())])
        let reply = try call(Self.servicePath, Self.serviceInterface, "GetSecrets", arguments, reply: "(a{o(oayays)})")
        defer { g_variant_unref(reply) }
        let dictionary = GVariantValue.child(reply, 0)
        defer { g_variant_unref(dictionary) }
        var secrets: [String: SecureBytes] = [:]
        for index in 0..<Int(g_variant_n_children(dictionary)) {
            let entry = GVariantValue.child(dictionary, index)
            let path = GVariantValue.child(entry, 0), secret = GVariantValue.child(entry, 1)
            let value = GVariantValue.child(secret, 2)
            defer { [value, secret, path, entry].forEach { g_variant_unref($0) } }
            secrets[String(cString: g_variant_get_string(path, nil))] = GVariantValue.takeBytes(of: value)
        }
        return secrets
    }

    /// Whether the default collection (where new items go) is locked, read fresh from the service
    /// (`ReadAlias` and the collection's properties).
    func defaultCollectionIsLocked() throws(KeychainError) -> Bool {
        let reply = try call(Self.servicePath, Self.serviceInterface, "ReadAlias", GVariantValue.tuple([g_variant_new_string("default")]), reply: "(o)")
        defer { g_variant_unref(reply) }
        let pathValue = GVariantValue.child(reply, 0)
        defer { g_variant_unref(pathValue) }
        let path = String(cString: g_variant_get_string(pathValue, nil))
        guard path != "/" else { throw .backendFailure("the Secret Service has no default collection") }
        return try properties(of: path, interface: "org.freedesktop.Secret.Collection").boolean("Locked") == true
    }

    /// The properties of the object at `path` (one `GetAll` call).
    private func properties(of path: String, interface: String) throws(KeychainError) -> PropertyDictionary {
        PropertyDictionary(try call(path, "org.freedesktop.DBus.Properties", "GetAll", PropertyDictionary.getAllArguments(interface), reply: "(a{sv})"))
    }

    /// This connection's `plain` session: opened by its first `GetSecrets` (`OpenSession`), then
    /// reused, as libsecret reuses its session.
    private func plainSession() throws(KeychainError) -> String {
        if let path = connection.plainSession.withLock({ $0 }) { return path }
        let arguments = GVariantValue.tuple([g_variant_new_string("plain"), g_variant_new_variant(g_variant_new_string(""))])
        let reply = try call(Self.servicePath, Self.serviceInterface, "OpenSession", arguments, reply: "(vo)")
        defer { g_variant_unref(reply) }
        let pathValue = GVariantValue.child(reply, 1)
        defer { g_variant_unref(pathValue) }
        let path = String(cString: g_variant_get_string(pathValue, nil))
        connection.plainSession.withLock { $0 = path }
        return path
    }

    /// Calls `method` on the Secret Service's object at `path` with `arguments` (a floating tuple
    /// the call consumes); the reply (a new reference) has the type `reply`, or the call fails.
    private func call(_ path: String, _ interface: String, _ method: String, _ arguments: OpaquePointer, reply: String) throws(KeychainError) -> OpaquePointer {
        let replyType = g_variant_type_new(reply)
        defer { g_variant_type_free(replyType) }
        let result = try withGError(deadline) {
            g_dbus_connection_call_sync(
                connectionPointer, Self.busName, path, interface, method, arguments, replyType,
                G_DBUS_CALL_FLAGS_NONE, -1, cancellable.pointer, $0)
        }
        guard let result else { throw .backendFailure("the Secret Service sent no reply to \(method)") }
        return result
    }
}
