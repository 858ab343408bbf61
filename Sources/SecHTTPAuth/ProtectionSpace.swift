import SecIO

/// An HTTP authentication scheme SecHTTPAuth answers challenges with.
public enum AuthenticationMethod: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// RFC 7617: the user name and password, base64-encoded (readable by anyone who sees the request).
    case basic = "Basic"
    /// RFC 7616: a hash of the password with the server's nonce.
    case digest = "Digest"

    public var description: String { rawValue }
}

/// Where a credential applies (RFC 9110 §11.5, Foundation's `URLProtectionSpace`): the origin
/// (scheme, host, port), the realm the server names in its challenge, the authentication method,
/// and whether it is a proxy that asks (407 `Proxy-Authenticate`) rather than the server (401).
public struct ProtectionSpace: Hashable, Sendable, CustomStringConvertible {
    /// `http` or `https`, lower-case.
    public let scheme: String
    /// The host in canonical form (`HostName.canonical`).
    public let host: String
    public let port: Int
    /// The realm of the challenge; nil for a space known before any challenge (preemptive Basic).
    public let realm: String?
    public let method: AuthenticationMethod
    public let isProxy: Bool

    /// A protection space; `scheme` is kept in lower case and `host` in canonical form
    /// (``ProtectionSpace/canonicalHost(_:)``).
    ///
    /// - Parameters:
    ///   - scheme: `http` or `https`, in any case.
    ///   - host: the host, in any form `HostName.canonical` accepts.
    ///   - port: the port, the scheme's default (``ProtectionSpace/defaultPort(forScheme:)``) when the
    ///     URL names none.
    ///   - realm: the realm of the challenge; nil for a space known before any challenge.
    ///   - method: the authentication method.
    ///   - isProxy: true for a proxy that asks (407 `Proxy-Authenticate`), false (the default) for the
    ///     server (401).
    public init(
        scheme: String,
        host: String,
        port: Int,
        realm: String?,
        method: AuthenticationMethod,
        isProxy: Bool = false
    ) {
        self.scheme = scheme.lowercased()
        self.host = Self.canonicalHost(host)
        self.port = port
        self.realm = realm
        self.method = method
        self.isProxy = isProxy
    }

    /// The same space for the whole origin: no realm.
    package var withoutRealm: ProtectionSpace {
        ProtectionSpace(scheme: scheme, host: host, port: port, realm: nil, method: method, isProxy: isProxy)
    }

    /// True when requests to this space travel encrypted (`https`).
    public var isSecure: Bool { scheme == "https" }

    /// A host as a protection space keeps it: SecKit's one host rule, `HostName.canonical` (lower-case,
    /// without a trailing dot or an IPv6 literal's brackets, IP addresses in canonical form), so that
    /// credentials are found by the same host that pins are.
    ///
    /// - Parameter host: a host name or IP address, as a URL or a user gives it.
    /// - Returns: the host in canonical form.
    public static func canonicalHost(_ host: String) -> String { HostName.canonical(host) }

    /// The port of `scheme` when a URL names none: 443 for https, 80 otherwise.
    ///
    /// - Parameter scheme: a URL scheme, in any case.
    /// - Returns: 443 for `https`, 80 for anything else.
    public static func defaultPort(forScheme scheme: String) -> Int {
        scheme.lowercased() == "https" ? 443 : 80
    }

    public var description: String {
        "\(isProxy ? "proxy " : "")\(scheme)://\(host):\(port) \(method)"
            + (realm.map { " realm \(UntrustedText.quoted($0, maximumLength: 64))" } ?? "")
    }
}
