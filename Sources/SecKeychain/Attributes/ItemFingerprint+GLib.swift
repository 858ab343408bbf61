internal import CLibSecret
import SecCrypto

extension ItemAttributes {
    /// The lowercase hex SHA-256 of `text`'s UTF-8 bytes.
    ///
    /// Only for `seckit-id`, an index that lets one search find an identity's items (it protects
    /// nothing; the digests that do are OpenSSL's). When the process has loaded GLib (every Secret
    /// Service operation does, before it needs the digest), GLib's `GChecksum` computes it: a lookup
    /// then skips OpenSSL's one-time set-up (its configuration file and providers), which it would
    /// otherwise pay for this one digest. Otherwise (the file and OpenBao backends, which set
    /// OpenSSL up for their own work) OpenSSL's SHA-256 does, so that they never load GLib for it
    /// (docs/performance-journal.md). Both give the same value (ItemFingerprintTests).
    static func sha256Hex(_ text: String) -> String {
        glibLibrary.functionsIfLoaded.map { sha256Hex(text, by: $0) } ?? SHA256.hash(string: text).hexString
    }

    /// `sha256Hex(_:)` by GLib's `GChecksum`.
    static func sha256Hex(_ text: String, by glib: SecKitGLib) -> String {
        var text = text
        return text.withUTF8 { bytes in
            let digest = glib.g_compute_checksum_for_data(G_CHECKSUM_SHA256, bytes.baseAddress, gsize(bytes.count))!
            defer { glib.g_free(digest) }
            return String(cString: digest)
        }
    }
}
