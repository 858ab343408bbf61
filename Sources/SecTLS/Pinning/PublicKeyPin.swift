import SecCrypto

/// An RFC 7469 public-key pin: SHA-256 of a certificate's DER SubjectPublicKeyInfo. It survives
/// certificate renewal with the same key, and is what OkHttp's `CertificatePinner`, curl's
/// `--pinnedpubkey sha256//…` and TrustKit check.
///
/// Parsed from `sha256/<base64>` (OkHttp), `sha256//<base64>` (curl), `pin-sha256="<base64>"`
/// (RFC 7469) or the bare 44-character base64; printed as `sha256/<base64>` (`description`) or
/// curl's `sha256//<base64>` (`curlForm`).
public struct PublicKeyPin: Hashable, Sendable, CustomStringConvertible {
    /// The 32-byte SHA-256 digest of the SPKI DER.
    public let sha256: [UInt8]

    init(uncheckedSHA256 bytes: [UInt8]) { sha256 = bytes }

    /// A pin from its 32 digest bytes.
    ///
    /// - Parameter bytes: the SHA-256 digest of a DER SubjectPublicKeyInfo.
    /// - Throws: ``TLSError/invalidPin(_:)`` when `bytes` is not 32 bytes long.
    public init(sha256 bytes: [UInt8]) throws(TLSError) {
        guard bytes.count == 32 else { throw .invalidPin("a SHA-256 pin has 32 bytes, got \(bytes.count)") }
        self.init(uncheckedSHA256: bytes)
    }

    /// The pin of `certificate`'s public key.
    ///
    /// - Parameter certificate: the certificate whose public key to pin.
    public init(certificate: X509Certificate) { self = certificate.publicKeyPin }

    /// Parses one pin in any of the forms above (surrounding white space ignored).
    ///
    /// - Parameter text: the pin's text.
    /// - Throws: ``TLSError/unsupported(_:)`` for a SHA-1 pin (`sha1/`, `pin-sha1`);
    ///   ``TLSError/invalidPin(_:)`` for any other text that is not one of the forms, base64 that is
    ///   not 44 canonical characters, or a malformed `pin-sha256=` directive.
    public init(parsing text: String) throws(TLSError) {
        let trimmed = text.trimmingWhitespace()
        func hasPrefix(_ prefix: String) -> Bool { trimmed.prefix(prefix.count).lowercased() == prefix }
        let base64: Substring
        if hasPrefix("sha256/") {
            // Base64 may itself start with `/`: `sha256//…` is curl's form unless the text after
            // `sha256/` is already the 44 characters of a pin (OkHttp's form of such a pin).
            let okHttp = trimmed.dropFirst(7)
            base64 = okHttp.count != 44 && okHttp.first == "/" ? okHttp.dropFirst() : okHttp
        } else if hasPrefix("pin-sha256") {
            var rest = trimmed.dropFirst(10).drop { $0 == " " }
            guard rest.first == "=" else { throw .invalidPin("expected pin-sha256=\"<base64>\"") }
            rest = rest.dropFirst().drop { $0 == " " }
            if rest.first == "\"" {
                guard rest.count >= 2, rest.last == "\"" else {
                    throw .invalidPin("unterminated quoted string after pin-sha256=")
                }
                rest = rest.dropFirst().dropLast()
            }
            base64 = rest
        } else if hasPrefix("sha1/") || hasPrefix("pin-sha1") {
            throw .unsupported(
                "pin: SHA-1 public-key pins are not supported; use sha256/<base64> (or a certificate fingerprint)"
            )
        } else if trimmed.count == 44 {
            base64 = Substring(trimmed)
        } else {
            throw .invalidPin(
                "expected sha256/<base64>, sha256//<base64>, pin-sha256=\"<base64>\" or 44 base64 characters (got \(trimmed.count) characters)"
            )
        }
        guard base64.count == 44 else {
            throw .invalidPin("the base64 of a SHA-256 pin has 44 characters, got \(base64.count)")
        }
        let bytes: [UInt8]
        do { bytes = try Base64.decodeCanonical(String(base64), alphabet: .standard, padded: true) } catch {
            throw .invalidPin("not canonical standard base64")
        }
        try self.init(sha256: bytes)
    }

