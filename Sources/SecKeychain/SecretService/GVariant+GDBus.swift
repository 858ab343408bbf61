internal import CLibSecret
import SecCrypto

/// GVariant values for the Secret Service's D-Bus calls, built with GLib's non-variadic
/// constructors (`g_variant_new` and `g_variant_builder_add` are C-variadic).
enum GVariantValue {
    /// A tuple of `children` (floating references it consumes); returns a floating reference.
    static func tuple(_ children: [OpaquePointer?]) -> OpaquePointer {
        var children = children
        return glib.g_variant_new_tuple(&children, gsize(children.count))!
    }

    /// An `a{ss}` dictionary of `pairs` (a floating reference).
    static func stringDictionary(_ pairs: [String: String]) -> OpaquePointer {
        var entries: [OpaquePointer?] = pairs.map {
            glib.g_variant_new_dict_entry(glib.g_variant_new_string($0.key), glib.g_variant_new_string($0.value))
        }
        let type = glib.g_variant_type_new("{ss}")
        defer { glib.g_variant_type_free(type) }
        return glib.g_variant_new_array(type, &entries, gsize(entries.count))!
    }

    /// An `ao` array of `paths` (a floating reference).
    static func objectPaths(_ paths: [String]) -> OpaquePointer {
        let copies = paths.map { strdup($0) }
        defer { for copy in copies { free(copy) } }
        var vector = copies.map { UnsafePointer($0) }
        return glib.g_variant_new_objv(&vector, gssize(vector.count))!
    }

    /// The strings of an `ao` or `as` value.
    static func strings(of array: OpaquePointer) -> [String] {
        (0..<glib.g_variant_n_children(array)).map { index in
            let element = glib.g_variant_get_child_value(array, index)
            defer { glib.g_variant_unref(element) }
            return String(cString: glib.g_variant_get_string(element, nil)!)
        }
    }

    /// The child `index` of a container as a new reference (release it with `g_variant_unref`).
    static func child(_ container: OpaquePointer, _ index: Int) -> OpaquePointer {
        glib.g_variant_get_child_value(container, gsize(index))!
    }

    /// An `ay` value holding `bytes` (a floating reference).
    static func byteArray(_ bytes: [UInt8]) -> OpaquePointer {
        let type = glib.g_variant_type_new("y")
        defer { glib.g_variant_type_free(type) }
        return bytes.withUnsafeBytes { glib.g_variant_new_fixed_array(type, $0.baseAddress, gsize($0.count), 1)! }
    }

    /// Calls `body` with the bytes of an `ay` value, in place (valid while the caller holds `array`).
    static func withBytes<R, E: Error>(
        of array: OpaquePointer,
        _ body: (UnsafeRawBufferPointer) throws(E) -> R
    ) throws(E) -> R {
        var count: gsize = 0
        let bytes = glib.g_variant_get_fixed_array(array, &count, 1)
        return try body(UnsafeRawBufferPointer(start: count > 0 ? bytes : nil, count: Int(count)))
    }
}

/// The value in the `(v)` reply of `org.freedesktop.DBus.Properties.Get`, read with GLib's GVariant
/// calls. A value of another type than asked for reads as nil (or empty pairs).
struct PropertyValue: ~Copyable {
    /// The unboxed value (a reference this value owns).
    private let value: OpaquePointer

    init(_ reply: DBusReply) {
        let boxed = reply.child(0)
        defer { glib.g_variant_unref(boxed) }
        value = glib.g_variant_get_variant(boxed)!
    }

    deinit { glib.g_variant_unref(value) }

    /// The `(ss)` arguments of `Get` for `property` of `interface` (a floating reference the call consumes).
    static func getArguments(_ interface: String, _ property: String) -> OpaquePointer {
        GVariantValue.tuple([glib.g_variant_new_string(interface), glib.g_variant_new_string(property)])
    }

    private func read<R>(type: String, _ read: (OpaquePointer) -> R) -> R? {
        guard String(cString: glib.g_variant_get_type_string(value)!) == type else { return nil }
        return read(value)
    }

    var string: String? {
        read(type: "s") { String(cString: glib.g_variant_get_string($0, nil)!) }
    }

    var boolean: Bool? {
        read(type: "b") { glib.g_variant_get_boolean($0) != 0 }
    }

    /// A `t` value of seconds since 1970; 0 (unknown) is nil.
    var date: Date? {
        read(type: "t") { glib.g_variant_get_uint64($0) }.flatMap {
            $0 == 0 ? nil : Date(timeIntervalSince1970: TimeInterval($0))
        }
    }

    /// An `a{ss}` value; empty when it is not one.
    var stringPairs: [String: String] {
        read(type: "a{ss}") { array in
            var pairs: [String: String] = [:]
            for index in 0..<glib.g_variant_n_children(array) {
                guard let entry = glib.g_variant_get_child_value(array, index) else { continue }
                defer { glib.g_variant_unref(entry) }
                let key = glib.g_variant_get_child_value(entry, 0)
                let value = glib.g_variant_get_child_value(entry, 1)
                defer {
                    glib.g_variant_unref(key)
                    glib.g_variant_unref(value)
                }
                pairs[String(cString: glib.g_variant_get_string(key, nil)!)] = String(
                    cString: glib.g_variant_get_string(value, nil)!
                )
            }
            return pairs
        } ?? [:]
    }
}
