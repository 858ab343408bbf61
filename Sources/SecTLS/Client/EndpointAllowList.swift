/// The endpoints a client may connect to, checked before any connection is made — like validating
/// `NSURLProtectionSpace`'s host, port and protocol before answering a challenge.
///
/// ```swift
/// let allowed = try EndpointAllowList([
///     .init(host: "api.example.com", port: 443, scheme: "https"),
///     .init(host: "**.internal.example", port: 8443),
/// ])
/// ```
public struct EndpointAllowList: Hashable, Sendable {
    /// One permitted endpoint pattern; a nil port or scheme permits any.
    public struct Entry: Hashable, Sendable, CustomStringConvertible {
        public let host: HostPattern
        public let port: Int?
        /// Lower-case (`https`, `imaps`, `tls`).
        public let scheme: String?

        /// An entry permitting `host` on `port` with `scheme`.
        ///
        /// - Parameters:
        ///   - host: the host pattern.
        ///   - port: the port; nil (the default) for any.
        ///   - scheme: the scheme, in any case (kept in lower case); nil (the default) for any.
        public init(host: HostPattern, port: Int? = nil, scheme: String? = nil) {
            self.host = host
            self.port = port
            self.scheme = scheme?.lowercased()
        }

        /// An entry with the host pattern as text (`example.com`, `*.example.com`, `**.example.com`).
        ///
        /// - Parameters:
        ///   - host: the host pattern's text.
        ///   - port: the port; nil (the default) for any.
        ///   - scheme: the scheme, in any case (kept in lower case); nil (the default) for any.
        /// - Throws: ``TLSError/invalidHostPattern(_:)`` when `host` is not a host pattern (see
        ///   ``HostPattern/init(_:)``).
        public init(host: String, port: Int? = nil, scheme: String? = nil) throws(TLSError) {
            self.init(host: try HostPattern(host), port: port, scheme: scheme)
        }

        /// True when the entry permits the endpoint: its host pattern matches `host`, and its port and
        /// scheme, when set, are `port` and `scheme`.
        ///
        /// - Parameters:
        ///   - host: the host to connect to.
        ///   - port: the port to connect to.
        ///   - scheme: the scheme, compared in lower case.
        /// - Returns: true when the entry permits the endpoint.
        public func permits(host: String, port: Int, scheme: String) -> Bool {
            self.host.matches(host) && (self.port.map { $0 == port } ?? true)
                && (self.scheme.map { $0 == scheme.lowercased() } ?? true)
        }

        /// `scheme://host:port`, `*` for what is open.
        public var description: String { "\(scheme ?? "*")://\(host):\(port.map(String.init) ?? "*")" }
    }

    public let entries: [Entry]

    /// An allow-list of `entries`.
    ///
    /// - Parameter entries: the permitted endpoint patterns; an empty list permits nothing.
    public init(_ entries: [Entry]) { self.entries = entries }

    /// True when some entry permits the endpoint.
    ///
    /// - Parameters:
    ///   - host: the host to connect to.
    ///   - port: the port to connect to.
    ///   - scheme: the scheme, compared in lower case.
    /// - Returns: true when some entry permits the endpoint; false for an empty list.
    public func permits(host: String, port: Int, scheme: String) -> Bool {
        entries.contains { $0.permits(host: host, port: port, scheme: scheme) }
    }
}
