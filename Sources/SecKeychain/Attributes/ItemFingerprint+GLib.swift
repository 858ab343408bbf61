internal import CLibSecret

extension ItemAttributes {
    /// The lowercase hex SHA-256 of `text`'s UTF-8 bytes, computed by GLib's `GChecksum`.
    ///
    /// Only for `seckit-id`, an index that lets one search find an identity's items (it protects
    /// nothing; the digests that do are OpenSSL's). GLib, loaded anyway for D-Bus, computes it
    /// without OpenSSL's one-time set-up (its configuration file and providers), which a lookup
    /// would otherwise pay for this one digest (docs/performance-journal.md).
    static func sha256Hex(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            let digest = g_compute_checksum_for_data(G_CHECKSUM_SHA256, bytes.baseAddress, gsize(bytes.count))!
            defer { g_free(digest) }
            return String(cString: digest)
        }
    }
}
