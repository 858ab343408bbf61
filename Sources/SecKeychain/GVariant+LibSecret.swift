internal import CLibSecret
import SecCrypto

/// The `a{sv}` reply of `org.freedesktop.DBus.Properties.GetAll`, read with GLib's GVariant calls.
struct PropertyDictionary: ~Copyable {
    /// The `a{sv}` dictionary (a reference this value owns).
    private let dictionary: OpaquePointer

    /// Takes over a `(a{sv})` reply; a missing reply is a backend failure.
    init(_ reply: OpaquePointer?) throws(KeychainError) {
        guard let reply else { throw .backendFailure("the Secret Service sent no properties") }
        defer { g_variant_unref(reply) }
        guard g_variant_n_children(reply) == 1, let dictionary = g_variant_get_child_value(reply, 0) else {
            throw .backendFailure("the Secret Service sent properties in an unexpected form")
        }
        self.dictionary = dictionary
    }

    deinit { g_variant_unref(dictionary) }

    /// The `(s)` arguments of `GetAll` for `interface` (a floating reference the call consumes).
    static func getAllArguments(_ interface: String) -> OpaquePointer {
        var children: [OpaquePointer?] = [g_variant_new_string(interface)]
        return g_variant_new_tuple(&children, 1)
    }

    /// The property `name` when it holds a value of the given GVariant type string.
    private func value<R>(_ name: String, type: String, _ read: (OpaquePointer) -> R) -> R? {
        guard let value = g_variant_lookup_value(dictionary, name, nil) else { return nil }
        defer { g_variant_unref(value) }
        guard String(cString: g_variant_get_type_string(value)) == type else { return nil }
        return read(value)
    }

    func string(_ name: String) -> String? {
        value(name, type: "s") { String(cString: g_variant_get_string($0, nil)) }
    }

    func boolean(_ name: String) -> Bool? {
        value(name, type: "b") { g_variant_get_boolean($0) != 0 }
    }

    /// A `t` property of seconds since 1970; 0 (unknown) is nil.
    func date(_ name: String) -> Date? {
        value(name, type: "t") { g_variant_get_uint64($0) }.flatMap { $0 == 0 ? nil : Date(timeIntervalSince1970: TimeInterval($0)) }
    }

    /// An `a{ss}` property; empty when absent.
    func stringPairs(_ name: String) -> [String: String] {
        value(name, type: "a{ss}") { array in
            var pairs: [String: String] = [:]
            for index in 0..<g_variant_n_children(array) {
                guard let entry = g_variant_get_child_value(array, index) else { continue }
                defer { g_variant_unref(entry) }
                let key = g_variant_get_child_value(entry, 0), value = g_variant_get_child_value(entry, 1)
                defer {
                    g_variant_unref(key)
                    g_variant_unref(value)
                }
                pairs[String(cString: g_variant_get_string(key, nil))] = String(cString: g_variant_get_string(value, nil))
            }
            return pairs
        } ?? [:]
    }
}
