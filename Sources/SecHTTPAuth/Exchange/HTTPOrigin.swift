/// Where requests go (RFC 6454's origin): scheme, host and port, kept as a protection space keeps them.
/// Answers that worked are kept per origin, and a challenge judges the answer sent to its origin.
public struct HTTPOrigin: Hashable, Sendable, CustomStringConvertible {
    /// `http` or `https`, lower-case.
    public let scheme: String
    /// The host, lower-case, without a trailing dot (`ProtectionSpace.canonicalHost`).
    public let host: String
    /// The port, the scheme's when the URL names none.
    public let port: Int

    /// - Parameters:
    ///   - scheme: the URL's scheme, in any case.
    ///   - host: the URL's host, in any case, with or without a trailing dot.
    ///   - port: the URL's port; nil for the scheme's (443 for https, 80 otherwise).
    public init(scheme: String, host: String, port: Int? = nil) {
        self.scheme = scheme.lowercased()
        self.host = ProtectionSpace.canonicalHost(host)
        self.port = port ?? ProtectionSpace.defaultPort(forScheme: scheme)
    }

    /// True when requests to this origin travel encrypted (`https`).
    public var isSecure: Bool { scheme == "https" }

    public var description: String { "\(scheme)://\(host):\(port)" }
}

extension ProtectionSpace {
    /// The origin of the space (its scheme, host and port).
    public var origin: HTTPOrigin { HTTPOrigin(scheme: scheme, host: host, port: port) }

    /// The space of `origin` for a challenge of `realm` answered with `method`.
    ///
    /// - Parameters:
    ///   - origin: where the challenge came from.
    ///   - realm: the challenge's realm; nil for a space known before any challenge.
    ///   - method: the scheme the challenge is answered with.
    ///   - isProxy: true when a proxy asked (407).
    public init(origin: HTTPOrigin, realm: String?, method: AuthenticationMethod, isProxy: Bool = false) {
        self.init(
            scheme: origin.scheme,
            host: origin.host,
            port: origin.port,
            realm: realm,
            method: method,
            isProxy: isProxy
        )
    }
}
