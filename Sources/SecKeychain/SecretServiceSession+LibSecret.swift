internal import CLibSecret
import SecCrypto

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

/// One operation's access to the Secret Service through libsecret: every call shares the
/// operation's deadline (a `GCancellable` cancelled by a timer). Items are handled by their D-Bus
/// object paths: reading one costs a `GetAll` of its properties, and no item proxy (whose set-up
/// costs several more messages) is made except to update an item.
struct SecretServiceSession {
    let deadline: OperationDeadline
    private let cancellable: DeadlineCancellable
    private let service: GObjectReference

    /// Connects (libsecret keeps one connection per process) after checking that a session bus exists.
    init(deadline: OperationDeadline) throws(KeychainError) {
        try SessionBus.requirePresent()
        self.deadline = deadline
        let cancellable = DeadlineCancellable(deadline)
        self.cancellable = cancellable
        let service = try withGError(deadline) { secret_service_get_sync(SECRET_SERVICE_OPEN_SESSION, cancellable.pointer, $0) }
        guard let service else { throw .noSecretService("libsecret found no Secret Service") }
        self.service = GObjectReference(adopting: UnsafeMutableRawPointer(service))
    }

    private var servicePointer: UnsafeMutablePointer<SecretService> { service.cast(to: SecretService.self) }

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
        var unlocked: UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>?
        var locked: UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>?
        defer {
            g_strfreev(unlocked)
            g_strfreev(locked)
        }
        _ = try AttributeTable.with(pairs) { (table) throws(KeychainError) in
            try withGError(deadline) {
                secret_service_search_for_dbus_paths_sync(servicePointer, nil, table, cancellable.pointer, &unlocked, &locked, $0)
            }
        }
        return (Self.strings(unlocked), Self.strings(locked))
    }

    /// The item at `path`, described by its properties (one `GetAll` call).
    func item(at path: String, isLocked: Bool, secret: SecureBytes?) throws(KeychainError) -> ServiceItem {
        let properties = try PropertyDictionary(try withGError(deadline) {
            g_dbus_connection_call_sync(
                g_dbus_proxy_get_connection(service.cast(to: GDBusProxy.self)), g_dbus_proxy_get_name(service.cast(to: GDBusProxy.self)),
                path, "org.freedesktop.DBus.Properties", "GetAll", PropertyDictionary.getAllArguments("org.freedesktop.Secret.Item"),
                nil, G_DBUS_CALL_FLAGS_NONE, -1, cancellable.pointer, $0)
        })
        return ServiceItem(
            path: path, pairs: properties.stringPairs("Attributes"), label: properties.string("Label"),
            created: properties.date("Created"), modified: properties.date("Modified"),
            isLocked: isLocked || properties.boolean("Locked") == true, secret: secret)
    }

    /// The secret of the item at `path` (one `GetSecrets` call), or nil when the service gave none.
    func secret(at path: String) throws(KeychainError) -> SecureBytes? {
        let value = try withGError(deadline) { secret_service_get_secret_for_dbus_path_sync(servicePointer, path, cancellable.pointer, $0) }
        guard let value else { return nil }
        defer { secret_value_unref(UnsafeMutableRawPointer(value)) }
        return Self.bytes(of: value)
    }

    /// The secrets of the items at `paths` (one `GetSecrets` call), by path.
    private func secrets(at paths: [String]) throws(KeychainError) -> [String: SecureBytes] {
        let copies = paths.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        var vector = copies.map { UnsafePointer($0) } + [nil]
        let table = try vector.withUnsafeMutableBufferPointer { vector in
            Result { () throws(KeychainError) in
                try withGError(deadline) { secret_service_get_secrets_for_dbus_paths_sync(servicePointer, vector.baseAddress, cancellable.pointer, $0) }
            }
        }.get()
        guard let table else { return [:] }
        defer { g_hash_table_unref(table) }
        var secrets: [String: SecureBytes] = [:]
        for path in paths {
            guard let value = g_hash_table_lookup(table, path) else { continue }
            secrets[path] = Self.bytes(of: OpaquePointer(value))
        }
        return secrets
    }

    /// Creates an item in the default collection. Never with `SECRET_ITEM_CREATE_REPLACE`:
    /// gnome-keyring would replace any item whose attributes include the new ones (an item in an
    /// access group, or with a port, when storing one without), not just the same identity.
    func create(_ pairs: [String: String], label: String, secret: UnsafeRawBufferPointer, schema: LibSecretSchema) throws(KeychainError) {
        guard try !defaultCollectionIsLocked() else { throw .locked }
        let collection = try withGError(deadline) {
            secret_collection_for_alias_sync(servicePointer, SECRET_COLLECTION_DEFAULT, SECRET_COLLECTION_NONE, cancellable.pointer, $0)
        }
        guard let collection else { throw .backendFailure("the Secret Service has no default collection") }
        defer { g_object_unref(collection) }
        let value = Self.value(secret)
        defer { secret_value_unref(UnsafeMutableRawPointer(value)) }
        let item = try AttributeTable.with(pairs) { (table) throws(KeychainError) in
            try withGError(deadline) {
                secret_item_create_sync(collection, schema.pointer, table, label, value, SECRET_ITEM_CREATE_NONE, cancellable.pointer, $0)
            }
        }
        guard let item else { throw .backendFailure("the Secret Service created no item") }
        g_object_unref(item)
    }

    /// Replaces the secret of an existing item, then its attributes and label when they differ.
    func update(_ item: ServiceItem, pairs: [String: String], label: String, secret: UnsafeRawBufferPointer) throws(KeychainError) {
        let proxy = try withGError(deadline) { secret_item_new_for_dbus_path_sync(servicePointer, item.path, SECRET_ITEM_NONE, cancellable.pointer, $0) }
        guard let proxy else { throw .notFound }
        defer { g_object_unref(proxy) }
        let value = Self.value(secret)
        defer { secret_value_unref(UnsafeMutableRawPointer(value)) }
        _ = try withGError(deadline) { secret_item_set_secret_sync(proxy, value, cancellable.pointer, $0) }
        if pairs != item.pairs {
            _ = try AttributeTable.with(pairs) { (table) throws(KeychainError) in
                try withGError(deadline) { secret_item_set_attributes_sync(proxy, nil, table, cancellable.pointer, $0) }
            }
        }
        if label != item.label {
            _ = try withGError(deadline) { secret_item_set_label_sync(proxy, label, cancellable.pointer, $0) }
        }
    }

    func delete(_ item: ServiceItem) throws(KeychainError) {
        _ = try withGError(deadline) { secret_service_delete_item_dbus_path_sync(servicePointer, item.path, cancellable.pointer, $0) }
    }

    /// Whether the default collection (where new items go) is locked, read fresh from the service
    /// (`ReadAlias` and its `Locked` property).
    func defaultCollectionIsLocked() throws(KeychainError) -> Bool {
        let path = try withGError(deadline) { secret_service_read_alias_dbus_path_sync(servicePointer, SECRET_COLLECTION_DEFAULT, cancellable.pointer, $0) }
        guard let path else { throw .backendFailure("the Secret Service has no default collection") }
        defer { g_free(path) }
        let properties = try PropertyDictionary(try withGError(deadline) {
            g_dbus_connection_call_sync(
                g_dbus_proxy_get_connection(service.cast(to: GDBusProxy.self)), g_dbus_proxy_get_name(service.cast(to: GDBusProxy.self)),
                path, "org.freedesktop.DBus.Properties", "GetAll", PropertyDictionary.getAllArguments("org.freedesktop.Secret.Collection"),
                nil, G_DBUS_CALL_FLAGS_NONE, -1, cancellable.pointer, $0)
        })
        return properties.boolean("Locked") == true
    }

    /// A `SecretValue` holding a copy of `secret` (libsecret keeps it in non-pageable memory),
    /// typed `text/plain` when the bytes are UTF-8 text without NUL, `application/octet-stream` otherwise.
    private static func value(_ secret: UnsafeRawBufferPointer) -> OpaquePointer {
        let isText = !secret.contains(0) && String(validating: secret, as: UTF8.self) != nil
        let contentType = isText ? "text/plain" : "application/octet-stream"
        guard let base = secret.baseAddress, secret.count > 0 else { return secret_value_new("", 0, contentType) }
        return secret_value_new(base.assumingMemoryBound(to: gchar.self), gssize(secret.count), contentType)
    }

    /// A secret value's bytes copied into wiped-on-release memory.
    private static func bytes(of value: OpaquePointer) -> SecureBytes? {
        var length = 0
        guard let bytes = secret_value_get(value, &length) else { return nil }
        return SecureBytes(UnsafeRawBufferPointer(start: bytes, count: length))
    }

    /// The strings of a NULL-terminated `gchar**`.
    private static func strings(_ vector: UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>?) -> [String] {
        var strings: [String] = []
        var cursor = vector
        while let element = cursor?.pointee {
            strings.append(String(cString: element))
            cursor = cursor?.advanced(by: 1)
        }
        return strings
    }
}

/// A libsecret schema (a name and the attribute names it declares). SecKit's are flagged
/// `SECRET_SCHEMA_DONT_MATCH_NAME`: searches never filter on `xdg:schema`, so items that other
/// tools stored without it are found.
final class LibSecretSchema: @unchecked Sendable {
    // Created once and never changed or freed.
    let pointer: UnsafeMutablePointer<SecretSchema>

    init(name: String, attributes: [String]) {
        let table = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, nil)!
        defer { g_hash_table_unref(table) }
        for attribute in attributes {
            // SECRET_SCHEMA_ATTRIBUTE_STRING is 0, that is a NULL value.
            g_hash_table_insert(table, g_strdup(attribute), nil)
        }
        pointer = secret_schema_newv(name, SECRET_SCHEMA_DONT_MATCH_NAME, table)
    }

    deinit { secret_schema_unref(pointer) }
}