    /// Parses a `;`-separated list, as curl's `--pinnedpubkey 'sha256//…;sha256//…'` takes it (each
    /// item in any form `init(parsing:)` accepts; white space around items ignored; at least one pin).
    ///
    /// - Parameter text: the pins, separated by `;` (one trailing `;` is allowed).
    /// - Returns: the pins, in order; at least one.
    /// - Throws: ``TLSError/invalidPin(_:)`` for an empty item, or an item that is not a pin (the
    ///   message names the item and why, a SHA-1 pin included).
    public static func parseList(_ text: String) throws(TLSError) -> [PublicKeyPin] {
        let items = text.split(separator: ";", omittingEmptySubsequences: false)
        var pins: [PublicKeyPin] = []
        for (index, item) in items.enumerated() {
            let trimmed = item.trimmingWhitespace()
            if trimmed.isEmpty {
                if index == items.count - 1 && index > 0 { continue }  // a trailing `;`
                throw .invalidPin("empty item \(index + 1) in the pin list")
            }
            do { pins.append(try PublicKeyPin(parsing: trimmed)) } catch {
                throw .invalidPin("item \(index + 1) of the list: \(Self.reason(error))")
            }
        }
        return pins
    }

    private static func reason(_ error: TLSError) -> String {
        switch error {
        case .invalidPin(let reason): reason
        default: error.description
        }
    }

    /// Standard padded base64 of the digest (44 characters).
    public var base64: String { Base64.encode(sha256) }

    /// `sha256/<base64>` (OkHttp).
    public var description: String { "sha256/\(base64)" }

    /// `sha256//<base64>` (curl `--pinnedpubkey`).
    public var curlForm: String { "sha256//\(base64)" }

    /// `pin-sha256="<base64>"` (RFC 7469 header directive).
    public var rfc7469Form: String { "pin-sha256=\"\(base64)\"" }

    /// True when `certificate`'s public key has this pin (constant-time comparison).
    ///
    /// - Parameter certificate: the certificate to check.
    /// - Returns: true when the SHA-256 of `certificate`'s SubjectPublicKeyInfo is this pin.
    public func matches(_ certificate: X509Certificate) -> Bool {
        constantTimeEquals(certificate.publicKeyPin.sha256, sha256)
    }

    /// Compares the digests in constant time.
    ///
    /// - Parameters:
    ///   - lhs: a pin.
    ///   - rhs: another pin.
    /// - Returns: true when both pins have the same digest.
    public static func == (lhs: Self, rhs: Self) -> Bool { constantTimeEquals(lhs.sha256, rhs.sha256) }
    /// Feeds the digest to `hasher`.
    ///
    /// - Parameter hasher: the hasher to feed.
    public func hash(into hasher: inout Hasher) { hasher.combine(sha256) }
}

/// Any pin SecTLS checks: an RFC 7469 public-key pin, or a whole-certificate fingerprint (SHA-1 or
/// SHA-256, as apps that compare the server certificate's fingerprint to a constant do).
public enum Pin: Hashable, Sendable, CustomStringConvertible {
    case publicKey(PublicKeyPin)
    case certificate(CertificateFingerprint)

    /// Parses every public-key form of `PublicKeyPin(parsing:)`, and certificate fingerprints as
    /// 40 (SHA-1) or 64 (SHA-256) hex digits, with or without colons, with or without the
    /// `sha256 Fingerprint=` label.
    ///
    /// - Parameter text: the pin's text.
    /// - Throws: for a fingerprint (hex digits and colons, or a `Fingerprint=` label), what
    ///   ``CertificateFingerprint/init(parsing:)`` throws, and ``TLSError/invalidPin(_:)`` when it is
    ///   neither SHA-1 nor SHA-256; otherwise what ``PublicKeyPin/init(parsing:)`` throws.
    public init(parsing text: String) throws(TLSError) {
        let trimmed = text.trimmingWhitespace()
        if Self.looksLikeFingerprint(trimmed) {
            let fingerprint = try CertificateFingerprint(parsing: trimmed)
            guard fingerprint.algorithm == .sha1 || fingerprint.algorithm == .sha256 else {
                throw .invalidPin("a certificate pin is a SHA-1 (40 hex digits) or SHA-256 (64 hex digits) fingerprint")
            }
            self = .certificate(fingerprint)
        } else {
            self = .publicKey(try PublicKeyPin(parsing: trimmed))
        }
    }

    /// A fingerprint label, or only hex digits and colons (a 44-character base64 pin always ends in `=`).
    private static func looksLikeFingerprint(_ text: String) -> Bool {
        if text.lowercased().contains("fingerprint=") { return true }
        return !text.isEmpty && text.allSatisfy { $0.isHexDigit || $0 == ":" }
    }

    /// True when `certificate` satisfies this pin.
    ///
    /// - Parameter certificate: the certificate to check.
    /// - Returns: true when its public key has this public-key pin, or its fingerprint is this
    ///   fingerprint.
    public func matches(_ certificate: X509Certificate) -> Bool {
        switch self {
        case .publicKey(let pin): pin.matches(certificate)
        case .certificate(let fingerprint): fingerprint.matches(certificate)
        }
    }

    /// `sha256/<base64>` or `sha256 Fingerprint=AB:CD:…`.
    public var description: String {
        switch self {
        case .publicKey(let pin): pin.description
        case .certificate(let fingerprint): fingerprint.description
        }
    }
}
