import SecIO

/// A host name pattern of a pin set or an allow-list entry, as OkHttp's `CertificatePinner` writes them:
///
/// - `example.com`: that host only;
/// - `*.example.com`: exactly one more label (`www.example.com`, not `example.com`, not `a.b.example.com`);
/// - `**.example.com`: `example.com` and every name below it, at any depth.
///
/// Matching is on whole labels, case-insensitive, and ignores one trailing dot on either side, so
/// `*.example.com` never matches `example.com.evil.net` or `badexample.com`. IP addresses are exact
/// patterns (`127.0.0.1`, `::1`), compared in canonical form (`HostName.canonical`): `0::1` and
/// `[0:0:0:0:0:0:0:1]` are `::1`, `127.1` is `127.0.0.1`.
public struct HostPattern: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        /// The host itself.
        case exact
        /// One label below the base name.
        case oneLabel
        /// The base name and any depth below it.
        case anyDepth
    }

    public let kind: Kind
    /// The name after the wildcard (or the whole name), lower-case, without a trailing dot.
    public let base: String

    /// Parses `example.com`, `*.example.com` or `**.example.com`. A wildcard anywhere else, empty
    /// labels, white space or a bare `*` are refused.
    ///
    /// - Parameter text: the pattern's text; case and one trailing dot do not matter, and an IPv6
    ///   address may be in brackets.
    /// - Throws: ``TLSError/invalidHostPattern(_:)`` for an empty name, a wildcard other than a leading
    ///   `*.` or `**.`, a control character, NUL, white space, `/` or a bracket, an empty label, a
    ///   wildcard in front of an IP address, or a colon in a name that is not an IPv6 address.
    public init(_ text: String) throws(TLSError) {
        let name = Self.normalize(text)
        let kind: Kind
        let base: Substring
        if name.hasPrefix("**.") {
            (kind, base) = (.anyDepth, name.dropFirst(3))
        } else if name.hasPrefix("*.") {
            (kind, base) = (.oneLabel, name.dropFirst(2))
        } else {
            (kind, base) = (.exact, Substring(name))
        }
        guard !base.isEmpty else {
            throw .invalidHostPattern("empty host name in a pattern of \(text.count) characters")
        }
        guard !base.contains("*") else {
            throw .invalidHostPattern(
                "a wildcard is only allowed as the first label (`*.example.com`, `**.example.com`)"
            )
        }
        if let position = Self.positionOfControlOrSpace(in: base) {
            throw .invalidHostPattern("a control character, NUL or white space in a host name (character \(position))")
        }
        guard !base.contains("/") else { throw .invalidHostPattern("`/` in a host name") }
        // Brackets go around an IPv6 address only, and `normalize` has taken those off.
        guard !base.contains(where: { $0 == "[" || $0 == "]" }) else {
            throw .invalidHostPattern("a bracket in a host name")
        }
        // An IPv6 address has colons instead of labels, and nothing else may: `a:::b.` is no host.
        if base.contains(":") {
            guard kind == .exact else { throw .invalidHostPattern("a wildcard in front of an IP address") }
            guard TCPSocket.isIPAddress(String(base)) else {
                throw .invalidHostPattern("a colon in a host name that is not an IPv6 address")
            }
        } else if base.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty) {
            throw .invalidHostPattern("empty label in a host name")
        }
        self.kind = kind
        self.base = String(base)
    }

    /// True when `host` is covered by this pattern.
    ///
    /// - Parameter host: a host name or IP address, in any case, with or without a trailing dot.
    /// - Returns: true when `host` is covered by this pattern.
    public func matches(_ host: String) -> Bool { matches(normalized: Self.normalize(host)) }

    /// `matches(_:)` for a host already in `normalize`'s form: a caller that tries many patterns
    /// (a pin policy, per handshake) canonicalises the host once.
    func matches(normalized host: String) -> Bool {
        switch kind {
        case .exact:
            return host == base
        case .anyDepth:
            return host == base || host.hasSuffix("." + base)
        case .oneLabel:
            guard host.hasSuffix("." + base) else { return false }
            let label = host.dropLast(base.count + 1)
            return !label.isEmpty && !label.contains(".")
        }
    }

    /// How specific the pattern is, for choosing among several that match: exact names first,
    /// then longer base names, then one-label before any-depth wildcards.
    var specificity: (Int, Int, Int) {
        (kind == .exact ? 1 : 0, base.count, kind == .oneLabel ? 1 : 0)
    }

    /// The pattern as written in normalized form: `*.example.com`.
    public var description: String {
        switch kind {
        case .exact: base
        case .oneLabel: "*." + base
        case .anyDepth: "**." + base
        }
    }

    /// The 1-based position of the first control character (NUL included) or white space in
    /// `name`, or nil. C APIs stop at a NUL that Swift strings keep, so such a name could mean one
    /// host to the pin lookup and another to the resolver or the certificate check.
    static func positionOfControlOrSpace(in name: some StringProtocol) -> Int? {
        let index = name.unicodeScalars.firstIndex {
            $0.properties.generalCategory == .control || $0.properties.isWhitespace
        }
        return index.map { name.unicodeScalars.distance(from: name.unicodeScalars.startIndex, to: $0) + 1 }
    }

    /// Surrounding white space removed, then `HostName.canonical`: lower-case, one trailing dot and
    /// `[::1]` brackets removed, IP addresses in their one canonical form.
    package static func normalize(_ text: String) -> String {
        HostName.canonical(text.trimmingWhitespace())
    }
}
