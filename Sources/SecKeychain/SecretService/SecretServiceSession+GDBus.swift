internal import CLibSecret
import SecCrypto
import Synchronization

/// An item as the Secret Service describes it: the properties read so far (`ItemProperties`), and
/// its secret when loaded.
struct ServiceItem {
    let path: String
    var pairs: [String: String] = [:]
    var label: String?
    var created: Date?
    var modified: Date?
    var secret: SecureBytes?
}

/// Properties of an item (`org.freedesktop.Secret.Item`) that a read asks for, each with a `Get` of
/// its own. gnome-keyring looks the item up among all its items again for every property it
/// answers, so the `GetAll` of an item costs it three to five `Get`s (docs/performance-journal.md), where a
/// lookup needs one property and a listing four.
struct ItemProperties: OptionSet {
    let rawValue: Int

    static let attributes = ItemProperties(rawValue: 1 << 0)
    static let label = ItemProperties(rawValue: 1 << 1)
    static let created = ItemProperties(rawValue: 1 << 2)
    static let modified = ItemProperties(rawValue: 1 << 3)
    /// What a `CredentialItem` holds.
    static let all: ItemProperties = [.attributes, .label, .created, .modified]

    /// Stores a property's value in an item.
    fileprivate typealias Keep = @Sendable (inout ServiceItem, borrowing PropertyValue) -> Void

    /// Each property's D-Bus name and where its value goes, in a fixed order.
    fileprivate static let readers: [(property: ItemProperties, name: String, keep: Keep)] = [
        (.attributes, "Attributes", { $0.pairs = $1.stringPairs }),
        (.label, "Label", { $0.label = $1.string }),
        (.created, "Created", { $0.created = $1.date }),
        (.modified, "Modified", { $0.modified = $1.date }),
    ]
}

/// The object paths a `SearchItems` call found: the unlocked items', and the locked ones'.
struct ItemPaths {
    let unlocked: [String]
    let locked: [String]

    /// The path of the only item found, when that one is unlocked.
    var onlyUnlocked: String? { locked.isEmpty && unlocked.count == 1 ? unlocked[0] : nil }
}

extension [ItemPaths] {
    /// The unlocked items the searches found, each once, yet to be read; `locked` when any search
    /// found a locked item (the answer is then unknown).
    func unlockedItems() throws(KeychainError) -> [ServiceItem] {
        guard allSatisfy(\.locked.isEmpty) else { throw .locked }
        var seen: Set<String> = []
        return flatMap(\.unlocked).filter { seen.insert($0).inserted }.map { ServiceItem(path: $0) }
    }
}

/// A Secret Service session that carries secrets encrypted: its object path and its AES-128 key.
struct EncryptedSession: Sendable {
    /// The algorithm, as the Secret Service specification names it (and libsecret opens by default).
    static let algorithm = "dh-ietf1024-sha256-aes128-cbc-pkcs7"

    let path: String
    let key: SymmetricKey

    /// The session at `path` that the service opened with its public key `serviceKey` for the
    /// client's key pair `exchange`: the AES key is HKDF-SHA-256 of the shared secret, with no salt
    /// and no info.
    init(path: String, serviceKey: [UInt8], exchange: FiniteFieldDH) throws(KeychainError) {
        self.path = path
        do {
            key = try KDF.HKDF.deriveKey(
                inputKeyMaterial: try exchange.sharedSecret(with: serviceKey),
                salt: [UInt8](),
                info: [UInt8](),
                outputByteCount: 16
            )
        } catch {
            throw .backendFailure("the Secret Service's session key is not valid: \(error)")
        }
    }
}

/// A session being opened: its path, known from the `OpenSession` reply, and its key, derived by
/// `key` (once) from the service's public key.
struct SessionOpening {
    let path: String
    let key: () -> Result<EncryptedSession, KeychainError>
}

/// One operation's reads from the Secret Service, over GIO's D-Bus connection directly
/// (`SearchItems`, `GetSecrets`, `Get` of an item's properties): every call shares the
/// operation's deadline (a `GCancellable` that `DeadlineWatchdog` cancels). Secrets travel encrypted,
/// in a `dh-ietf1024-sha256-aes128-cbc-pkcs7` session opened once per connection (as libsecret's), so
/// GLib's D-Bus buffers never hold them in clear; they are decrypted into `SecureBytes`. Writes encode
/// their secrets in libsecret's session: `SecretServiceWriter`.
struct SecretServiceSession {
    let deadline: OperationDeadline
    let cancellable: DeadlineCancellable
    private let connection: SharedConnection

    private static let busName = "org.freedesktop.secrets"
    private static let servicePath = "/org/freedesktop/secrets"
    private static let serviceInterface = "org.freedesktop.Secret.Service"
    private static let itemInterface = "org.freedesktop.Secret.Item"
    /// The default collection (where new items go), at the alias path the Secret Service
    /// specification gives it.
    static let defaultCollectionPath = aliasPath("default")

