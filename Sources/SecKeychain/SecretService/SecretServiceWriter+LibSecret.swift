internal import CLibSecret
import SecCrypto

/// One operation's writes to the Secret Service through libsecret, which encrypts each secret in
/// its session (`dh-ietf1024-sha256-aes128-cbc-pkcs7`) and makes the item proxies an update needs.
/// Reads, and the searches a write starts with, go through `SecretServiceSession`.
struct SecretServiceWriter {
    private let session: SecretServiceSession
    private let libsecret: LibSecretLibrary
    private let service: GObjectReference

    /// libsecret's service proxy with its session open (libsecret keeps one per process), within
    /// `session`'s deadline; loads libsecret first when this is the process's first write.
    init(_ session: SecretServiceSession) throws(KeychainError) {
        self.session = session
        let libsecret = try LibSecretLibrary.load()
        self.libsecret = libsecret
        let service = try withGError(session.deadline) {
            libsecret.functions.service_get_sync(SECRET_SERVICE_OPEN_SESSION, session.cancellable.pointer, $0)
        }
        guard let service else { throw .noSecretService("libsecret found no Secret Service") }
        self.service = GObjectReference(adopting: UnsafeMutableRawPointer(service))
    }

    private var servicePointer: UnsafeMutablePointer<SecretService> { service.cast(to: SecretService.self) }

    /// Creates an item in the default collection. Never with `SECRET_ITEM_CREATE_REPLACE`:
    /// gnome-keyring would replace any item whose attributes include the new ones (an item in an
    /// access group, or with a port, when storing one without), not just the same identity.
    /// Items with a `service` get the generic-password schema, the others the network-password one.
    func create(
        _ pairs: [String: String],
        label: String,
        secret: UnsafeRawBufferPointer,
        isInternetPassword: Bool
    ) throws(KeychainError) {
        guard try !session.defaultCollectionIsLocked() else { throw .locked }
        let collection = try withGError(session.deadline) {
            libsecret.functions.collection_for_alias_sync(
                servicePointer,
                SECRET_COLLECTION_DEFAULT,
                SECRET_COLLECTION_NONE,
                session.cancellable.pointer,
                $0
            )
        }
        guard let collection else { throw .backendFailure("the Secret Service has no default collection") }
        defer { g_object_unref(collection) }
        let value = try value(secret)
        defer { libsecret.functions.value_unref(UnsafeMutableRawPointer(value)) }
        let schema = isInternetPassword ? libsecret.internetSchema : libsecret.genericSchema
        let item = try AttributeTable.with(pairs) { (table) throws(KeychainError) in
            try withGError(session.deadline) {
                libsecret.functions.item_create_sync(
                    collection,
                    schema,
                    table,
                    label,
                    value,
                    SECRET_ITEM_CREATE_NONE,
                    session.cancellable.pointer,
                    $0
                )
            }
        }
        guard let item else { throw .backendFailure("the Secret Service created no item") }
        g_object_unref(item)
    }

    /// Replaces the secret of an existing item, then its attributes and label when they differ.
    func update(
        _ item: ServiceItem,
        pairs: [String: String],
        label: String,
        secret: UnsafeRawBufferPointer
    ) throws(KeychainError) {
        let proxy = try withGError(session.deadline) {
            libsecret.functions.item_new_for_dbus_path_sync(
                servicePointer,
                item.path,
                SECRET_ITEM_NONE,
                session.cancellable.pointer,
                $0
            )
        }
        guard let proxy else { throw .notFound }
        defer { g_object_unref(proxy) }
        let value = try value(secret)
        defer { libsecret.functions.value_unref(UnsafeMutableRawPointer(value)) }
        _ = try withGError(session.deadline) {
            libsecret.functions.item_set_secret_sync(proxy, value, session.cancellable.pointer, $0)
        }
        if pairs != item.pairs {
            _ = try AttributeTable.with(pairs) { (table) throws(KeychainError) in
                try withGError(session.deadline) {
                    libsecret.functions.item_set_attributes_sync(proxy, nil, table, session.cancellable.pointer, $0)
                }
            }
        }
        if label != item.label {
            _ = try withGError(session.deadline) {
                libsecret.functions.item_set_label_sync(proxy, label, session.cancellable.pointer, $0)
            }
        }
    }

    func delete(_ item: ServiceItem) throws(KeychainError) {
        _ = try withGError(session.deadline) {
            libsecret.functions.service_delete_item_dbus_path_sync(
                servicePointer,
                item.path,
                session.cancellable.pointer,
                $0
            )
        }
    }

    /// A `SecretValue` holding a copy of `secret` (libsecret keeps it in non-pageable memory),
    /// typed `text/plain` when the bytes are UTF-8 text without NUL, `application/octet-stream` otherwise.
    private func value(_ secret: UnsafeRawBufferPointer) throws(KeychainError) -> OpaquePointer {
        let isText = !secret.contains(0) && String(validating: secret, as: UTF8.self) != nil
        let contentType = isText ? "text/plain" : "application/octet-stream"
        let value =
            if let base = secret.baseAddress, secret.count > 0 {
                libsecret.functions.value_new(
                    base.assumingMemoryBound(to: gchar.self),
                    gssize(secret.count),
                    contentType
                )
            } else {
                libsecret.functions.value_new("", 0, contentType)
            }
        guard let value else {
            throw .backendFailure("libsecret made no secret value")
        }
        return value
    }
}
