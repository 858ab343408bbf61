internal import CLibSecret
import SecCrypto

/// GVariant values for the Secret Service's D-Bus calls, built with GLib's non-variadic
/// constructors (`g_variant_new` and `g_variant_builder_add` are C-variadic).
enum GVariantValue {
    /// A tuple of `children` (floating references it consumes); returns a floating reference.
    static func tuple(_ children: [OpaquePointer?]) -> OpaquePointer {
        var children = children
        return g_variant_new_tuple(&children, gsize(children.count))
    }

    /// An `a{ss}` dictionary of `pairs` (a floating reference).
    static func stringDictionary(_ pairs: [String: String]) -> OpaquePointer {
        var entries: [OpaquePointer?] = pairs.map {
            g_variant_new_dict_entry(g_variant_new_string($0.key), g_variant_new_string($0.value))
        }
        let type = g_variant_type_new("{ss}")
        defer { g_variant_type_free(type) }
        return g_variant_new_array(type, &entries, gsize(entries.count))
    }

    /// An `ao` array of `paths` (a floating reference).
    static func objectPaths(_ paths: [String]) -> OpaquePointer {
        let copies = paths.map { strdup($0) }
        defer { for copy in copies { free(copy) } }
        var vector = copies.map { UnsafePointer($0) }
        return g_variant_new_objv(&vector, gssize(vector.count))
    }

    /// The strings of an `ao` or `as` value.
    static func strings(of array: OpaquePointer) -> [String] {
        (0..<g_variant_n_children(array)).map { index in
            let element = g_variant_get_child_value(array, index)
            defer { g_variant_unref(element) }
            return String(cString: g_variant_get_string(element, nil))
        }
    }

    /// The child `index` of a container as a new reference (release it with `g_variant_unref`).
    static func child(_ container: OpaquePointer, _ index: Int) -> OpaquePointer {
        g_variant_get_child_value(container, gsize(index))
    }

    /// The bytes of an `ay` value copied into wiped-on-release memory; the value's own bytes are
    /// then overwritten with zeros (they stay valid while the caller holds `array`).
    static func takeBytes(of array: OpaquePointer) -> SecureBytes {
        var count: gsize = 0
        guard let bytes = g_variant_get_fixed_array(array, &count, 1), count > 0 else { return SecureBytes([UInt8]()) }
        let source = UnsafeRawBufferPointer(start: bytes, count: Int(count))
        defer { secureZero(UnsafeMutableRawBufferPointer(mutating: source)) }
        return SecureBytes(source)
    }
}

/// The `a{sv}` reply of `org.freedesktop.DBus.Properties.GetAll`, read with GLib's GVariant calls.
struct PropertyDictionary: ~Copyable {
    /// The `a{sv}` dictionary (a reference this value owns).
    private let dictionary: OpaquePointer

    /// The dictionary of a `(a{sv})` reply.
    init(_ reply: DBusReply) {
        dictionary = reply.child(0)
    }

    deinit { g_variant_unref(dictionary) }

    /// The `(s)` arguments of `GetAll` for `interface` (a floating reference the call consumes).
    static func getAllArguments(_ interface: String) -> OpaquePointer {
        GVariantValue.tuple([g_variant_new_string(interface)])
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
        value(name, type: "t") { g_variant_get_uint64($0) }.flatMap {
            $0 == 0 ? nil : Date(timeIntervalSince1970: TimeInterval($0))
        }
    }

    /// An `a{ss}` property; empty when absent.
    func stringPairs(_ name: String) -> [String: String] {
        value(name, type: "a{ss}") { array in
            var pairs: [String: String] = [:]
            for index in 0..<g_variant_n_children(array) {
                guard let entry = g_variant_get_child_value(array, index) else { continue }
                defer { g_variant_unref(entry) }
                let key = g_variant_get_child_value(entry, 0)
                let value = g_variant_get_child_value(entry, 1)
                defer {
                    g_variant_unref(key)
                    g_variant_unref(value)
                }
                pairs[String(cString: g_variant_get_string(key, nil))] = String(
                    cString: g_variant_get_string(value, nil)
                )
            }
            return pairs
        } ?? [:]
    }
}