    /// The path at which the Secret Service specification makes the collection `alias` names reachable.
    static func aliasPath(_ alias: String) -> String { "/org/freedesktop/secrets/aliases/\(alias)" }
    /// The session bus connection and its encrypted session, kept for the process as libsecret keeps
    /// its own: GIO's bus connection lives only while someone holds it.
    private final class SharedConnection: Sendable {
        let reference: GObjectReference
        let secretsSession = Mutex<EncryptedSession?>(nil)

        init(_ reference: GObjectReference) { self.reference = reference }
    }

    private static let shared = Mutex<SharedConnection?>(nil)

    /// Connects to the session bus, or reuses this process's connection while it is open, after
    /// checking that a session bus exists; loads GIO first when this is the process's first operation.
    init(deadline: OperationDeadline) throws(KeychainError) {
        try SessionBus.requirePresent()
        try glibLibrary.load()
        self.deadline = deadline
        let cancellable = DeadlineCancellable(deadline)
        self.cancellable = cancellable
        if let shared = Self.shared.withLock({ $0 }),
            glib.g_dbus_connection_is_closed(OpaquePointer(shared.reference.pointer)) == 0
        {
            connection = shared
            return
        }
        let pointer: OpaquePointer?
        do {
            pointer = try withGError(deadline) { glib.g_bus_get_sync(G_BUS_TYPE_SESSION, cancellable.pointer, $0) }
        } catch .backendFailure(let message) {
            // Any other failure to reach the bus (a malformed DBUS_SESSION_BUS_ADDRESS) is no bus.
            throw .noSessionBus(message)
        }
        guard let pointer else { throw .noSessionBus("GIO made no session bus connection") }
        let connection = SharedConnection(GObjectReference(adopting: UnsafeMutableRawPointer(pointer)))
        Self.shared.withLock { $0 = connection }
        self.connection = connection
    }

    private var connectionPointer: OpaquePointer { OpaquePointer(connection.reference.pointer) }

    /// The object paths of the items whose attributes include all of the pairs of each of
    /// `searches` (one `SearchItems` each), in the order of `searches`, all sent at once. The
    /// encrypted session is not opened here but by the first read of a secret: its Diffie-Hellman
    /// exchange costs both sides about as much as a search, and a lookup that finds nothing needs none.
    func searchPaths(_ searches: [[String: String]]) throws(KeychainError) -> [ItemPaths] {
        let calls = searches.map { pairs in
            DBusMethodCall(
                path: Self.servicePath,
                interface: Self.serviceInterface,
                method: "SearchItems",
                arguments: GVariantValue.tuple([GVariantValue.stringDictionary(pairs)]),
                replyType: "(aoao)"
            )
        }
        let replies = callAll(calls)
        return try replies.map { result throws(KeychainError) in
            let reply = try result.get()
            let unlocked = reply.child(0)
            let locked = reply.child(1)
            defer {
                glib.g_variant_unref(unlocked)
                glib.g_variant_unref(locked)
            }
            return ItemPaths(unlocked: GVariantValue.strings(of: unlocked), locked: GVariantValue.strings(of: locked))
        }
    }

    /// `items` with `properties` read (one `Get` per item and property) and, when `loadingSecrets`,
    /// their secrets (one `GetSecrets` for all), sent at once. Nothing is sent when there is nothing to read.
    /// An item deleted since it was found (by another process, or a writer removing a stray copy)
    /// is left out of the result: it is no longer there to read, and it must not fail the others.
    func read(
        _ properties: ItemProperties,
        of items: [ServiceItem],
        loadingSecrets: Bool
    ) throws(KeychainError) -> [ServiceItem] {
        let readers = ItemProperties.readers.filter { properties.contains($0.property) }
        guard !items.isEmpty, !readers.isEmpty || loadingSecrets else { return items }
        let opening = loadingSecrets ? try openSession() : nil
        var calls = items.flatMap { item in
            readers.map { Self.getCall(item.path, interface: Self.itemInterface, property: $0.name) }
        }
        if let opening { calls.append(Self.getSecretsCall(items.map(\.path), session: opening.path)) }
        var session: Result<EncryptedSession, KeychainError>?
        var replies = callAll(calls) { session = opening?.key() }
        let secrets =
            try session.map { (session) throws(KeychainError) in
                try Self.secrets(in: try replies.removeLast().get(), session: try session.get())
            } ?? [:]
        var read = items
        var vanished: Set<Int> = []
        for (index, reply) in replies.enumerated() {
            switch reply {
            case .success(let value):
                readers[index % readers.count].keep(&read[index / readers.count], PropertyValue(value))
            case .failure(.notFound): vanished.insert(index / readers.count)
            case .failure(let error): throw error
            }
        }
        if loadingSecrets {
            for index in read.indices { read[index].secret = secrets[read[index].path] }
        }
        return read.indices.filter { !vanished.contains($0) }.map { read[$0] }
    }

