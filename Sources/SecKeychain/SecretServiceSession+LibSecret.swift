internal import CLibSecret
import SecCrypto

/// An item as the Secret Service returned it.
struct ServiceItem {
    let object: GObjectReference
    let path: String
    let pairs: [String: String]
    let label: String?
    let created: Date?
    let modified: Date?
    let isLocked: Bool
    let secret: SecureBytes?
}

/// One operation's access to the Secret Service through libsecret: every call shares the
/// operation's deadline (a `GCancellable` cancelled by a timer).
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

    /// Items whose attributes include all of `pairs`, in every collection, locked ones too.
    func search(_ pairs: [String: String], loadSecrets: Bool) throws(KeychainError) -> [ServiceItem] {
        var flags = SECRET_SEARCH_ALL.rawValue
        if loadSecrets { flags |= SECRET_SEARCH_LOAD_SECRETS.rawValue }
        let list = try AttributeTable.with(pairs) { (table) throws(KeychainError) in
            try withGError(deadline) {
                secret_service_search_sync(
                    service.cast(to: SecretService.self), nil, table, SecretSearchFlags(rawValue: flags), cancellable.pointer, $0)
            }
        }
        defer { g_list_free_full(list, g_object_unref) }
        var items: [ServiceItem] = []
        var node = list
        while let current = node {
            if let object = current.pointee.data {
                g_object_ref(object)
                items.append(Self.describe(GObjectReference(adopting: object)))
            }
            node = current.pointee.next
        }
        return items
    }

    /// The object paths of the items whose attributes include all of `pairs`, unlocked and locked,
    /// without making item objects (one `SearchItems` call).
    func searchPaths(_ pairs: [String: String]) throws(KeychainError) -> (unlocked: [String], locked: [String]) {
        var unlocked: UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>?
        var locked: UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>?
        defer {
            g_strfreev(unlocked)
            g_strfreev(locked)
        }
        _ = try AttributeTable.with(pairs) { (table) throws(KeychainError) in
            try withGError(deadline) {
                secret_service_search_for_dbus_paths_sync(
                    service.cast(to: SecretService.self), nil, table, cancellable.pointer, &unlocked, &locked, $0)
            }
        }
        return (Self.strings(unlocked), Self.strings(locked))
    }

    /// The secret of the item at `path` (one `GetSecrets` call), or nil when the service gave none.
    func secret(at path: String) throws(KeychainError) -> SecureBytes? {
        let value = try withGError(deadline) {
            secret_service_get_secret_for_dbus_path_sync(service.cast(to: SecretService.self), path, cancellable.pointer, $0)
        }
        guard let value else { return nil }
        defer { secret_value_unref(UnsafeMutableRawPointer(value)) }
        return Self.bytes(of: value)
    }

    /// Creates an item in the default collection. Never with `SECRET_ITEM_CREATE_REPLACE`:
    /// gnome-keyring would replace any item whose attributes include the new ones (an item in an
    /// access group, or with a port, when storing one without), not just the same identity.
    func create(_ pairs: [String: String], label: String, secret: UnsafeRawBufferPointer, schema: LibSecretSchema) throws(KeychainError) {
        let collection = try defaultCollection()
        defer { withExtendedLifetime(collection) {} }
        guard secret_collection_get_locked(collection.cast(to: SecretCollection.self)) == 0 else { throw .locked }
        let value = Self.value(secret)
        defer { secret_value_unref(UnsafeMutableRawPointer(value)) }
        let item = try AttributeTable.with(pairs) { (table) throws(KeychainError) in
            try withGError(deadline) {
                secret_item_create_sync(
                    collection.cast(to: SecretCollection.self), schema.pointer, table, label, value, SECRET_ITEM_CREATE_NONE,
                    cancellable.pointer, $0)
            }
        }
        guard let item else { throw .backendFailure("the Secret Service created no item") }
        g_object_unref(item)
    }

    /// Replaces the secret of an existing item, then its attributes and label when they differ.
    func update(_ item: ServiceItem, pairs: [String: String], label: String, secret: UnsafeRawBufferPointer) throws(KeychainError) {
        let pointer = item.object.cast(to: SecretItem.self)
        let value = Self.value(secret)
        defer { secret_value_unref(UnsafeMutableRawPointer(value)) }
        _ = try withGError(deadline) { secret_item_set_secret_sync(pointer, value, cancellable.pointer, $0) }
        if pairs != item.pairs {
            _ = try AttributeTable.with(pairs) { (table) throws(KeychainError) in
                try withGError(deadline) { secret_item_set_attributes_sync(pointer, nil, table, cancellable.pointer, $0) }
            }
        }
        if label != item.label {
            _ = try withGError(deadline) { secret_item_set_label_sync(pointer, label, cancellable.pointer, $0) }
        }
    }

    func delete(_ item: ServiceItem) throws(KeychainError) {
        _ = try withGError(deadline) { secret_item_delete_sync(item.object.cast(to: SecretItem.self), cancellable.pointer, $0) }
    }

    /// Whether the default collection (where new items go) is locked, read fresh from the service.
    func defaultCollectionIsLocked() throws(KeychainError) -> Bool {
        let collection = try defaultCollection()
        return withExtendedLifetime(collection) { secret_collection_get_locked(collection.cast(to: SecretCollection.self)) != 0 }
    }

    private func defaultCollection() throws(KeychainError) -> GObjectReference {
        let collection = try withGError(deadline) {
            secret_collection_for_alias_sync(
                service.cast(to: SecretService.self), SECRET_COLLECTION_DEFAULT, SECRET_COLLECTION_NONE, cancellable.pointer, $0)
        }
        guard let collection else { throw .backendFailure("the Secret Service has no default collection") }
        return GObjectReference(adopting: UnsafeMutableRawPointer(collection))
    }

    /// A `SecretValue` holding a copy of `secret` (libsecret keeps it in non-pageable memory),
    /// typed `text/plain` when the bytes are UTF-8 text without NUL, `application/octet-stream` otherwise.
    private static func value(_ secret: UnsafeRawBufferPointer) -> OpaquePointer {
        let isText = !secret.contains(0) && String(validating: secret, as: UTF8.self) != nil
        let contentType = isText ? "text/plain" : "application/octet-stream"
        guard let base = secret.baseAddress, secret.count > 0 else { return secret_value_new("", 0, contentType) }
        return secret_value_new(base.assumingMemoryBound(to: gchar.self), gssize(secret.count), contentType)
    }

    private static func describe(_ object: GObjectReference) -> ServiceItem {
        let item = object.cast(to: SecretItem.self)
        let path = g_dbus_proxy_get_object_path(object.cast(to: GDBusProxy.self)).map { String(cString: $0) } ?? ""
        var pairs: [String: String] = [:]
        if let table = secret_item_get_attributes(item) {
            pairs = AttributeTable.pairs(of: table)
            g_hash_table_unref(table)
        }
        let label = secret_item_get_label(item).map { text in
            defer { g_free(text) }
            return String(cString: text)
        }
        return ServiceItem(
            object: object, path: path, pairs: pairs, label: label, created: date(secret_item_get_created(item)),
            modified: date(secret_item_get_modified(item)), isLocked: secret_item_get_locked(item) != 0, secret: secret(of: item))
    }

    private static func date(_ seconds: guint64) -> Date? {
        seconds == 0 ? nil : Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// The loaded secret copied into wiped-on-release memory, or nil when it was not loaded.
    private static func secret(of item: UnsafeMutablePointer<SecretItem>) -> SecureBytes? {
        guard let value = secret_item_get_secret(item) else { return nil }
        defer { secret_value_unref(UnsafeMutableRawPointer(value)) }
        return bytes(of: value)
    }

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
