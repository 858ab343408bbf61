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

        public init(host: HostPattern, port: Int? = nil, scheme: String? = nil) {
            self.host = host
            self.port = port
            self.scheme = scheme?.lowercased()
        }

        /// An entry with the host pattern as text (`example.com`, `*.example.com`, `**.example.com`).
        public init(host: String, port: Int? = nil, scheme: String? = nil) throws(TLSError) {
            self.init(host: try HostPattern(host), port: port, scheme: scheme)
        }

        public func permits(host: String, port: Int, scheme: String) -> Bool {
            self.host.matches(host) && (self.port.map { $0 == port } ?? true)
                && (self.scheme.map { $0 == scheme.lowercased() } ?? true)
        }

        /// `scheme://host:port`, `*` for what is open.
        public var description: String { "\(scheme ?? "*")://\(host):\(port.map(String.init) ?? "*")" }
    }

    public let entries: [Entry]

    public init(_ entries: [Entry]) { self.entries = entries }

    /// True when some entry permits the endpoint.
    public func permits(host: String, port: Int, scheme: String) -> Bool {
        entries.contains { $0.permits(host: host, port: port, scheme: scheme) }
    }
}