    /// The secret of the item at `path` (one `GetSecrets` call), or nil when the service gave none.
    func secret(at path: String) throws(KeychainError) -> SecureBytes? {
        let opening = try openSession()
        var session: Result<EncryptedSession, KeychainError>?
        let reply = callAll([Self.getSecretsCall([path], session: opening.path)]) { session = opening.key() }[0]
        return try Self.secrets(in: try reply.get(), session: try session!.get())[path]
    }

    /// The secrets in a `GetSecrets` reply, by path, each decrypted (AES-128-CBC, the IV in the
    /// secret's parameters) into wiped-on-release memory. One that does not decrypt is an error:
    /// the service and this process disagree about the session.
    private static func secrets(
        in reply: DBusReply,
        session: EncryptedSession
    ) throws(KeychainError) -> [String: SecureBytes] {
        let dictionary = reply.child(0)
        defer { glib.g_variant_unref(dictionary) }
        var secrets: [String: SecureBytes] = [:]
        for index in 0..<Int(glib.g_variant_n_children(dictionary)) {
            let entry = GVariantValue.child(dictionary, index)
            let path = GVariantValue.child(entry, 0)
            let secret = GVariantValue.child(entry, 1)
            let parameters = GVariantValue.child(secret, 1)
            let value = GVariantValue.child(secret, 2)
            defer { for variant in [value, parameters, secret, path, entry] { glib.g_variant_unref(variant) } }
            let plaintext = try GVariantValue.withBytes(of: parameters) { (iv) throws(KeychainError) in
                try GVariantValue.withBytes(of: value) { (ciphertext) throws(KeychainError) in
                    do {
                        return try AES.CBC.decryptSecret(ciphertext, using: session.key, iv: iv)
                    } catch {
                        throw .backendFailure("a secret from the Secret Service does not decrypt in this session")
                    }
                }
            }
            secrets[String(cString: glib.g_variant_get_string(path, nil)!)] = plaintext
        }
        return secrets
    }

    /// The state of a collection new items go to.
    enum CollectionState {
        case unlocked, locked
        /// The alias names no collection.
        case absent
    }

    /// The state of the default collection (where new items go).
    func defaultCollection() throws(KeychainError) -> CollectionState {
        try collection(at: Self.defaultCollectionPath)
    }

    /// The state of the collection at `aliasPath`, read fresh from the service: its `Locked`
    /// property alone. (The collection's `GetAll` would list every item's path too.)
    func collection(at aliasPath: String) throws(KeychainError) -> CollectionState {
        let locked: DBusReply
        do {
            locked = try call(
                Self.getCall(aliasPath, interface: "org.freedesktop.Secret.Collection", property: "Locked")
            )
        } catch .notFound {
            return .absent
        }
        return PropertyValue(locked).boolean == true ? .locked : .unlocked
    }

    /// The object path of the collection `alias` names (`ReadAlias`), the prefix of its items' paths;
    /// nil when it names none.
    func collectionPath(alias: String) throws(KeychainError) -> String? {
        let reply = try call(
            DBusMethodCall(
                path: Self.servicePath,
                interface: Self.serviceInterface,
                method: "ReadAlias",
                arguments: GVariantValue.tuple([glib.g_variant_new_string(alias)]),
                replyType: "(o)"
            )
        )
        let path = reply.child(0)
        defer { glib.g_variant_unref(path) }
        let text = String(cString: glib.g_variant_get_string(path, nil)!)
        return text == "/" ? nil : text
    }

    /// Replaces the secret of the item at `path` with `encodedSecret` (a `(oayays)` secret that
    /// libsecret encoded in its session; a floating reference this call consumes), then its
    /// attributes and label when given, one call after the other on `connection`, the one libsecret
    /// opened its session on: `SetSecret`, then `Properties.Set`. A failure stops the update there,
    /// as libsecret's item calls would.
    func update(
        _ path: String,
        encodedSecret: OpaquePointer,
        pairs: [String: String]?,
        label: String?,
        on connection: OpaquePointer
    ) throws(KeychainError) {
        var calls = [
            DBusMethodCall(
                path: path,
                interface: Self.itemInterface,
                method: "SetSecret",
                arguments: GVariantValue.tuple([encodedSecret]),
                replyType: "()"
            )
        ]
        if let pairs { calls.append(Self.setCall(path, property: "Attributes", GVariantValue.stringDictionary(pairs))) }
        if let label { calls.append(Self.setCall(path, property: "Label", glib.g_variant_new_string(label)!)) }
        for call in calls {
            _ = try DBusCallBatch.callAll(
                [call],
                destination: Self.busName,
                on: connection,
                cancellable: cancellable,
                deadline: deadline
            )[0].get()
        }
    }

