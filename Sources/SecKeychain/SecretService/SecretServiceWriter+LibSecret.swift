internal import CLibSecret
import SecCrypto

/// One operation's writes to the Secret Service. libsecret encrypts each secret in its session
/// (`dh-ietf1024-sha256-aes128-cbc-pkcs7`), creates items and deletes them (running a prompt when
/// the service asks for one); updates go to the item's path directly (`SecretServiceSession.update`).
/// No item or collection proxy is made: setting one up reads all its properties (`GetAll`), and
/// the default collection's include the path of every item it holds. Reads, and the searches a
/// write starts with, go through `SecretServiceSession`.
struct SecretServiceWriter {
    private let session: SecretServiceSession
    /// libsecret's functions.
    private let functions: SecKitLibSecret
    private let service: GObjectReference

    /// libsecret's service proxy (libsecret keeps one per process) within `session`'s deadline, with
    /// its session open when `writingSecrets`; loads libsecret first when this is the process's
    /// first write.
    init(_ session: SecretServiceSession, writingSecrets: Bool) throws(KeychainError) {
        self.session = session
        let functions = try libsecretLibrary.load()
        self.functions = functions
        let flags = writingSecrets ? SECRET_SERVICE_OPEN_SESSION : SECRET_SERVICE_NONE
        let service = try withGError(session.deadline) {
            functions.secret_service_get_sync(flags, session.cancellable.pointer, $0)
        }
        guard let service else { throw .noSecretService("libsecret found no Secret Service") }
        self.service = GObjectReference(adopting: UnsafeMutableRawPointer(service))
    }

    private var servicePointer: UnsafeMutablePointer<SecretService> { service.cast(to: SecretService.self) }

    /// Creates an item in `collection`, with the `xdg:schema` libsecret would give it (generic or
    /// network password). Never with `SECRET_ITEM_CREATE_REPLACE`: gnome-keyring would replace any
    /// item whose attributes include the new ones (an item in an access group, or with a port, when
    /// storing one without), not just the same identity.
    func create(
        _ pairs: [String: String],
        label: String,
        secret: UnsafeRawBufferPointer,
        isInternetPassword: Bool,
        in collection: SecretServiceCollection
    ) throws(KeychainError) {
        let collectionPath = SecretServiceSession.aliasPath(collection.alias)
        switch try session.collection(at: collectionPath) {
        case .unlocked: break
        case .locked: throw .locked
        case .absent: throw collection == .session ? .noSessionCollection : .noDefaultCollection
        }
        let value = try value(secret)
        defer { functions.secret_value_unref(UnsafeMutableRawPointer(value)) }
        var attributes = pairs
        attributes[ItemAttributes.schema] = ItemAttributes.schemaName(isInternetPassword)
        let properties = glib.g_hash_table_new_full(
            glib.g_str_hash,
            glib.g_str_equal,
            glib.g_free,
            { glib.g_variant_unref(OpaquePointer($0)) }
        )!
        defer { glib.g_hash_table_unref(properties) }
        for (name, property) in [
            ("org.freedesktop.Secret.Item.Label", glib.g_variant_new_string(label)),
            ("org.freedesktop.Secret.Item.Attributes", GVariantValue.stringDictionary(attributes)),
        ] {
            _ = glib.g_hash_table_insert(
                properties,
                glib.g_strdup(name),
                UnsafeMutableRawPointer(glib.g_variant_ref_sink(property))
            )
        }
        let path = try withGError(session.deadline) {
            functions.secret_service_create_item_dbus_path_sync(
                servicePointer,
                collectionPath,
                properties,
                value,
                SECRET_ITEM_CREATE_NONE,
                session.cancellable.pointer,
                $0
            )
        }
        guard let path else { throw .backendFailure("the Secret Service created no item") }
        glib.g_free(path)
    }

    /// Replaces the secret of an existing item, then its attributes and label when they differ.
    func update(
        _ item: ServiceItem,
        pairs: [String: String],
        label: String,
        secret: UnsafeRawBufferPointer
    ) throws(KeychainError) {
        let value = try value(secret)
        defer { functions.secret_value_unref(UnsafeMutableRawPointer(value)) }
        guard let encoded = functions.secret_service_encode_dbus_secret(servicePointer, value) else {
            throw .backendFailure("libsecret has no session to encode the secret in")
        }
        try session.update(
            item.path,
            encodedSecret: encoded,
            pairs: pairs == item.pairs ? nil : pairs,
            label: label == item.label ? nil : label,
            on: glib.g_dbus_proxy_get_connection(service.cast(to: GDBusProxy.self))!
        )
    }

    func delete(_ item: ServiceItem) throws(KeychainError) {
        _ = try withGError(session.deadline) {
            functions.secret_service_delete_item_dbus_path_sync(
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
                functions.secret_value_new(
                    base.assumingMemoryBound(to: gchar.self),
                    gssize(secret.count),
                    contentType
                )
            } else {
                functions.secret_value_new("", 0, contentType)
            }
        guard let value else {
            throw .backendFailure("libsecret made no secret value")
        }
        return value
    }
}
