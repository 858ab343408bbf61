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

/// The object paths a `SearchItems` call found: the unlocked items', and the locked ones'.
struct ItemPaths {
    let unlocked: [String]
    let locked: [String]

    /// The path of the only item found, when that one is unlocked.
    var onlyUnlocked: String? { locked.isEmpty && unlocked.count == 1 ? unlocked[0] : nil }
}

/// One operation's reads from the Secret Service, over GIO's D-Bus connection directly
/// (`SearchItems`, `GetSecrets`, the `GetAll` of an item's properties): every call shares the
/// operation's deadline (a `GCancellable` that `DeadlineWatchdog` cancels). Secrets travel in a `plain`
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
        if let shared = Self.shared.withLock({ $0 }),
            g_dbus_connection_is_closed(OpaquePointer(shared.reference.pointer)) == 0
        {
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

    /// The object paths of the items whose attributes include all of the pairs of each of
    /// `searches` (one `SearchItems` each), in the order of `searches`. All are sent at once, with
    /// the `OpenSession` of the `plain` session when `preparingSecrets` and there is none yet.
    func searchPaths(_ searches: [[String: String]], preparingSecrets: Bool) throws(KeychainError) -> [ItemPaths] {
        var calls = searches.map { pairs in
            DBusMethodCall(
                path: Self.servicePath,
                interface: Self.serviceInterface,
                method: "SearchItems",
                arguments: GVariantValue.tuple([GVariantValue.stringDictionary(pairs)]),
                replyType: "(aoao)"
            )
        }
        let opensSession = preparingSecrets && connection.plainSession.withLock({ $0 }) == nil
        if opensSession { calls.append(Self.openSessionCall) }
        var replies = callAll(calls)
        // A session that failed to open is opened again by the first `GetSecrets`, which reports the failure.
        if opensSession, case .success(let reply) = replies.removeLast() { keepPlainSession(reply) }
        return try replies.map { result throws(KeychainError) in
            let reply = try result.get()
            let unlocked = reply.child(0)
            let locked = reply.child(1)
            defer {
                g_variant_unref(unlocked)
                g_variant_unref(locked)
            }
            return ItemPaths(unlocked: GVariantValue.strings(of: unlocked), locked: GVariantValue.strings(of: locked))
        }
    }

    /// The items at `paths` (unlocked ones), described by their properties, with their secrets when
    /// `loadSecrets`: one `GetAll` per item and one `GetSecrets` for all, sent at once.
    func items(at paths: [String], loadSecrets: Bool) throws(KeychainError) -> [ServiceItem] {
        guard !paths.isEmpty else { return [] }
        let session = loadSecrets ? try plainSession() : nil
        var calls = paths.map { Self.getAllCall($0, interface: "org.freedesktop.Secret.Item") }
        if let session { calls.append(Self.getSecretsCall(paths, session: session)) }
        var replies = callAll(calls)
        let secrets = loadSecrets ? Self.secrets(in: try replies.removeLast().get()) : [:]
        return try zip(paths, replies).map { path, reply throws(KeychainError) in
            let properties = PropertyDictionary(try reply.get())
            return ServiceItem(
                path: path,
                pairs: properties.stringPairs("Attributes"),
                label: properties.string("Label"),
                created: properties.date("Created"),
                modified: properties.date("Modified"),
                isLocked: properties.boolean("Locked") == true,
                secret: secrets[path]
            )
        }
    }

    /// The secret of the item at `path` (one `GetSecrets` call), or nil when the service gave none.
    func secret(at path: String) throws(KeychainError) -> SecureBytes? {
        Self.secrets(in: try call(Self.getSecretsCall([path], session: try plainSession())))[path]
    }

    /// The secrets in a `GetSecrets` reply, by path, each copied into wiped-on-release memory and
    /// wiped in the reply.
    private static func secrets(in reply: DBusReply) -> [String: SecureBytes] {
        let dictionary = reply.child(0)
        defer { g_variant_unref(dictionary) }
        var secrets: [String: SecureBytes] = [:]
        for index in 0..<Int(g_variant_n_children(dictionary)) {
            let entry = GVariantValue.child(dictionary, index)
            let path = GVariantValue.child(entry, 0)
            let secret = GVariantValue.child(entry, 1)
            let value = GVariantValue.child(secret, 2)
            defer { for variant in [value, secret, path, entry] { g_variant_unref(variant) } }
            secrets[String(cString: g_variant_get_string(path, nil))] = GVariantValue.takeBytes(of: value)
        }
        return secrets
    }

    /// Whether the default collection (where new items go) is locked, read fresh from the service
    /// (`ReadAlias` and the collection's properties).
    func defaultCollectionIsLocked() throws(KeychainError) -> Bool {
        let reply = try call(
            DBusMethodCall(
                path: Self.servicePath,
                interface: Self.serviceInterface,
                method: "ReadAlias",
                arguments: GVariantValue.tuple([g_variant_new_string("default")]),
                replyType: "(o)"
            )
        )
        let pathValue = reply.child(0)
        defer { g_variant_unref(pathValue) }
        let path = String(cString: g_variant_get_string(pathValue, nil))
        guard path != "/" else { throw .backendFailure("the Secret Service has no default collection") }
        return PropertyDictionary(try call(Self.getAllCall(path, interface: "org.freedesktop.Secret.Collection")))
            .boolean("Locked") == true
    }

    /// `GetSecrets` of the items at `paths` in the session at `session`.
    private static func getSecretsCall(_ paths: [String], session: String) -> DBusMethodCall {
        DBusMethodCall(
            path: servicePath,
            interface: serviceInterface,
            method: "GetSecrets",
            arguments: GVariantValue.tuple([GVariantValue.objectPaths(paths), g_variant_new_object_path(session)]),
            replyType: "(a{o(oayays)})"
        )
    }

    /// `GetAll` of the properties of `interface` of the object at `path`.
    private static func getAllCall(_ path: String, interface: String) -> DBusMethodCall {
        DBusMethodCall(
            path: path,
            interface: "org.freedesktop.DBus.Properties",
            method: "GetAll",
            arguments: PropertyDictionary.getAllArguments(interface),
            replyType: "(a{sv})"
        )
    }

    /// `OpenSession` of a `plain` session.
    private static var openSessionCall: DBusMethodCall {
        DBusMethodCall(
            path: servicePath,
            interface: serviceInterface,
            method: "OpenSession",
            arguments: GVariantValue.tuple([
                g_variant_new_string("plain"), g_variant_new_variant(g_variant_new_string("")),
            ]),
            replyType: "(vo)"
        )
    }

    /// This connection's `plain` session: opened by the first read of a secret (`OpenSession`),
    /// then reused, as libsecret reuses its session.
    private func plainSession() throws(KeychainError) -> String {
        if let path = connection.plainSession.withLock({ $0 }) { return path }
        return keepPlainSession(try call(Self.openSessionCall))
    }

    /// Keeps the session an `OpenSession` reply names for this connection, and returns its path.
    @discardableResult
    private func keepPlainSession(_ reply: DBusReply) -> String {
        let pathValue = reply.child(1)
        defer { g_variant_unref(pathValue) }
        let path = String(cString: g_variant_get_string(pathValue, nil))
        connection.plainSession.withLock { $0 = path }
        return path
    }

    /// Sends `calls` to the Secret Service at once and waits for all replies (`DBusCallBatch`), under
    /// the operation's deadline; the results are in the order of `calls`.
    private func callAll(_ calls: [DBusMethodCall]) -> [Result<DBusReply, KeychainError>] {
        DBusCallBatch.callAll(
            calls,
            destination: Self.busName,
            on: connectionPointer,
            cancellable: cancellable,
            deadline: deadline
        )
    }

    private func call(_ call: DBusMethodCall) throws(KeychainError) -> DBusReply {
        try callAll([call])[0].get()
    }
}