    /// The error of a lookup that found nothing: `locked` when the default collection is locked (a
    /// search cannot see into it, so the item may be there), `notFound` otherwise (also when there
    /// is no default collection, which then hides nothing).
    func missing() throws(KeychainError) -> KeychainError {
        try defaultCollection() == .locked ? .locked : .notFound
    }

    /// `GetSecrets` of the items at `paths` in the session at `session`.
    private static func getSecretsCall(_ paths: [String], session: String) -> DBusMethodCall {
        DBusMethodCall(
            path: servicePath,
            interface: serviceInterface,
            method: "GetSecrets",
            arguments: GVariantValue.tuple([GVariantValue.objectPaths(paths), glib.g_variant_new_object_path(session)]),
            replyType: "(a{o(oayays)})"
        )
    }

    /// `Get` of the property `property` of `interface` of the object at `path`.
    private static func getCall(_ path: String, interface: String, property: String) -> DBusMethodCall {
        DBusMethodCall(
            path: path,
            interface: "org.freedesktop.DBus.Properties",
            method: "Get",
            arguments: PropertyValue.getArguments(interface, property),
            replyType: "(v)"
        )
    }

    /// `Set` of the item property `property` of the item at `path` to `value` (a floating reference
    /// the call consumes).
    private static func setCall(_ path: String, property: String, _ value: OpaquePointer) -> DBusMethodCall {
        DBusMethodCall(
            path: path,
            interface: "org.freedesktop.DBus.Properties",
            method: "Set",
            arguments: GVariantValue.tuple([
                glib.g_variant_new_string(itemInterface), glib.g_variant_new_string(property),
                glib.g_variant_new_variant(value),
            ]),
            replyType: "()"
        )
    }

    /// `OpenSession` of a `dh-ietf1024-sha256-aes128-cbc-pkcs7` session, offering `exchange`'s public key.
    private static func openSessionCall(_ exchange: FiniteFieldDH) -> DBusMethodCall {
        DBusMethodCall(
            path: servicePath,
            interface: serviceInterface,
            method: "OpenSession",
            arguments: GVariantValue.tuple([
                glib.g_variant_new_string(EncryptedSession.algorithm),
                glib.g_variant_new_variant(GVariantValue.byteArray(exchange.publicKey)),
            ]),
            replyType: "(vo)"
        )
    }

    /// This connection's encrypted session, opened by the first read of a secret (`OpenSession`) and
    /// then reused, as libsecret reuses its session: its path, and its key when asked for. Only the
    /// key needs the client's half of the exchange (a 1024-bit exponentiation and HKDF), so a read
    /// sends its `GetSecrets` to the path first and derives the key while the service answers.
    private func openSession() throws(KeychainError) -> SessionOpening {
        if let session = connection.secretsSession.withLock({ $0 }) {
            return SessionOpening(path: session.path) { .success(session) }
        }
        let exchange: FiniteFieldDH
        do {
            exchange = try FiniteFieldDH(group: .ietf1024)
        } catch {
            throw .backendFailure("cannot make a Diffie-Hellman key for the Secret Service session: \(error)")
        }
        let reply = try call(Self.openSessionCall(exchange))
        let output = reply.child(0)
        let serviceKeyValue = glib.g_variant_get_variant(output)!
        let pathValue = reply.child(1)
        defer { for variant in [pathValue, serviceKeyValue, output] { glib.g_variant_unref(variant) } }
        let path = String(cString: glib.g_variant_get_string(pathValue, nil)!)
        let serviceKey = GVariantValue.withBytes(of: serviceKeyValue) { [UInt8]($0) }
        return SessionOpening(path: path) { [connection] in
            Result { () throws(KeychainError) in
                let session = try EncryptedSession(path: path, serviceKey: serviceKey, exchange: exchange)
                connection.secretsSession.withLock { $0 = session }
                return session
            }
        }
    }

    /// Sends `calls` to the Secret Service at once, runs `meanwhile`, and waits for all replies
    /// (`DBusCallBatch`), under the operation's deadline; the results are in the order of `calls`.
    private func callAll(
        _ calls: [DBusMethodCall],
        meanwhile: () -> Void = {}
    ) -> [Result<DBusReply, KeychainError>] {
        DBusCallBatch.callAll(
            calls,
            destination: Self.busName,
            on: connectionPointer,
            cancellable: cancellable,
            deadline: deadline,
            meanwhile: meanwhile
        )
    }

    private func call(_ call: DBusMethodCall) throws(KeychainError) -> DBusReply {
        try callAll([call])[0].get()
    }
}
